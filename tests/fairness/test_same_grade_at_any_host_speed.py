"""Issue 53, item 7: the same grade at any measured host speed. Limits relative to the reference
scale with the host's speed (measured afresh under load: 0.29x nominal beside six CPU burners);
the budget, and so every group's share, and the probe's floor scale with them. Before, only the
limits did: a slow agent's search that ran out of its (now 3.4 times longer) limit used up its
group's share, and a later case it passes alone was "not run: the best_move cases used up their
share of the time budget".

The host speed is pinned here (``GAMEGRADER_HOST_SPEED``) at what the loaded measurement gave,
so the test is the same on any machine: what a real load does to the speed is measured by
``gamegrader calibrate --fresh``, and what it does to the cases' wall times (charged by CPU
time, not wall time) by tests/fairness/test_same_grade_on_any_load.py.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from test_same_grade_on_any_load import ASSIGNMENT, budget_for

from harness.grading.grader import Grader
from harness.spec import load_assignment
from harness.spec.loader import load_all_cases
from harness.timing.calibration import SPEED_ENV

pytestmark = pytest.mark.slow

STUDENT = '''\
class TakeAway:
    def __init__(self, stones):
        self.stones = stones

    def moves(self):
        return [take for take in (1, 2, 3) if take <= self.stones]

    def get_best_move(self, limit):
        if limit >= 5:  # "deep enough": searches to the end, which never comes for a big pile
            while True:
                pass
        return 1 if self.stones % 4 == 1 else min(self.stones, 2)
'''
LIMIT = {"reference": 20, "at_least": 2}
"""Every search case's limit: 2 s on the nominal machine (6.9 s at 0.29x)."""
PASSING = {2: 2, 3: 2, 5: 1, 6: 2}
"""Piles of the quick cases and the student's (accepted) answers at limit 1."""
SEARCH = f"""\
group: best_move
defaults: {{points: 1, visibility: visible, timeout: {LIMIT}}}
cases:
  - name: pile 60, limit 5 (runs out of time)
    doctest: |
      >>> TakeAway(60).get_best_move(5)
      3
""" + "".join(f"""\
  - name: pile {pile}, limit 1
    doctest: |
      >>> TakeAway({pile}).get_best_move(1)
      {answer}
""" for pile, answer in PASSING.items())
MOVES = """\
group: moves
defaults: {points: 1, visibility: visible, timeout: 2}
cases:
  - name: three stones
    doctest: |
      >>> TakeAway(3).moves()
      [1, 2, 3]
"""
REFERENCE_TIMES = """\
recorded: '2026-12-06'
host_speed: 1.0
seconds:
  best_move::pile 60, limit 5 (runs out of time): 0.01
""" + "".join(f"  best_move::pile {pile}, limit 1: 0.0{2 + index}\n"
              for index, pile in enumerate(PASSING))
SEARCH_SHARE = 3.2
"""The search group's share on the nominal machine, in a tight budget (where shares hold their
seconds whatever the limits, so only the charges grew with the host factor): its first case's
full limit (2 s), then room for the quick cases, not for a second full limit."""
LOADED_SPEED = "0.29"
"""The host speed measured beside six CPU burners (issue 53)."""


def write_assignment(root: Path) -> Path:
    """The assignment (the take-away game of ``test_same_grade_on_any_load``) in ``root``."""
    (root / "cases").mkdir(parents=True, exist_ok=True)
    (root / "assignment.yaml").write_text(ASSIGNMENT)
    (root / "cases" / "01_best_move.yaml").write_text(SEARCH)
    (root / "cases" / "02_moves.yaml").write_text(MOVES)
    (root / "reference_times.yaml").write_text(REFERENCE_TIMES)
    return root


def graded(folder: Path, budget: float) -> list[tuple[str, str, float]]:
    assignment = load_assignment(write_assignment(folder / "loaddemo"))
    cases = load_all_cases(assignment)
    (folder / "takeaway.py").write_text(STUDENT)
    grader = Grader(assignment, folder / "takeaway.py", budget=budget, planned=cases)
    try:
        results = grader.grade_all(cases, lanes=1)
    finally:
        grader.close()
    return [(r.case.name, r.verdict.name, r.score) for r in results]


def test_a_case_that_passes_at_nominal_speed_passes_at_the_speed_measured_under_load(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plan = load_all_cases(load_assignment(write_assignment(tmp_path / "plan" / "loaddemo")))
    budget = budget_for(SEARCH_SHARE, plan)
    monkeypatch.setenv(SPEED_ENV, "1.0")
    nominal = graded(tmp_path / "nominal", budget)
    monkeypatch.setenv(SPEED_ENV, LOADED_SPEED)
    loaded = graded(tmp_path / "loaded", budget)
    assert [verdict for _, verdict, _ in nominal] == ["TIMED_OUT"] + ["PASSED"] * 5, nominal
    assert loaded == nominal
