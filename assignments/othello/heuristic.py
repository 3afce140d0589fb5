"""A stronger Othello agent for competitions: positional evaluation and iterative deepening.

Not graded against students; it is the instructors' sparring partner and the bar a competition
entry should beat. The evaluation combines square weights (corners good, the squares next to
them bad), mobility and, once the game is over, the disk difference scaled far above any
heuristic value. The search is the library's
:func:`reference.search.timed_alphabeta.timed_alphabeta_search` (iterative deepening within a
time budget); only the evaluation is Othello's.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, Optional

from assignments.othello.rules import (
    Board,
    Move,
    Othello,
    OthelloState,
    Player,
    disk_difference,
    get_possible_moves,
    opponent,
)
from reference.search.timed_alphabeta import timed_alphabeta_search

WIN_SCALE = 1000
"""Terminal disk differences are multiplied by this, so a won ending beats any evaluation."""

_WEIGHTS_8: tuple[tuple[int, ...], ...] = (
    (100, -20, 10, 5),
    (-20, -50, -2, -2),
    (10, -2, 1, 1),
    (5, -2, 1, 0),
)
"""One quadrant of the classic 8 x 8 square weights, ``[distance from edge][distance]``."""


def square_weight(size: int, col: int, row: int) -> int:
    """Weight of a square: the 8 x 8 table by distance from the nearest edges, capped at 3."""
    across = min(col, size - 1 - col, 3)
    down = min(row, size - 1 - row, 3)
    return _WEIGHTS_8[down][across]


def evaluate(state: OthelloState, player: Player) -> float:
    """Value of a position for ``player``: weights + 5 x mobility + disks; at a finished game
    (the player to move has no move) the disk difference times :data:`WIN_SCALE`."""
    board = state.board
    other = opponent(player)
    moves = {player: len(get_possible_moves(board, player)),
             other: len(get_possible_moves(board, other))}
    if moves[state.to_move] == 0:
        return WIN_SCALE * disk_difference(board, player)
    size = len(board)
    position = 0
    for row in range(size):
        for col in range(size):
            square = board[row][col]
            if square == player:
                position += square_weight(size, col, row)
            elif square == other:
                position -= square_weight(size, col, row)
    return position + 5 * (moves[player] - moves[other]) + disk_difference(board, player)


class HeuristicAgent:
    """Chooses moves by timed iterative deepening with :func:`evaluate`.

    Args:
        budget: seconds to aim for per move (the 10 s limit leaves a wide margin at 2 s).
        max_depth: deepest search tried.
        clock: the search's clock in seconds: the thread's CPU time, which is what the
            house bot's in-process seat is charged (tests pass a fake).
    """

    def __init__(self, budget: float = 2.0, max_depth: int = 64,
                 clock: Callable[[], float] = time.thread_time) -> None:
        self.budget = budget
        self.max_depth = max_depth
        self.clock = clock

    def choose(self, board: Board, color: Player) -> Optional[Move]:
        """The move for ``color`` on ``board`` (not mutated); None when ``color`` cannot move."""
        result = timed_alphabeta_search(Othello(len(board)), OthelloState(board, color),
                                        self.budget, evaluate=evaluate,
                                        max_depth=self.max_depth, clock=self.clock)
        return result.move


@dataclass
class ReferenceBot:
    """The house bot ``reference``: :class:`HeuristicAgent` aiming at ``budget`` seconds a move,
    never more than a third of the time left."""

    budget: float = 1.0

    def choose_move(self, state: OthelloState, time_left: float) -> Optional[Move]:
        return HeuristicAgent(budget=min(self.budget, time_left / 3)).choose(
            state.board, state.to_move)


def house_bot(kit: Any, name: str, seed: int) -> ReferenceBot:
    """The game kit's factory of :class:`ReferenceBot` (``assignments.othello.kit``), with the
    kit's ``reference_budget``."""
    return ReferenceBot(kit.reference_budget)


__all__ = ["HeuristicAgent", "ReferenceBot", "WIN_SCALE", "evaluate", "house_bot",
           "square_weight"]
