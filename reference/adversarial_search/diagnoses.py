"""Known mistakes in Dominoes' ``get_best_move``, for feedback that names the likely one.

Each mistake is the textbook alpha-beta (``reference.search.alphabeta``) with one rule changed,
run behind the handout's ``DominoesGame`` API; ``harness.compare.diagnosis`` replays a failed
case under each and names the one that reproduces the student's answers. The descriptions finish
the sentence "your answers are exactly what ... gives".
"""
from __future__ import annotations

import copy
import functools
from dataclasses import replace
from typing import Any, Iterator

from harness.records.verdicts import Variant
from reference.core.counters import BudgetCounter
from reference.games.dominoes import Dominoes, DominoesState, board_from_lists, legal_moves, place
from reference.search.alphabeta import TEXTBOOK, SearchRules, alphabeta_search

# A replay past this many positions (leaves plus expansions) is abandoned (that mistake then
# does not match): the cases cap the reference's leaves at a few thousand, and grading must not
# wait on a diagnosis. A count, not a clock, so the feedback is the same on every machine and
# under any load.
WORK_BUDGET = 40_000


def _column_major(moves: list[Any]) -> list[Any]:
    return sorted(moves, key=lambda move: (move[1], move[0]))


MISTAKES: tuple[tuple[str, SearchRules], ...] = (
    ("alpha-beta stopping one ply before the limit", replace(TEXTBOOK, extra_depth=-1)),
    ("alpha-beta searching one ply past the limit", replace(TEXTBOOK, extra_depth=1)),
    ("alpha-beta pruning only when a value passes the bound (> instead of >=)",
     replace(TEXTBOOK, prune_on_ties=False)),
    ("minimax without any pruning", replace(TEXTBOOK, prune=False)),
    ("alpha-beta testing a MAX node against alpha and a MIN node against beta (the wrong "
     "bound)", replace(TEXTBOOK, wrong_bound=True)),
    ("alpha-beta counting every position it visits as a leaf",
     replace(TEXTBOOK, count_leaves="every_node")),
    ("alpha-beta counting leaves only at the depth limit (finished games not counted)",
     replace(TEXTBOOK, count_leaves="depth_limit")),
    ("alpha-beta evaluating positions from the opponent's side",
     replace(TEXTBOOK, root_player_sees="opponent")),
    ("alpha-beta evaluating each position for the player to move there, instead of for the "
     "player who asked for the move", replace(TEXTBOOK, root_player_sees="mover")),
    ("alpha-beta with MIN and MAX swapped (the root minimises)",
     replace(TEXTBOOK, root_minimises=True)),
    ("alpha-beta trying moves column by column instead of in row-major order",
     replace(TEXTBOOK, reorder=_column_major)),
    ("alpha-beta that lets a later move with an equal value replace the best one (ties go "
     "to the last move)", replace(TEXTBOOK, keep_first_best=False)),
)


class _DominoesGame:
    """The handout's ``DominoesGame`` over the reference rules, searching with given rules."""

    rules = TEXTBOOK

    def __init__(self, board: list[list[bool]]) -> None:
        self.board = board

    def get_board(self) -> list[list[bool]]:
        return self.board

    def reset(self) -> None:
        for row in self.board:
            row[:] = [False] * len(row)

    def _moves(self, vertical: bool) -> list[tuple[int, int]]:
        return legal_moves(board_from_lists(self.board), vertical)

    def is_legal_move(self, row: int, col: int, vertical: bool) -> bool:
        return (row, col) in self._moves(vertical)

    def legal_moves(self, vertical: bool) -> Iterator[tuple[int, int]]:
        return iter(self._moves(vertical))

    def perform_move(self, row: int, col: int, vertical: bool) -> None:
        placed = place(board_from_lists(self.board), (row, col), vertical)
        for line, new in zip(self.board, placed):
            line[:] = list(new)

    def game_over(self, vertical: bool) -> bool:
        return not self._moves(vertical)

    def copy(self) -> _DominoesGame:
        return type(self)(copy.deepcopy(self.board))

    def successors(self, vertical: bool) -> Iterator[tuple[tuple[int, int], _DominoesGame]]:
        for move in self._moves(vertical):
            child = self.copy()
            child.perform_move(*move, vertical)
            yield move, child

    def get_best_move(self, vertical: bool, limit: int) -> tuple[Any, Any, int]:
        counter = BudgetCounter(WORK_BUDGET)
        move, value = alphabeta_search(Dominoes(), DominoesState(
            board_from_lists(self.board), vertical), limit, counter=counter, rules=self.rules)
        return move, value, counter.leaves


def _namespace(rules: SearchRules) -> dict[str, Any]:
    game = type("DominoesGame", (_DominoesGame,), {"rules": rules})
    return {"DominoesGame": game,
            "create_dominoes_game": lambda rows, cols: game([[False] * cols
                                                             for _ in range(rows)])}


def variants() -> list[Variant]:
    """The known mistakes of ``get_best_move`` (named by ``diagnose:`` in the case files)."""
    return [Variant(description, functools.partial(_namespace, rules))
            for description, rules in MISTAKES]
