"""Class 2 of issue 18: where the handout leaves a value's form open, every reasonable form earns
the reference's score; where its doctest shows the form, the form stays exact.

Dominoes: the handout never says what ``get_best_move`` returns as the move when the player to
move has none, so ``None``, ``()`` and ``[]`` are all right. Isolation: the handout returns "a
move as a list in the format (row column)" and "(nil nil)", so lists and tuples are both right,
and so are named tuples (``Move(3, 4) == (3, 4)``).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from gradingfair_support import GENERATED, grade_variant, per_case, reference_fixture

pytestmark = pytest.mark.slow

DOMINOES_ROOT_RETURN = "        return move, value, leaves[0]"
DOMINOES_NO_MOVE = {
    "empty list at the root": [
        (DOMINOES_ROOT_RETURN, "        return (move if move is not None else []), value, "
                               "leaves[0]")],
    "empty tuple at the root": [
        (DOMINOES_ROOT_RETURN, "        if move is None:\n            move = ()\n"
                               + DOMINOES_ROOT_RETURN)],
    "empty list as every node's no-move": [
        ("return game.evaluate(vertical), None", "return game.evaluate(vertical), []"),
        ('value, best = float("-inf"), None', 'value, best = float("-inf"), []'),
        ('value, best = float("inf"), None', 'value, best = float("inf"), []')],
}
ISOLATION_LISTS = {
    "move as a list": [("return (best // SIZE + 1, best % SIZE + 1)",
                        "return [best // SIZE + 1, best % SIZE + 1]")],
    "stuck as [None, None]": [("return (None, None)", "return [None, None]")],
    "both as lists, built by a helper": [
        ("return (None, None)", "return as_list(None, None)"),
        ("return (best // SIZE + 1, best % SIZE + 1)",
         "return as_list(best // SIZE + 1, best % SIZE + 1)"),
        ("def choose_move(board, player, time_left):",
         "def as_list(row, col):\n    return [row, col]\n\n\n"
         "def choose_move(board, player, time_left):")],
    "both as named tuples": [
        ("return (None, None)", "return Move(None, None)"),
        ("return (best // SIZE + 1, best % SIZE + 1)",
         "return Move(best // SIZE + 1, best % SIZE + 1)"),
        ("def choose_move(board, player, time_left):",
         "Move = __import__('collections').namedtuple('Move', 'row col')\n\n\n"
         "def choose_move(board, player, time_left):")],
}


STEMS = {"adversarial_search": ["02_get_best_move"], "isolation": ["01_choose_move"]}
VARIANTS = {**{("adversarial_search", name): edits for name, edits in DOMINOES_NO_MOVE.items()},
            **{("isolation", name): edits for name, edits in ISOLATION_LISTS.items()}}
dominoes_reference = reference_fixture("adversarial_search", STEMS["adversarial_search"])
isolation_reference = reference_fixture("isolation", STEMS["isolation"], GENERATED["isolation"])


@pytest.mark.parametrize(("assignment", "name"), sorted(VARIANTS))
def test_forms_the_handout_leaves_open_score_as_the_reference(
        assignment: str, name: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    reference = request.getfixturevalue("dominoes_reference" if assignment == "adversarial_search"
                                        else "isolation_reference")
    document = grade_variant(tmp_path, assignment, VARIANTS[assignment, name],
                             stems=STEMS[assignment], generated=GENERATED.get(assignment))
    assert reference["score"] == sum(t["max_score"] for t in reference["tests"]) > 0
    assert per_case(document) == per_case(reference)


def test_dominoes_move_form_the_handout_shows_stays_exact(
        dominoes_reference: dict[str, Any], tmp_path: Path) -> None:
    """The handout's doctest shows the move as a (row, col) tuple: a list is not that."""
    listed = [(DOMINOES_ROOT_RETURN, "        return (list(move) if move else move), "
                                     "value, leaves[0]")]
    document = grade_variant(tmp_path, "adversarial_search", listed, stems=["02_get_best_move"])
    assert document["score"] < dominoes_reference["score"]
    handout = next(t for t in document["tests"] if "(handout)" in t["name"])
    assert "move wrong (expected (0, 1), got [0, 1])" in handout["output"]
