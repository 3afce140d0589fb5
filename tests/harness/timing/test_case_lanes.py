"""Cases side by side ("lanes", ``harness.timing.lanes``): the grades are those of one case at a
time.

End to end on the Dominoes assignment: the same verdicts, scores and messages with two lanes as
with one, for the reference and for a variant that is wrong in places and loops in others;
cases in different lanes do not share /tmp; cases marked ``alone`` never have a neighbour; a
case not passed beside another is graded again alone (after a timeout, the rest one at a time),
among them one whose neighbour took every process its user may have. The lane count's rules
are checked on fake host figures, and the host figures on fake control-group files.
"""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from gg_testing import ROOT, run_gamegrader

from harness import host
from harness.grading.api import GradingOptions, grade
from harness.grading.grader import Grader
from harness.records.spec import Case, Visibility
from harness.records.verdicts import CaseResult, Verdict
from harness.sandbox.execution import RawRun
from harness.sandbox.session import NO_ZYGOTE_ENV
from harness.spec import find_assignment
from harness.spec.doctests import parse_transcript
from harness.spec.loader import load_all_cases
from harness.timing import lanes

pytestmark = pytest.mark.slow

ASSIGNMENT = find_assignment("adversarial_search")
SOLUTION = ROOT / "reference/solutions/adversarial_search/adversarial_search.py"


def transcript_case(name: str, doctest: str, alone: bool = False) -> Case:
    return Case(id=f"lanes::{name}", number=name, group="lanes", name=name, points=1.0,
                visibility=Visibility.VISIBLE, timeout=20.0, file=Path("lanes.yaml"),
                examples=parse_transcript(doctest), alone=alone)


def sleeper(name: str, seconds: float, alone: bool = False) -> Case:
    return transcript_case(name, f">>> __import__('time').sleep({seconds})\n", alone)


def graded(submission: Path, cases: list[Case], lane_count: int, **options: float
           ) -> tuple[list[CaseResult], list[str], Grader]:
    """Every case's result, the ids in the order ``on_result`` saw them, and the grader."""
    grader = Grader(ASSIGNMENT, submission, planned=cases, **options)  # type: ignore[arg-type]
    seen: list[str] = []
    try:
        results = grader.grade_all(cases, lane_count, lambda result: seen.append(result.case.id))
    finally:
        grader.close()
    return results, seen, grader


@pytest.fixture(scope="module")
def two_lanes() -> None:
    """Skips where this machine's sandbox cannot open a second lane."""
    grader = Grader(ASSIGNMENT, SOLUTION)
    try:
        if grader.sandbox.widen(2) != 2:
            pytest.skip("lanes need a zygote with private scratch mounts (root and namespaces, "
                        "as scripts/test.sh sets up)")
    finally:
        grader.close()


needs_lanes = pytest.mark.usefixtures("two_lanes")


def summary(results: list[CaseResult]) -> list[tuple[str, str, float, str]]:
    return [(r.case.id, r.verdict.value, r.score, r.message) for r in results]


def variant(tmp_path: Path) -> Path:
    """The reference, wrong in ``copy`` (it shares the board) and hanging at depth 3 and more."""
    source = SOLUTION.read_text(encoding="utf-8")
    source = source.replace("    def get_best_move(self, vertical, limit):\n",
                            "    def get_best_move(self, vertical, limit):\n"
                            "        while limit >= 3:\n"
                            "            __import__('time').sleep(1)\n", 1)
    source = source.replace("    def copy(self):\n",
                            "    def copy(self):\n        return self\n", 1)
    path = tmp_path / "adversarial_search.py"
    path.write_text(source, encoding="utf-8")
    return path


@needs_lanes
def test_two_lanes_give_the_results_of_one_in_case_order(tmp_path: Path) -> None:
    every = load_all_cases(ASSIGNMENT)  # the variant's searches mostly hang: 5 of them do
    cases = [c for c in every if c.group != "get_best_move"] + \
        [c for c in every if c.group == "get_best_move"][:5]
    for submission in (SOLUTION, variant(tmp_path)):
        one, seen_one, _ = graded(submission, cases, 1, timeout_cap=1.0)
        two, seen_two, grader = graded(submission, cases, 2, timeout_cap=1.0)
        assert summary(two) == summary(one)
        assert seen_two == seen_one == [case.id for case in cases]
    verdicts = {result.verdict for result in one}
    assert {Verdict.PASSED, Verdict.TIMED_OUT} <= verdicts and len(verdicts) >= 3, verdicts
    assert grader.graded_again_alone, "the variant's first timeout was beside another case"


