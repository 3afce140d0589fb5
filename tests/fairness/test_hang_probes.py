"""Issue 42, item 2: a function's hang is paid once (``harness.timing.hang_probes``).

Unit tests of the rule (which case gets a probe, when a family stops, when functions get their
full limits back, the order cases run in), then gradings: a file whose search never returns
pays one full limit, short probes and a stop after it, told why; a file that finishes every case
is graded as before.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from gradingfair_support import grade_variant, per_case, reference_fixture

from harness.records.spec import Case, RelativeTimeout, Visibility
from harness.timing.hang_probes import (
    PROBE_FLOOR_SECONDS,
    PROBE_FRACTION,
    STOP_AFTER,
    HangMemory,
    run_order,
)

pytestmark = pytest.mark.slow


def case(group: str, number: int, requires: tuple[str, ...] = ("f",), timeout: float = 10.0,
         reference: float | None = None,
         visibility: Visibility = Visibility.AFTER_DUE_DATE) -> Case:
    relative = None if reference is None else RelativeTimeout(10.0, 1.0, reference)
    return Case(id=f"{group}-{number}", number=str(number), group=group, name=f"case {number}",
                points=1.0, visibility=visibility, timeout=timeout,
                file=Path(f"{group}.yaml"), examples=(), requires=requires,
                relative_timeout=relative)


def test_after_a_full_timeout_its_functions_get_probes_and_a_finish_gives_full_limits_back(
        ) -> None:
    hangs = HangMemory()
    first, second, third, fourth = (case("g", i) for i in range(4))
    assert hangs.probe(first, 10.0) is None  # nothing timed out yet: its full limit
    hangs.settled(first, timed_out=True)
    probe = hangs.probe(second, 10.0)
    assert probe is not None and probe.after == "case 0" and probe.functions == ("f",)
    assert probe.seconds == pytest.approx(max(PROBE_FLOOR_SECONDS, 10.0 * PROBE_FRACTION))
    hangs.settled(second, timed_out=True, probe=probe)  # a probe keeps it suspected
    third_probe = hangs.probe(third, 10.0)
    assert third_probe is not None and third_probe.after == "case 0"
    hangs.settled(third, timed_out=False, probe=third_probe)  # a probe that finished
    assert hangs.probe(fourth, 10.0) is None


def test_a_group_that_keeps_running_out_of_time_stops_and_says_why() -> None:
    hangs = HangMemory()
    hangs.settled(case("g", 0, ("f", "h")), timed_out=True)  # its full limit
    for number in range(1, STOP_AFTER):
        requires = ("f", "h") if number % 2 else ("f",)  # other cases of the group count too
        assert not hangs.stopped(case("g", number, requires))
        probe = hangs.probe(case("g", number, requires), 10.0)
        assert probe is not None
        hangs.settled(case("g", number, requires), timed_out=True, probe=probe)
    message = hangs.stopped(case("g", 9, ("f", "h")))
    assert message == "not run: f, h ran out of time in the earlier case 'case 0' and in each g " \
        "case after it"
    # Only that group stops, and only its cases calling a suspected function: a case of
    # another group gets its probe (it may finish, and clear the functions it calls).
    assert not hangs.stopped(case("g", 10, ("k",))) and not hangs.stopped(case("other", 1))
    assert hangs.probe(case("other", 1, ("f",)), 10.0) is not None
    hangs.settled(case("other", 1, ("f",)), timed_out=False)
    assert hangs.stopped(case("g", 11, ("f", "h")))  # h is still suspected
    assert not hangs.stopped(case("g", 12, ("f",)))


def test_a_visible_case_is_never_stopped_and_gets_the_shortest_probe() -> None:
    # issue 50: visible 4x4 cases finishing in under a second were "not run" after larger
    # cases of the same functions ran out of time, losing their points and the evidence
    hangs = HangMemory()
    hangs.settled(case("g", 0), timed_out=True)
    run_out(hangs, range(1, STOP_AFTER))
    visible = case("g", 9, visibility=Visibility.VISIBLE)
    assert hangs.stopped(case("g", 8)) and not hangs.stopped(visible)
    probe = hangs.probe(visible, 30.0)
    assert probe is not None and probe.seconds == pytest.approx(PROBE_FLOOR_SECONDS)
    hangs.settled(visible, timed_out=False, probe=probe)  # it finished: graded, f cleared
    assert not hangs.stopped(case("g", 10))


def run_out(hangs: HangMemory, numbers: range, requires: tuple[str, ...] = ("f",)) -> None:
    """Cases of group ``g`` that each run out of time (in a probe where one applies)."""
    for number in numbers:
        assert not hangs.stopped(case("g", number, requires))
        probe = hangs.probe(case("g", number, requires), 10.0)
        hangs.settled(case("g", number, requires), timed_out=True, probe=probe)


def test_a_finished_case_of_the_group_starts_the_count_again() -> None:
    hangs = HangMemory()
    run_out(hangs, range(STOP_AFTER - 1))
    hangs.settled(case("g", 20), timed_out=False)  # finished: f cleared, the count with it
    run_out(hangs, range(30, 30 + STOP_AFTER - 1))  # a full limit again, then probes
    assert not hangs.stopped(case("g", 40))
    run_out(hangs, range(41, 42))
    assert hangs.stopped(case("g", 42))
    fresh = HangMemory()  # timeouts the budget cut short count for nothing
    for number in range(STOP_AFTER + 1):
        fresh.settled(case("g", number), timed_out=True, cut=True)
    assert not fresh.stopped(case("g", 99)) and fresh.probe(case("g", 99), 10.0) is None


def test_a_probe_has_a_floor_and_never_exceeds_the_limit() -> None:
    hangs = HangMemory()
    hangs.settled(case("g", 0), timed_out=True)
    assert hangs.probe(case("g", 1), 3.0).seconds == pytest.approx(PROBE_FLOOR_SECONDS)
    assert hangs.probe(case("g", 2), PROBE_FLOOR_SECONDS) is None  # no shorter than its limit


def test_any_case_calling_a_suspected_function_gets_a_probe_in_any_group() -> None:
    hangs = HangMemory()
    hangs.settled(case("g", 0, ("f", "g")), timed_out=True)
    assert hangs.probe(case("g", 1, ("h",)), 10.0) is None  # none of its functions
    other = hangs.probe(case("other", 1, ("f", "h")), 10.0)
    assert other is not None and other.functions == ("f",)
    assert hangs.probe(case("g", 2, ("g",)), 10.0) is not None


def test_a_finished_case_clears_only_the_functions_it_called() -> None:
    hangs = HangMemory()
    hangs.settled(case("g", 0, ("f", "g")), timed_out=True)
    hangs.settled(case("other", 1, ("f",)), timed_out=False)  # a wrong answer, say
    assert hangs.probe(case("g", 2, ("f",)), 10.0) is None  # f finished since
    probe = hangs.probe(case("g", 3, ("f", "g")), 10.0)
    assert probe is not None and probe.functions == ("g",)  # g did not
    hangs.settled(case("g", 4, ("g", "h")), timed_out=False)
    assert hangs.probe(case("g", 5, ("f", "g")), 10.0) is None


def test_a_case_calling_no_named_function_suspects_only_its_own_group() -> None:
    hangs = HangMemory()
    hangs.settled(case("g", 0, ()), timed_out=True)
    assert hangs.probe(case("g", 1, ()), 10.0) is not None
    assert hangs.probe(case("other", 1, ()), 10.0) is None
    assert hangs.probe(case("g", 2, ("f",)), 10.0) is None
    hangs.settled(case("g", 3, ()), timed_out=False)
    assert hangs.probe(case("g", 4, ()), 10.0) is None


def test_a_wrong_answer_or_a_timeout_the_budget_cut_suspects_nothing() -> None:
    hangs = HangMemory()
    hangs.settled(case("g", 0), timed_out=False)
    assert hangs.probe(case("g", 1), 10.0) is None
    hangs.settled(case("g", 2), timed_out=True, cut=True)  # cut: not its full limit
    assert hangs.probe(case("g", 3), 10.0) is None


def test_game_and_clocked_cases_never_get_a_probe_or_a_stop() -> None:
    from dataclasses import replace
    hangs = HangMemory()
    hangs.settled(case("g", 0), timed_out=True)
    run_out(hangs, range(1, STOP_AFTER))
    assert hangs.stopped(case("g", 9))
    assert hangs.probe(replace(case("g", 1), runner="x:y"), 10.0) is None
    assert hangs.probe(replace(case("g", 2), alone=True), 10.0) is None
    assert not hangs.stopped(replace(case("g", 1), runner="x:y"))
    assert not hangs.stopped(replace(case("g", 2), alone=True))


def test_cases_run_small_to_large_within_their_group_and_groups_in_file_order() -> None:
    cases = [case("a", 0, reference=3.0), case("a", 1, reference=0.5), case("b", 2, timeout=9),
             case("b", 3, timeout=2), case("a", 4), case("b", 5, timeout=2)]
    order = run_order(cases)
    assert order == [1, 0, 4, 3, 5, 2]
    assert sorted(order) == list(range(len(cases)))


# --- gradings -----------------------------------------------------------------------------------

STEMS = ["02_get_best_move"]
SEARCH = "    def get_best_move(self, vertical, limit):\n"
NEVER_RETURNS = [(SEARCH, SEARCH + "        while True:\n            pass\n")]
CAP = 2.0

reference = reference_fixture("adversarial_search", STEMS)


def test_a_search_that_never_returns_pays_one_full_limit_and_is_told_why(
        tmp_path: Path) -> None:
    document = grade_variant(tmp_path, "adversarial_search", NEVER_RETURNS, stems=STEMS,
                             budget=400.0, timeout_cap=CAP)
    tests = [t for t in document["tests"] if t["name"].startswith("get_best_move")]
    assert len(tests) > 10 and all(t["score"] == 0 for t in tests)
    probed = [t for t in tests if "stopped after a short probe" in t["output"]]
    stopped = [t for t in tests if "DominoesGame.get_best_move ran out of time in the earlier "
               "case" in t["output"] and "in each get_best_move case after it" in t["output"]]
    # Every case calls get_best_move, so one case pays its full limit; the group stops once
    # STOP_AFTER of its cases in a row ran out of time.
    full = [t for t in tests if t not in probed and t not in stopped]
    assert len(full) == 1 and len(probed) == STOP_AFTER - 1
    assert len(stopped) == len(tests) - STOP_AFTER
    assert all(t["extra_data"]["verdict"] == "NOT_RUN" for t in stopped)
    named = {re.search(r"in the earlier case '(.+?)'", t["output"]).group(1)  # type: ignore[union-attr]
             for t in probed + stopped}
    assert all("__init__" not in t["output"] for t in probed + stopped)
    assert named == {full[0]["name"].split(": ", 1)[1]}
    seconds = [float(t["extra_data"]["seconds"]) for t in probed]
    assert max(seconds) < CAP  # each probe stopped before the full (capped) limit


def test_a_file_that_finishes_its_cases_never_meets_a_probe(reference: dict, tmp_path: Path
                                                            ) -> None:
    slow = [("        value, move = max_value(", "        __import__('time').sleep(0.05)\n"
             "        value, move = max_value(")]
    document = grade_variant(tmp_path, "adversarial_search", slow, stems=STEMS, budget=400.0,
                             timeout_cap=CAP)
    assert per_case(document) == per_case(reference)
    assert not any("probe" in t["output"] for t in document["tests"])
