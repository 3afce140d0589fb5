"""The stonehenge assignment graded end to end through the real command line.

Every submission (the solution, the starter, the wrong submissions of stonehenge_mutants.yaml)
is graded once, two at a time, by a module fixture; the tests then read the results.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from gg_testing import ROOT, grade_submissions, scores_by_group

SOLUTION = ROOT / "reference" / "solutions" / "stonehenge"
TEMPLATE = ROOT / "student_template" / "stonehenge"
MUTANTS: dict[str, Any] = yaml.safe_load(
    (Path(__file__).parent / "stonehenge_mutants.yaml").read_text(encoding="utf-8"))
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


def losses(document: Document) -> dict[str, float]:
    """Points lost per group, for the groups that lost any."""
    earned = scores_by_group(document)
    lost = {group: round(total - earned.get(group, 0.0), 4)
            for group, total in max_by_group(document).items()}
    return {group: points for group, points in lost.items() if points}


def mutant_folder(base: Path, name: str) -> Path:
    """A copy of the solution folder with the mutant's edits applied to its file."""
    spec = MUTANTS[name]
    folder = base / name
    shutil.copytree(SOLUTION, folder, ignore=shutil.ignore_patterns("__pycache__"))
    target = folder / spec["file"]
    text = target.read_text(encoding="utf-8")
    for old, new in spec["replace"]:
        assert old in text, f"{name}: {old!r} is not in {spec['file']}"
        text = text.replace(old, new)
    target.write_text(text, encoding="utf-8")
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
def test_wrong_submission_loses_exactly_its_points(
        name: str, graded: dict[str, Document]) -> None:
    document = graded[name]
    expected = MUTANTS[name]["lost"]
    assert losses(document) == expected, MUTANTS[name]["why"]
    assert abs(100 - document["score"] - sum(expected.values())) < 1e-3
    outputs = "\n".join(test["output"] for test in document["tests"])
    for text in MUTANTS[name].get("feedback", []):
        assert text in outputs


def test_hidden_feedback_never_shows_expected_values(graded: dict[str, Document]) -> None:
    for name in ("recapture", "losing_move", "mutating_make_move"):
        failed = [t for t in graded[name]["tests"] if t["score"] < t["max_score"]]
        hidden = [t for t in failed if t["visibility"] != "visible"]
        visible = [t for t in failed if t["visibility"] == "visible"]
        assert hidden and visible
        assert not any(REVEALING.search(t["output"]) for t in hidden)
        assert any(REVEALING.search(t["output"]) for t in visible)
