"""A course's unittest suite graded end to end: the same points as the same checks in YAML,
and a hostile submission contained."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from native_support import SOLUTION, TEMPLATE, suite_root


def grade(root: Path, submission: Path, out: Path) -> dict:
    done = subprocess.run([sys.executable, "-m", "harness", "grade", "--assignment",
                           "adversarial_search", "--submission", str(submission),
                           "--output", str(out)], capture_output=True, text=True,
                          env={**os.environ, "GAMEGRADER_ROOT": str(root)}, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(out.read_text())


def twins(document: dict) -> list[tuple[str, float, float]]:
    """Each suite test's score beside its YAML twin's (the same name in the other group)."""
    by_group: dict[str, dict[str, float]] = {}
    for test in document["tests"]:
        group, _, name = test["name"].partition(": ")
        by_group.setdefault(group, {})[name] = test["score"]
    suite, checks = by_group["course suite"], by_group["course checks"]
    assert suite.keys() == checks.keys()
    return [(name, suite[name], checks[name]) for name in suite]


@pytest.mark.slow
def test_the_suite_gives_the_points_of_the_same_checks_in_yaml(tmp_path):
    root = suite_root(tmp_path / "root")
    mutant = tmp_path / "mutant" / "adversarial_search.py"
    mutant.parent.mkdir()
    mutant.write_text(SOLUTION.read_text().replace("leaves[0] += 1", "leaves[0] += 2"))
    totals = []
    for number, submission in enumerate((SOLUTION, mutant, TEMPLATE)):
        document = grade(root, submission, tmp_path / f"{number}.json")
        pairs = twins(document)
        assert all(suite == checks for _, suite, checks in pairs), pairs
        totals.append(sum(suite for _, suite, _ in pairs))
    assert totals == [13.0, 5.0, 0.0]  # the mutant's leaf counts fail the two search tests


HOSTILE = '''
import sys
import unittest

unittest.TestCase.assertEqual = lambda *args, **kwargs: None  # the grader's assertions
unittest.TestCase.assertTrue = lambda *args, **kwargs: None


def _forge():
    """Clear the records the rewritten test keeps, and mark the test as finished."""
    frame = sys._getframe(1)
    while frame is not None:
        for value in list(frame.f_locals.values()):
            if isinstance(value, list) and value and all(isinstance(r, list) for r in value):
                value.clear()
                value.append([-1])
        frame = frame.f_back


class AlwaysEqual:
    def __eq__(self, other):
        return True
'''


@pytest.mark.slow
def test_a_hostile_submission_is_contained(tmp_path):
    root = suite_root(tmp_path / "root")
    text = SOLUTION.read_text()
    text = text.replace("    def get_board(self):\n",
                        "    def get_board(self):\n        return AlwaysEqual()\n", 1)
    text = text.replace("    def get_best_move(self, vertical, limit):\n",
                        "    def get_best_move(self, vertical, limit):\n        _forge()\n"
                        "        return None\n", 1)
    assert "AlwaysEqual()" in text and "_forge()" in text
    hostile = tmp_path / "hostile" / "adversarial_search.py"
    hostile.parent.mkdir()
    hostile.write_text(HOSTILE + text)
    document = grade(root, hostile, tmp_path / "hostile.json")
    scores = {name: suite for name, suite, _ in twins(document)}
    assert scores == {
        "create_dominoes_game(3, 3) gives an empty board": 0.0,  # AlwaysEqual is no board
        "every top cell of an empty 3x3 board takes a vertical domino": 1.0,
        "perform_move fills both cells of a vertical domino": 0.0,
        "a full board is over for both players": 1.0,
        "get_best_move on an empty 3x3 board, vertical": 0.0,  # records forged: refused
        "get_best_move after (0, 1) vertical, horizontal": 0.0}


@pytest.mark.slow
def test_a_hidden_test_over_a_table_gives_the_solution_its_points(tmp_path):
    """The hidden tests of a suite whose inputs and answers share a table (sent as plain
    arguments, the loop unrolled) pass for the solution and fail for the template."""
    suite = (Path(__file__).parents[2] / "hostile/suites/searches_suite.py").read_text()
    root = suite_root(tmp_path / "root", suite)
    for submission, expected in ((SOLUTION, [1.0, 8.0, 4.0, 1.0]),
                                 (TEMPLATE, [0.0, 0.0, 0.0, 0.0])):
        document = grade(root, submission, tmp_path / f"{submission.parent.name}.json")
        assert [t["score"] for t in document["tests"]] == expected, document["tests"]
