"""A stronger Othello agent for competitions: positional evaluation and iterative deepening.

Not graded against students; it is the instructors' sparring partner and the bar a competition
entry should beat. The evaluation combines square weights (corners good, the squares next to
them bad), mobility and, once the game is over, the disk difference scaled far above any
heuristic value. The search is :func:`reference.othello.search.alphabeta_max_node` with
best-for-the-mover-first ordering, deepened one ply at a time until the next ply is predicted
to overrun the time budget.
"""
from __future__ import annotations

import math
import time
from typing import Callable, Hashable, Optional

from reference.core.counters import Counter
from reference.games.othello import Board, Move, Othello, OthelloState, Player
from reference.games.othello import disk_difference, get_possible_moves, opponent
from reference.othello import search

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
    """Heuristic value of a non-terminal position for ``player``: weights + 5 x mobility."""
    board = state.board
    size = len(board)
    other = opponent(player)
    position = 0
    for row in range(size):
        for col in range(size):
            square = board[row][col]
            if square == player:
                position += square_weight(size, col, row)
            elif square == other:
                position -= square_weight(size, col, row)
    mobility = len(get_possible_moves(board, player)) - len(get_possible_moves(board, other))
    return position + 5 * mobility + disk_difference(board, player)


class _ScaledOthello(Othello):
    """Othello whose terminal utility is scaled by :data:`WIN_SCALE`."""

    def utility(self, state: OthelloState, player: Hashable) -> int:
        return WIN_SCALE * super().utility(state, player)


class HeuristicAgent:
    """Chooses moves by timed iterative deepening.

    Args:
        budget: seconds to aim for per move (the 10 s limit leaves a wide margin at 2 s).
        max_depth: deepest search tried; also stops deepening early.
        clock: a monotonic clock in seconds (tests pass a fake).
    """

    def __init__(self, budget: float = 2.0, max_depth: int = 64,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.budget = budget
        self.max_depth = max_depth
        self.clock = clock

    def choose(self, board: Board, color: Player) -> Optional[Move]:
        """The move for ``color`` on ``board`` (not mutated); None when ``color`` cannot move."""
        game = _ScaledOthello(len(board))
        state = OthelloState(board, color)
        moves = game.actions(state)
        if len(moves) <= 1:
            return moves[0] if moves else None
        empties = sum(row.count(0) for row in board)
        start = self.clock()
        best: Optional[Move] = moves[0]
        previous_nodes = 1
        for depth in range(1, min(self.max_depth, empties) + 1):
            counter = Counter()
            answer = search.alphabeta_max_node(
                game, state, color, -math.inf, math.inf, depth, evaluate=evaluate,
                ordering=search.mover_ordering, cache={}, counter=counter)
            best = answer.move  # type: ignore[assignment]
            spent = self.clock() - start
            nodes = counter.expansions + counter.leaves
            growth = max(2.0, nodes / previous_nodes)
            previous_nodes = max(1, nodes)
            if spent * (1 + growth) > self.budget:
                break
        return best


__all__ = ["HeuristicAgent", "WIN_SCALE", "evaluate", "square_weight"]
