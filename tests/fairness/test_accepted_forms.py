"""Class 2 of issue 18: where the handout leaves a value's form open, every reasonable form earns
the reference's score; where its doctest shows the form, the form stays exact.

Dominoes: the handout never says what ``get_best_move`` returns as the move when the player to
move has none, so ``None``, ``()`` and ``[]`` are all right. Isolation: the handout returns "a
move as a list in the format (row column)" and "(nil nil)", so lists and tuples are both right.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gradingfair_support import SOLUTIONS, grade, per_case, variant

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
}


@pytest.fixture(scope="module")
def dominoes_reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return grade(tmp_path_factory.mktemp("reference"), "adversarial_search",
                 SOLUTIONS["adversarial_search"], stems=["02_get_best_move"])


@pytest.fixture(scope="module")
def isolation_reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return grade(tmp_path_factory.mktemp("reference"), "isolation", SOLUTIONS["isolation"],
                 stems=["01_choose_move"])


@pytest.mark.parametrize("name", sorted(DOMINOES_NO_MOVE))
def test_dominoes_no_move_forms_score_as_the_reference(
        name: str, dominoes_reference: dict[str, Any], tmp_path: Path) -> None:
    honest = variant(tmp_path, SOLUTIONS["adversarial_search"], DOMINOES_NO_MOVE[name])
    document = grade(tmp_path / "grading", "adversarial_search", honest,
                     stems=["02_get_best_move"])
    assert dominoes_reference["score"] == 40
    assert per_case(document) == per_case(dominoes_reference)


def test_dominoes_move_form_the_handout_shows_stays_exact(
        dominoes_reference: dict[str, Any], tmp_path: Path) -> None:
    """The handout's doctest shows the move as a (row, col) tuple: a list is not that."""
    listed = variant(tmp_path, SOLUTIONS["adversarial_search"],
                     [(DOMINOES_ROOT_RETURN, "        return (list(move) if move else move), "
                                             "value, leaves[0]")])
    document = grade(tmp_path / "grading", "adversarial_search", listed,
                     stems=["02_get_best_move"])
    assert document["score"] < dominoes_reference["score"]
    handout = next(t for t in document["tests"] if "(handout)" in t["name"])
    assert "move wrong (expected (0, 1), got [0, 1])" in handout["output"]


@pytest.mark.parametrize("name", sorted(ISOLATION_LISTS))
def test_isolation_list_moves_score_as_the_reference(
        name: str, isolation_reference: dict[str, Any], tmp_path: Path) -> None:
    honest = variant(tmp_path, SOLUTIONS["isolation"], ISOLATION_LISTS[name])
    document = grade(tmp_path / "grading", "isolation", honest, stems=["01_choose_move"])
    assert isolation_reference["score"] == 20
    assert per_case(document) == per_case(isolation_reference)
