"""A function that lost the handout's default is graded, not blocked: cases that pass every
argument (as a course's own tests may) count, and only a call that leaves the argument out
fails, with Python's TypeError naming it; the top of the results says why once."""
from __future__ import annotations

from pathlib import Path

import pytest

from harness.grading.api import GradingOptions, cases_to_grade
from harness.grading.grader import Grader
from harness.records.verdicts import Verdict
from harness.spec import load_assignment

pytestmark = pytest.mark.slow

ASSIGNMENT = """\
name: demo
title: Demo
module: demo
submission_files: [demo.py]
api:
  - add(a, b=0)
"""
CASES = """\
group: calls
cases:
  - name: every argument
    doctest: |
      >>> add(1, 2)
      3
  - name: the default left out
    doctest: |
      >>> add(1)
      1
"""


def test_only_the_call_that_leaves_the_argument_out_fails(tmp_path: Path) -> None:
    folder = tmp_path / "demo"
    (folder / "cases").mkdir(parents=True)
    (folder / "assignment.yaml").write_text(ASSIGNMENT)
    (folder / "cases" / "01_calls.yaml").write_text(CASES)
    submission = tmp_path / "submission"
    submission.mkdir()
    (submission / "demo.py").write_text("def add(a, b):\n    return a + b\n")
    assignment = load_assignment(folder)
    cases = cases_to_grade(assignment, GradingOptions())
    grader = Grader(assignment, submission, budget=120, planned=cases)
    try:
        full, short = (grader.grade(case) for case in cases)
        summary = grader.summary_lines()
    finally:
        grader.close()
    assert full.verdict is Verdict.PASSED
    assert short.verdict is Verdict.RAISED and short.score == 0
    assert short.message.startswith(">>> add(1)\n  raised TypeError: add() missing 1 required "
                                    "positional argument: 'b'")
    assert summary == ["add: b has no default in yours, where the handout gives add(a, b=0); "
                       "only a call that leaves it out fails (with a TypeError)"]