@needs_lanes
def test_cases_in_two_lanes_run_at_once_and_share_no_scratch_folder() -> None:
    writer = transcript_case("writes /tmp", ">>> open('/tmp/lane-mark', 'w').write('x')\n1\n"
                                            ">>> __import__('time').sleep(2.5)\n")
    reader = transcript_case("reads /tmp", ">>> __import__('time').sleep(1.2)\n"
                                           ">>> __import__('os').path.exists('/tmp/lane-mark')\n"
                                           "False\n")
    # run alone, one in each lane (a free lane queues up behind the others): each lane's
    # /tmp was emptied after its case
    later = [transcript_case(f"after both ({n})",
                             ">>> __import__('os').path.exists('/tmp/lane-mark')\nFalse\n",
                             alone=True) for n in (1, 2)]
    grader = Grader(ASSIGNMENT, SOLUTION, planned=[writer, reader, *later])
    _, _, spans = overlaps(grader)
    try:
        grader.preflight()
        results = grader.grade_all([writer, reader, *later], 2)
    finally:
        grader.close()
    assert [r.verdict for r in results] == [Verdict.PASSED] * 4, [r.message for r in results]
    # The two cases ran at once for most of the reader's 1.2 s sleep, so the reader looked for
    # the mark while the writer's case was running (a measure load cannot break, unlike a
    # bound on the whole grading's wall time).
    (writer_start, writer_end), (reader_start, reader_end) = (
        spans[case.examples[0].source] for case in (writer, reader))
    assert min(writer_end, reader_end) - max(writer_start, reader_start) >= 1.0


def overlaps(grader: Grader
             ) -> tuple[dict[str, int], list[str], dict[str, tuple[float, float]]]:
    """Wrap the grader's sandbox: the most cases running beside each case, the order of
    starts, and each case's run (monotonic start and end), by its first example."""
    run = grader.sandbox.run_examples
    active: set[str] = set()
    beside: dict[str, int] = {}
    starts: list[str] = []
    spans: dict[str, tuple[float, float]] = {}
    lock = threading.Lock()

    def counted(examples: list[str], **options: object) -> RawRun:
        name = examples[0]
        started = time.monotonic()
        with lock:
            starts.append(name)
            active.add(name)
            for other in active:
                beside[other] = max(beside.get(other, 0), len(active) - 1)
        try:
            return run(examples, **options)  # type: ignore[arg-type]
        finally:
            with lock:
                active.discard(name)
                spans[name] = (started, time.monotonic())

    grader.sandbox.run_examples = counted  # type: ignore[method-assign]
    return beside, starts, spans


@needs_lanes
def test_a_case_marked_alone_never_has_a_neighbour() -> None:
    cases = [sleeper("a", 0.3), sleeper("b", 0.31), sleeper("alone", 0.32, alone=True),
             sleeper("c", 0.33), sleeper("d", 0.34)]
    grader = Grader(ASSIGNMENT, SOLUTION, planned=cases)
    beside, _, _ = overlaps(grader)
    try:
        results = grader.grade_all(cases, 2)
    finally:
        grader.close()
    assert all(r.passed for r in results)
    by_case = {case.name: beside[case.examples[0].source] for case in cases}
    assert by_case == {"a": 1, "b": 1, "alone": 0, "c": 1, "d": 1}


@needs_lanes
def test_a_neighbour_holding_every_process_of_the_user_costs_the_other_case_nothing() -> None:
    hog = transcript_case("takes every process the user may have", """\
>>> import os, time
>>> children = 0
>>> while True:
...     try:
...         pid = os.fork()
...     except OSError:
...         break
...     if pid == 0:
...         time.sleep(5)
...         os._exit(0)
...     children += 1
>>> children > 0
True
>>> time.sleep(5)
""")
    threads = transcript_case("starts five threads", """\
>>> import threading, time
>>> time.sleep(2.5)  # the neighbour has long taken every process by then
>>> started = [threading.Thread(target=time.sleep, args=(0.1,)) for _ in range(5)]
>>> for thread in started:
...     thread.start()
>>> len(started)
5
""")
    results, _, grader = graded(SOLUTION, [hog, threads], 2)
    assert [r.verdict for r in results] == [Verdict.PASSED] * 2, [r.message for r in results]
    assert grader.graded_again_alone == [threads.id]  # beside the hog it could not start them


