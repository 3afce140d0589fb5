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

import json
import os
from pathlib import Path

import pytest
from test_same_grade_on_any_load import ASSIGNMENT, budget_for, burners, on_one_cpu

from harness.grading.grader import Grader
from harness.release.validate import subset_root
from harness.spec import find_assignment, load_assignment
from harness.spec.loader import load_all_cases
from harness.timing.calibration import CACHE_ENV, SPEED_ENV
from harness.timing.hang_probes import run_order

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


UNSEEN_AGENT = (Path(__file__).parents[2] / "assignments" / "othello" / "tests" / "unseen"
                / "agent.py")
SLOW_ON_8X8 = '''\
    if len(board) > 6:  # "my move list was wrong on big boards once": checked 300000 times
        for _ in range(300000):
            assert len(get_possible_moves(board, player)) == len(result)
'''
"""What makes the real-style agent slow: each 8x8 node costs seconds, so its 8x8 ordering
searches run out of their limits at any host speed the grader can measure (the slowest, 0.1x,
makes the 2 s limit 20 s), loaded or not, and a run alone on a host busy with other work is
still the scenario (with a search of 12 CPU-seconds, as this agent first had, a suite run
beside 6 burners measured so slow a speed that the scaled limit let the first 8x8 search
finish, and no case came after the timeout the test looks at); the 6x6 ones stay quick. A
case that runs out of time is stopped at its limit, so this costs no more CPU than before."""
ORDERING_LIMIT = "{reference: 20, at_least: 2}"
"""The ordering cases' limit: 2 s on the nominal machine (the spec's 30 s would make each
timeout cost 30 CPU-seconds and, beside the burners, minutes of wall time)."""
ORDERING_SHARE = 3.2
"""The group's share on this host: one full limit, then room for the quick 6x6 cases."""


def slow_agent() -> str:
    """assignments/othello/tests/unseen/agent.py with a costly check in ``successors`` on 8x8
    boards."""
    text = UNSEEN_AGENT.read_text()
    anchor = "    if ordering:\n        result.sort("
    assert anchor in text
    return text.replace(anchor, SLOW_ON_8X8 + anchor, 1)


def graded_othello(folder: Path, root: Path, budget: float) -> list[tuple[str, str, float]]:
    """The ordering group of ``root``'s Othello graded for ``slow_agent``, with the host's speed
    measured afresh (a cache of its own, nothing pinned); results in the order they ran."""
    assignment = load_assignment(root / "assignments" / "othello")
    cases = load_all_cases(assignment)
    folder.mkdir()
    (folder / "agent.py").write_text(slow_agent())
    grader = Grader(assignment, folder / "agent.py", budget=budget, planned=cases)
    try:
        results = grader.grade_all(cases, lanes=1)
        assert grader.host is not None and grader.host.source != SPEED_ENV
    finally:
        grader.close()
    return [(results[i].case.name, results[i].verdict.name, results[i].score)
            for i in run_order(cases)]


def test_a_slow_othello_agent_scores_the_same_beside_busy_processes_at_the_speed_measured_there(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 53's scenario: a slow real-style agent, graded alone and beside busy processes,
    each time with the host's speed measured afresh. The loaded grading runs on one CPU beside
    three burners there: the speed it then measures (about 0.2x) is about what six burners on
    this two-CPU host gave (0.29x), for half the CPU."""
    monkeypatch.delenv(SPEED_ENV, raising=False)
    root = tmp_path / "root"
    subset_root(find_assignment("othello"), ["06_ordering"], root)
    spec = root / "assignments" / "othello" / "cases" / "06_ordering.yaml"
    text = spec.read_text()
    assert "timeout: {reference: 20, at_least: 30}" in text
    spec.write_text(text.replace("{reference: 20, at_least: 30}", ORDERING_LIMIT))
    budget = budget_for(ORDERING_SHARE, load_all_cases(load_assignment(spec.parents[1])),
                        group="ordering")
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "alone.json"))
    alone = graded_othello(tmp_path / "alone", root, budget)
    cpu = max(os.sched_getaffinity(0))
    with on_one_cpu(cpu):
        busy = burners(3, cpu)
        try:
            monkeypatch.setenv(CACHE_ENV, str(tmp_path / "loaded.json"))
            loaded = graded_othello(tmp_path / "loaded", root, budget)
        finally:
            for process in busy:
                process.kill()
                process.wait()
    speeds = [json.loads((tmp_path / f"{run}.json").read_text()) for run in ("alone", "loaded")]
    factors = [next(iter(entries.values()))["factor"] for entries in speeds]
    # The burners were felt, and measured (what the run alone measures depends on what else
    # the host runs: on this shared machine anything from 0.1x to 0.35x)
    assert factors[1] < 0.5, factors
    verdicts = [verdict for _, verdict, _ in alone]
    # Not vacuous: an 8x8 search ran out of its limit (charged its limit, which the speed
    # scaled), some cases passed, and every case after the first timeout still ran (none "not
    # run: the ordering cases used up their share"). (With only the limits scaled, a slow speed,
    # measured beside the burners or on a host busy anyway, left the later ones not run.)
    first = verdicts.index("TIMED_OUT")
    assert "PASSED" in verdicts and len(verdicts) - first >= 2, alone
    assert "NOT_RUN" not in verdicts[first:], alone
    assert loaded == alone, (factors, alone, loaded)
