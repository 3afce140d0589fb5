"""Issue 42, item 3: the same grade on any load. A group's share of the time budget is spent
from a ledger of what its cases cost alone (``harness.timing.budget.case_charge``), so which cases a
slow submission gets to run does not depend on what else the host runs.

A small assignment: a ``search`` group whose student search ignores its depth limit from depth
4 on (those cases never finish), so the group runs out of its share partway; a quick ``double``
group after it. Graded alone and beside two CPU-burning processes, every case's verdict and
score must be the same.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from harness.grading.grader import Grader
from harness.grading.verdicts import Verdict
from harness.spec import load_assignment
from harness.spec.loader import load_all_cases

pytestmark = pytest.mark.slow

ASSIGNMENT = """\
name: loaddemo
title: Load demo
module: student
api:
  - count_leaves(height, depth)
  - double(x)
"""
# Depth 3 passes (8 leaves, each scored at a real CPU cost), depth 5 never ends for this student.
# The never-ending cases reach their depth through ``double`` (another family, see
# harness.timing.hang_probes), so the passing cases after them keep their full limits: this test is
# about the budget, not probes.
DEPTHS = [3] * 8 + [5, 5, 3] + [5] * 6 + [3, 3]
KEY = 10
"""The passing case that runs late in the group's share."""
SEARCH_CASES = "group: search\ndefaults: {points: 1, visibility: visible, timeout: 3}\ncases:\n" + \
    "".join(f"  - name: case {i:02d}, depth {d}\n    doctest: |\n"
            + ("      >>> count_leaves(40, 3)\n      8\n" if d == 3 else
               "      >>> count_leaves(40, double(2) + 1)\n      32\n")
            for i, d in enumerate(DEPTHS))
DOUBLE_CASES = """\
group: double
defaults: {points: 1, visibility: visible, timeout: 60}
cases:
  - name: two
    doctest: |
      >>> double(2)
      4
  - name: three
    doctest: |
      >>> double(3)
      6
"""
STUDENT = '''\
def count_leaves(height, depth):
    """Leaves a search of a complete binary tree of ``height`` reaches down to ``depth``."""
    def visit(level, remaining):
        if level == height or remaining == 0:
            return 1 + 0 * sum(range(4_000_000))  # a costly evaluation of the leaf
        below = remaining - 1 if depth < 4 else remaining  # the bug: deep means "to the end"
        return visit(level + 1, below) + visit(level + 1, below)
    return visit(0, depth)


def double(x):
    return 2 * x
'''
BUDGET = 40.3
"""Most of it guaranteed to the quick group (two cases of 60 s) that runs after the search
group, so the run ends far from the budget on the wall clock. The search group (19 cases of
3 s) is guaranteed about 12 s. Charged alone, a passing case costs about 0.4 s of CPU, the
first never-ending case 3 s and the later ones a 1 s probe each: case 10 (``KEY``) runs with
its full limit (for a passing case of 0.25 to 0.6 s) and passes, and the group runs out among
the six never-ending cases after it, so the last two cases are not run. Counted in wall time
beside busy processes, the cases before case 10 could cost more than 12 s, and it would not
run."""
BURN_SECONDS = 120
"""A burner ends by itself after this long, should the test die before killing it."""


def grade(folder: Path) -> list[tuple[str, str, float]]:
    root = folder / "loaddemo"
    (root / "cases").mkdir(parents=True, exist_ok=True)
    (root / "assignment.yaml").write_text(ASSIGNMENT)
    (root / "cases" / "01_search.yaml").write_text(SEARCH_CASES)
    (root / "cases" / "02_double.yaml").write_text(DOUBLE_CASES)
    (folder / "student.py").write_text(STUDENT)
    assignment = load_assignment(root)
    cases = load_all_cases(assignment)
    grader = Grader(assignment, folder / "student.py", budget=BUDGET, planned=cases)
    try:
        results = grader.grade_all(cases, lanes=1)
    finally:
        grader.close()
    return [(r.case.name, r.verdict.name, r.score) for r in results]


def burners(count: int) -> list[subprocess.Popen[bytes]]:
    code = (f"import signal; signal.alarm({BURN_SECONDS})\n"
            "while True:\n    pass\n")
    return [subprocess.Popen([sys.executable, "-c", code]) for _ in range(count)]


def test_a_slow_submission_scores_the_same_alone_and_beside_busy_processes(
        tmp_path: Path) -> None:
    alone = grade(tmp_path / "alone")
    busy = burners(2)
    try:
        loaded = grade(tmp_path / "loaded")
    finally:
        for process in busy:
            process.kill()
            process.wait()
    # A never-ending case may be cut short or not run at the point the share runs out (it
    # scores nothing either way); every case's score, and which cases pass, are the same.
    assert [(name, score) for name, _, score in loaded] == \
        [(name, score) for name, _, score in alone]
    assert [v == Verdict.PASSED.name for _, v, _ in loaded] == \
        [v == Verdict.PASSED.name for _, v, _ in alone]
    verdicts = [verdict for _, verdict, _ in alone]
    search = verdicts[:len(DEPTHS)]
    # Not vacuous: a passing case comes after the group spent most of its share, and the
    # group ran out before its last passing cases.
    assert search[KEY] == Verdict.PASSED.name
    assert search[-2:] == [Verdict.NOT_RUN.name] * 2
    assert verdicts[len(DEPTHS):] == [Verdict.PASSED.name] * 2