def hurt_once_beside_another(first_run: RawRun) -> tuple[Grader, list[CaseResult],
                                                          dict[str, int], list[str]]:
    """Four cases in two lanes, the first of which comes back as ``first_run`` the first time
    (as if its neighbour had hurt it) and runs normally after: (grader, results, most cases
    beside each, order of starts)."""
    cases = [sleeper("hurt", 0.2), sleeper("beside", 0.4), sleeper("after", 0.21),
             sleeper("last", 0.22)]
    grader = Grader(ASSIGNMENT, SOLUTION, planned=cases)
    beside, starts, _ = overlaps(grader)
    counted = grader.sandbox.run_examples
    hurt = cases[0].examples[0].source

    def hurt_once(examples: list[str], **options: object) -> RawRun:
        done = counted(examples, **options)
        return first_run if examples[0] == hurt and starts.count(hurt) == 1 else done

    grader.sandbox.run_examples = hurt_once  # type: ignore[method-assign]
    try:
        results = grader.grade_all(cases, 2)
    finally:
        grader.close()
    name = {case.examples[0].source: case.name for case in cases}
    return grader, results, {name[source]: most for source, most in beside.items()}, \
        [name[source] for source in starts]


@needs_lanes
def test_a_case_that_timed_out_beside_another_is_graded_again_alone() -> None:
    # as if a neighbour had held its CPU: it ran out of time
    grader, results, beside, starts = hurt_once_beside_another(
        RawRun(None, "", "", True, None, 1.0))
    assert [r.verdict for r in results] == [Verdict.PASSED] * 4
    assert grader.graded_again_alone == [results[0].case.id]
    # graded again once the case beside it finished, and everything after one at a time
    assert starts == ["hurt", "beside", "hurt", "after", "last"]
    assert beside["after"] == beside["last"] == 0


@needs_lanes
def test_a_case_that_crashed_beside_another_is_graded_again_alone_and_lanes_go_on() -> None:
    # as if a neighbour had used up the user's threads: it crashed
    grader, results, beside, starts = hurt_once_beside_another(
        RawRun(None, "", "", False, -9, 0.2))
    assert [r.verdict for r in results] == [Verdict.PASSED] * 4
    assert grader.graded_again_alone == [results[0].case.id]
    assert starts[:3] == ["hurt", "beside", "hurt"]
    assert beside["after"] == beside["last"] == 1


@needs_lanes
def test_a_grading_whose_cases_mostly_fail_soon_runs_them_one_at_a_time() -> None:
    # wrong answers, each worth a second run alone: after a few of them, lanes stop paying
    cases = [transcript_case(f"wrong {n}", ">>> 1 + 1\n3\n") for n in range(12)]
    results, seen, grader = graded(SOLUTION, cases, 2)
    assert [r.verdict for r in results] == [Verdict.WRONG_ANSWER] * 12
    assert seen == [case.id for case in cases]
    # every case not passed beside another was graded again, but only until the fourth
    again = grader.graded_again_alone
    assert lanes.FAILED_BEFORE_SERIAL <= len(again) <= lanes.FAILED_BEFORE_SERIAL + 1, again
    assert again == [case.id for case in cases[:len(again)]]


def test_lanes_are_kept_while_few_cases_fail() -> None:
    assert lanes.keep_lanes(3, 3)  # too few to judge
    assert not lanes.keep_lanes(4, 4)
    assert lanes.keep_lanes(4, 17) and not lanes.keep_lanes(4, 16)  # a quarter
    assert lanes.keep_lanes(0, 100)


@needs_lanes
@pytest.mark.skipif(len(host.allowed_cpus()) < 2, reason="pinning lanes needs two CPUs")
def test_a_lane_for_every_cpu_runs_on_its_own_and_the_grader_keeps_them_all() -> None:
    cpus = host.allowed_cpus()[:2]
    grader = Grader(ASSIGNMENT, SOLUTION)
    try:
        assert grader.sandbox.widen(2, cpus) == 2
        grader.preflight()  # starts the first lane's zygote
        zygotes = [lane.zygote for lane in grader.sandbox._lanes]
        assert [os.sched_getaffinity(z.process.pid) for z in zygotes if z] == [{c} for c in cpus]
        assert os.sched_getaffinity(0) == set(host.allowed_cpus())
    finally:
        grader.close()
    assert lanes.lane_cpus(len(host.allowed_cpus())) == host.allowed_cpus()
    assert lanes.lane_cpus(1) == []


