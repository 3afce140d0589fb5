"""Top-level code that takes long is named at the top of the results: every case imports the
student's file afresh, so a student's own tests left unguarded are paid by each case (in its time
limit and in the budget), and the plain "timed out" of the cases alone does not say why."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from harness.intake.preflight import (
    IMPORT_ALLOWANCE_CAP,
    SLOW_IMPORT_SECONDS,
    Preflight,
    run_preflight,
)
from harness.sandbox import Sandbox
from harness.spec.assignments import parse_api_entry

pytestmark = pytest.mark.slow

ANSWER = "def answer():\n    return 42\n"
BUSY = ("import time\n_end = time.process_time() + {seconds}\n"
        "while time.process_time() < _end:\n    pass\n")


def preflight_of(tmp_path: Path, text: str, timeout: float = 30):
    (tmp_path / "student.py").write_text(text)
    with Sandbox("student", {"student.py": tmp_path / "student.py"}) as box:
        return run_preflight(box, (parse_api_entry("answer()"),), timeout=timeout)


def test_a_slow_top_level_is_named_with_its_time_and_the_remedy(tmp_path: Path) -> None:
    checked = preflight_of(tmp_path, ANSWER + BUSY.format(seconds=SLOW_IMPORT_SECONDS + 0.3))
    assert checked.import_problem == "" and checked.broken == {}
    note = next(n for n in checked.notes if n.startswith("Importing your file took "))
    assert "runs again in every test" in note and 'if __name__ == "__main__":' in note


@pytest.mark.parametrize("text", [ANSWER, ANSWER + "print(answer())\n"])
def test_a_quick_import_gets_no_note(tmp_path: Path, text: str) -> None:
    assert preflight_of(tmp_path, text).notes == ()


DEMO = """\
name: demo
title: Demo
module: student
api:
  - answer()
"""
FOREVER_CASE = """\
group: forever
defaults: {points: 1, visibility: visible, timeout: 1}
cases:
  - name: a call that never returns
    doctest: |
      >>> forever()
      1
"""
# Sleeps rather than spins: the case is stopped at its limit all the same (a wall-clock
# deadline), without burning a CPU for it.
FOREVER = "def forever():\n    import time\n    while True:\n        time.sleep(1)\n"


def _limit_given(tmp_path: Path, text: str) -> float:
    """The time limit the grader gave a never-ending case of 1 s, read off its feedback."""
    from harness.grading.grader import Grader
    from harness.spec import load_assignment
    from harness.spec.loader import load_all_cases
    folder = tmp_path / "demo"
    (folder / "cases").mkdir(parents=True)
    (folder / "assignment.yaml").write_text(DEMO)
    (folder / "cases" / "01_forever.yaml").write_text(FOREVER_CASE)
    assignment = load_assignment(folder)
    (tmp_path / "student.py").write_text(text)
    cases = load_all_cases(assignment)
    grader = Grader(assignment, tmp_path / "student.py", planned=cases)
    try:
        result = grader.grade(cases[0])
    finally:
        grader.close()
    found = re.search(r"did not finish within ([\d.]+) s", result.message)
    assert found, result.message
    return float(found.group(1))


def test_each_case_s_limit_grows_by_the_import_time_up_to_a_cap(tmp_path: Path) -> None:
    """A course's tests imported the file once; here every case imports it afresh, so the time
    its top level takes is added to each case's limit (a number read, not a race: the case never
    ends, so only the limit it was given is asserted)."""
    slow = BUSY.format(seconds=SLOW_IMPORT_SECONDS + 0.3)
    assert _limit_given(tmp_path / "quick", ANSWER + FOREVER) < 1.2
    given = _limit_given(tmp_path / "slow", ANSWER + FOREVER + slow)
    assert 1 + SLOW_IMPORT_SECONDS + 0.3 <= given <= 1 + IMPORT_ALLOWANCE_CAP


def test_the_allowance_is_capped() -> None:
    assert Preflight(import_seconds=0.2).import_allowance == 0.2
    assert Preflight(import_seconds=1e6).import_allowance == IMPORT_ALLOWANCE_CAP


SLEEPY = "import time\ntime.sleep({seconds})\n"


def host_held_back(monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    """The sandbox's reading of how long a busy host kept the case's processes from a CPU
    (a real reading is tested in tests/harness/sandbox/test_run_queue_time.py)."""
    for where in ("harness.sandbox.forkserver", "harness.sandbox.execution"):
        monkeypatch.setattr(f"{where}.tree_held_back_seconds",
                            lambda top, with_top: seconds)


@pytest.mark.parametrize("fresh_interpreter", [False, True], ids=["zygote", "fresh interpreter"])
def test_an_import_a_busy_host_kept_from_the_cpu_gets_that_time_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_interpreter: bool) -> None:
    """The check's verdict blocks every case: an import that needs 1.5 s of its 1 s wait only
    because other programs held the CPU (here: 2 s of it) is not the student's doing."""
    host_held_back(monkeypatch, 2.0)
    if fresh_interpreter:
        from harness.sandbox.session import NO_ZYGOTE_ENV
        monkeypatch.setenv(NO_ZYGOTE_ENV, "1")
    checked = preflight_of(tmp_path, SLEEPY.format(seconds=1.5) + ANSWER, timeout=1)
    assert checked.import_problem == "" and checked.broken == {}


def test_an_import_that_sleeps_through_its_wait_stands_at_it_on_any_host(tmp_path: Path) -> None:
    """A sleeping import waits for no CPU, so no load lengthens its wait (before, on a busy
    host it was tried again with three times the wait)."""
    checked = preflight_of(tmp_path, SLEEPY.format(seconds=1.5) + ANSWER, timeout=1)
    assert checked.import_problem == "importing your file did not finish within 1 s"


def test_the_time_given_back_is_bounded_and_said(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    host_held_back(monkeypatch, 1e6)
    checked = preflight_of(tmp_path, SLEEPY.format(seconds=60) + ANSWER, timeout=0.5)
    given = re.fullmatch(r"importing your file did not finish within 0\.5 s \(it was given "
                         r"(\d+) s in all, as other programs were using the CPU\)",
                         checked.import_problem)
    assert given, checked.import_problem
    assert int(given.group(1)) <= 0.5 * 3 + 2  # HOST_PATIENCE times the wait and its start


@pytest.mark.parametrize("fresh_interpreter", [False, True], ids=["zygote", "fresh interpreter"])
def test_an_import_that_computes_through_its_wait_stands_at_it_whatever_the_load(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_interpreter: bool) -> None:
    """A loop at the top level: a longer wait would not end it. It stops once it has had its
    wait on a CPU (on a busy host, later in wall time), and is never started again. Also where
    each case is a fresh interpreter (no zygote: the plain level, which Windows and macOS
    students get): there a retry had cost a spinning file four waits. Before, on a host at load
    6-8 the loop got under half its wait on a CPU and was tried again."""
    if fresh_interpreter:
        from harness.sandbox.session import NO_ZYGOTE_ENV
        monkeypatch.setenv(NO_ZYGOTE_ENV, "1")
    checked = preflight_of(tmp_path, "while True:\n    pass\n" + ANSWER, timeout=1)
    assert checked.import_problem.startswith("importing your file did not finish within 1 s")
    assert "tried again" not in checked.import_problem
