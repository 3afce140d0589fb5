"""The stonehenge assignment graded end to end through the real command line.

Every submission (the solution, the starter, the wrong submissions of
assignments/stonehenge/mutants.yaml, which `gamegrader validate` also checks) is graded once,
two at a time, by a module fixture; the tests then read the results.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from gg_testing import ROOT, grade_submissions

from harness.batch.jobs import read_files
from harness.release.validate import (
    load_mutants,
    lost_by_group,
    mutant_files,
    mutant_problems,
    mutants_path,
)
from harness.spec import find_assignment

# One worker runs this module: its module fixture grades every submission the tests read, and
# on a second worker the same fixture would only wait for the first's kept gradings.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("stonehenge_grading")]

SOLUTION = ROOT / "assignments" / "stonehenge" / "solution"
TEMPLATE = ROOT / "assignments" / "stonehenge" / "template"
MUTANTS = {mutant.name: mutant for mutant in load_mutants(find_assignment("stonehenge"))}
GROUPS = {"board": 15, "moves": 8, "input": 4, "captures": 25, "make_move": 5,
          "rough_outcome": 10, "recursive_minimax": 15, "iterative_minimax": 18}

Document = dict[str, Any]
REVEALING = re.compile(r"expected(?! value)|moves that do")
"""Feedback that shows an expected value ("which is not the expected value" does not)."""


def max_by_group(document: Document) -> dict[str, float]:
    totals: dict[str, float] = {}
    for test in document["tests"]:
        group = test["name"].split(": ", 1)[0]
        totals[group] = round(totals.get(group, 0.0) + test["max_score"], 4)
    return totals


def mutant_folder(base: Path, name: str) -> Path:
    """A copy of the solution folder with the mutant's edits applied."""
    folder = base / name
    folder.mkdir()
    solution, _, _ = read_files(SOLUTION)
    for relative, data in mutant_files(MUTANTS[name], solution, mutants_path("stonehenge")).items():
        (folder / relative).write_bytes(data)
    return folder


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Document]:
    """Results of every submission by name ("solution", "template", or a mutant's name)."""
    base = tmp_path_factory.mktemp("stonehenge_submissions")
    folders = {"solution": SOLUTION, "template": TEMPLATE}
    folders.update({name: mutant_folder(base, name) for name in MUTANTS})
    return grade_submissions("stonehenge", folders, base)


def test_solution_scores_full_marks(graded: dict[str, Document]) -> None:
    document = graded["solution"]
    assert max_by_group(document) == GROUPS
    assert document["score"] == 100
    assert all(test["status"] == "passed" for test in document["tests"])


def test_starter_template_scores_zero(graded: dict[str, Document]) -> None:
    document = graded["template"]
    assert document["score"] == 0
    first = document["tests"][0]["output"]
    assert ">>> g = StonehengeGame(True)\n  raised NotImplementedError" in first


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_wrong_submission_fails_exactly_its_pinned_cases(
        name: str, graded: dict[str, Document]) -> None:
    mutant = MUTANTS[name]
    assert not mutant.files, "graded here on every case file: a subset would differ from validate"
    assert isinstance(mutant.lost, dict) and sum(lost_by_group(graded[name]["tests"]).values())
    assert mutant_problems(mutant, graded[name]) == []


def test_hidden_feedback_never_shows_expected_values(graded: dict[str, Document]) -> None:
    for name in ("recapture", "losing_move", "mutating_make_move"):
        failed = [t for t in graded[name]["tests"] if t["score"] < t["max_score"]]
        hidden = [t for t in failed if t["visibility"] != "visible"]
        visible = [t for t in failed if t["visibility"] == "visible"]
        assert hidden and visible
        assert not any(REVEALING.search(t["output"]) for t in hidden)
        assert any(REVEALING.search(t["output"]) for t in visible)