@needs_lanes
def test_the_results_say_how_many_cases_ran_at_once_and_the_output_does_not() -> None:
    options = {"visible_only": True}
    one = grade("adversarial_search", SOLUTION, GradingOptions(lanes=1, **options)).document
    two = grade("adversarial_search", SOLUTION, GradingOptions(lanes=2, **options)).document
    assert (one["extra_data"]["lanes"], two["extra_data"]["lanes"]) == (1, 2)
    assert two["extra_data"]["graded_again_alone"] == []
    assert one["output"] == two["output"] and one["score"] == two["score"]


def test_a_lane_count_below_one_is_a_usage_error() -> None:
    done = run_gamegrader("grade", "--assignment", "adversarial_search", "--submission",
                          str(SOLUTION), "--output", "/dev/null", "--lanes", "0")
    assert done.returncode == 2
    assert "--lanes: expected a whole number of 1 or more, got '0'" in done.stderr


def test_without_a_zygote_a_sandbox_offers_one_lane(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(NO_ZYGOTE_ENV, "1")
    grader = Grader(ASSIGNMENT, SOLUTION)
    try:
        assert grader.sandbox.widen(4) == 1
    finally:
        grader.close()


# --- how many lanes -----------------------------------------------------------------------------

def host_with(monkeypatch: pytest.MonkeyPatch, cpus: int, others: int = 0,
              memory_mb: int = 16000) -> None:
    monkeypatch.delenv(lanes.LANES_ENV, raising=False)
    monkeypatch.setattr(lanes, "usable_cpus", lambda: cpus)
    monkeypatch.setattr(lanes, "others_running", lambda: others)
    monkeypatch.setattr(lanes, "spare_memory_mb", lambda: memory_mb)


def test_lanes_follow_idle_cpus_memory_and_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    host_with(monkeypatch, cpus=2)
    assert lanes.choose_lanes(512) == 2
    host_with(monkeypatch, cpus=1)  # e.g. Gradescope's half CPU
    assert lanes.choose_lanes(512) == 1
    host_with(monkeypatch, cpus=2, others=1)  # another program keeps a CPU busy
    assert lanes.choose_lanes(512) == 1
    host_with(monkeypatch, cpus=4, others=1)
    assert lanes.choose_lanes(512) == 3
    host_with(monkeypatch, cpus=4, memory_mb=1100)  # two cases at their memory limit fit
    assert lanes.choose_lanes(512) == 2
    host_with(monkeypatch, cpus=64)
    assert lanes.choose_lanes(512) == lanes.MAX_LANES


def test_lanes_asked_for_win_over_the_host(monkeypatch: pytest.MonkeyPatch) -> None:
    host_with(monkeypatch, cpus=8)
    assert lanes.choose_lanes(512, asked=1) == 1
    monkeypatch.setenv(lanes.LANES_ENV, "1")
    assert lanes.choose_lanes(512) == 1
    assert lanes.choose_lanes(512, asked=3) == 3
    monkeypatch.setenv(lanes.LANES_ENV, "many")  # not a number: the host decides
    assert lanes.choose_lanes(512) == 4


def cgroup(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text + "\n", encoding="ascii")
    return tmp_path


def test_the_cpu_quota_of_control_groups_v2_and_v1(tmp_path: Path) -> None:
    assert host.cpu_quota(cgroup(tmp_path / "a", {"cpu.max": "50000 100000"})) == 0.5
    assert host.cpu_quota(cgroup(tmp_path / "b", {"cpu.max": "max 100000"})) is None
    v1 = cgroup(tmp_path / "c", {"cpu/cpu.cfs_quota_us": "200000",
                                 "cpu/cpu.cfs_period_us": "100000"})
    assert host.cpu_quota(v1) == 2.0
    unlimited = cgroup(tmp_path / "d", {"cpu/cpu.cfs_quota_us": "-1",
                                        "cpu/cpu.cfs_period_us": "100000"})
    assert host.cpu_quota(unlimited) is None
    assert host.usable_cpus(tmp_path / "a") == 1  # half a CPU is one lane, not none
    assert host.usable_cpus(tmp_path / "empty") == max(1, len(host.allowed_cpus()))


def test_spare_memory_is_what_the_control_group_still_allows(tmp_path: Path) -> None:
    root = cgroup(tmp_path, {"memory.max": str(768 << 20), "memory.current": str(268 << 20)})
    assert host.spare_memory_mb(root) == 500
    assert host.spare_memory_mb(tmp_path / "none") > 0  # the kernel's MemAvailable


def test_others_running_counts_a_busy_program() -> None:
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.1)
        busy = host.others_running()
    finally:
        spinner.kill()
        spinner.wait()
    assert busy >= 1  # running or waiting for a CPU, it counts in every sample
