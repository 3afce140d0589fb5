"""The registry's mistakes written into the reference solution as a student would write them,
and an in-process replay of the assignment's cases against such a file (trusted code only)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import gg_diagnosis
from gg_diagnosis import diagnosable_cases, edited

from harness.records.observations import Observation

SOLUTION = (Path(__file__).resolve().parents[3] / "assignments" / "adversarial_search" / "solution"
            / "adversarial_search.py")
ROOT_CALL = 'max_value(self, vertical, float("-inf"), float("inf"), limit)'

# The registry's description (its first words) -> the edits that make the solution file
# commit that mistake, as a student would write it.
STUDENT_MISTAKES: dict[str, list[tuple[str, str]]] = {
    "alpha-beta stopping one ply before": [(ROOT_CALL, ROOT_CALL.replace("limit)", "limit - 1)"))],
    "alpha-beta searching one ply past": [("limit)\n        return move",
                                           "limit + 1)\n        return move")],
    "alpha-beta pruning only when a value passes": [("if value >= beta:", "if value > beta:"),
                                                    ("if value <= alpha:", "if value < alpha:")],
    "minimax without any pruning": [("if value >= beta:", "if False:"),
                                    ("if value <= alpha:", "if False:")],
    "alpha-beta testing a MAX node against alpha": [("if value >= beta:", "if value >= alpha:"),
                                                     ("if value <= alpha:", "if value <= beta:")],
    "alpha-beta counting every position": [
        ("            if depth == 0 or game.game_over(player):\n                leaves[0] += 1\n",
         "            leaves[0] += 1\n            if depth == 0 or game.game_over(player):\n")],
    "alpha-beta counting leaves only at the depth limit": [
        ("leaves[0] += 1", "leaves[0] += 1 if depth == 0 else 0")],
    "alpha-beta evaluating positions from the opponent's side": [
        ("return game.evaluate(vertical), None", "return game.evaluate(not vertical), None")],
    "alpha-beta evaluating each position for the player to move there": [
        ("return game.evaluate(vertical), None", "return game.evaluate(player), None")],
    "alpha-beta with MIN and MAX swapped": [
        (ROOT_CALL, ROOT_CALL.replace("max_value", "min_value"))],
    "alpha-beta trying moves column by column": [
        ("for row in range(self.rows):\n            for col in range(self.cols):",
         "for col in range(self.cols):\n            for row in range(self.rows):")],
    "alpha-beta that lets a later move with an equal value": [
        ("if child_value > value:", "if child_value >= value:"),
        ("if child_value < value:", "if child_value <= value:")],
}


def mutated_source(edits: list[tuple[str, str]]) -> str:
    return edited(SOLUTION, edits)


def best_move_cases() -> list[Any]:
    return diagnosable_cases("adversarial_search")


def observe(case: Any, source: str) -> list[Observation]:
    """The case's observations for ``source``, as the sandbox would report them."""
    return gg_diagnosis.observe(case, source)


def diagnoses_of(source: str, cases: list[Any] | None = None) -> list[tuple[str, float, str]]:
    """(case id, fraction earned, diagnosis) for every diagnosable case ``source`` fails."""
    return gg_diagnosis.diagnoses_of(best_move_cases() if cases is None else cases, source)


def student_edits(description: str) -> list[tuple[str, str]]:
    """The solution-file edits for the registry mistake described by ``description``."""
    return next(edits for start, edits in STUDENT_MISTAKES.items()
                if description.startswith(start))
