"""Lights Out rules: boards, presses, and the puzzle as an AIMA search problem.

A press toggles one light and its orthogonal neighbours that lie on the board. The goal is a
board with every light off. This module knows nothing about search: BFS lives in
``reference.search.bfs`` and works on :class:`LightsOutProblem` through the ``SearchProblem``
protocol. Solvability by linear algebra lives in
``assignments.search_and_games.lights_out_algebra``;
boards are read from handout lists with ``assignments.search_and_games.grid.grid_from_lists``.
"""
from __future__ import annotations

from dataclasses import dataclass

Board = tuple[tuple[bool, ...], ...]
"""``board[row][col]`` is True when the light at (row, col) is on; rows top to bottom."""

Move = tuple[int, int]
"""A press, as (row, col) of the light pressed; row 0 is the top row, col 0 the left column."""

def create_board(rows: int, cols: int) -> Board:
    """An all-off board.

    Args:
        rows: number of rows, at least 1.
        cols: number of columns, at least 1.

    Raises:
        ValueError: if either dimension is below 1.

    >>> create_board(2, 3)
    ((False, False, False), (False, False, False))
    """
    if rows < 1 or cols < 1:
        raise ValueError(f"a Lights Out board needs at least 1x1, got {rows}x{cols}")
    return tuple((False,) * cols for _ in range(rows))


def moves(board: Board) -> list[Move]:
    """Every press on ``board``, in row-major order: (0, 0), (0, 1), ..., (rows-1, cols-1)."""
    return [(r, c) for r in range(len(board)) for c in range(len(board[0]))]


def is_on_board(board: Board, move: Move) -> bool:
    """Whether ``move`` names a light of ``board``."""
    row, col = move
    return 0 <= row < len(board) and 0 <= col < len(board[0])


def press(board: Board, move: Move) -> Board:
    """The board after pressing ``move`` (unchecked primitive: ``move`` must be on the board).

    Args:
        board: the position; not changed.
        move: (row, col) of the light pressed.

    Returns:
        A new board in which the pressed light and its up/down/left/right neighbours on the
        board are toggled.

    >>> press(create_board(3, 3), (0, 0))
    ((True, True, False), (True, False, False), (False, False, False))
    """
    row, col = move
    rows = list(board)
    for r in (row - 1, row, row + 1):
        if 0 <= r < len(board):
            cells = list(board[r])
            for c in (col - 1, col, col + 1) if r == row else (col,):
                if 0 <= c < len(cells):
                    cells[c] = not cells[c]
            rows[r] = tuple(cells)
    return tuple(rows)


def is_solved(board: Board) -> bool:
    """Whether every light of ``board`` is off."""
    return not any(any(row) for row in board)


@dataclass(frozen=True)
class LightsOutProblem:
    """Solving one Lights Out board, as a ``reference.core.SearchProblem``.

    States are boards, actions are presses in row-major order (see :func:`moves`), every press
    costs 1, and the goal is the all-off board.
    """

    initial: Board

    def actions(self, state: Board) -> list[Move]:
        """Every press, row-major (all presses are always legal)."""
        return moves(state)

    def result(self, state: Board, move: Move) -> Board:
        """The board after pressing ``move``; ``state`` is not changed."""
        return press(state, move)

    def is_goal(self, state: Board) -> bool:
        """Whether every light is off."""
        return is_solved(state)

    def action_cost(self, state: Board, move: Move, next_state: Board) -> float:
        """Every press costs 1."""
        return 1


__all__ = [
    "Board", "LightsOutProblem", "Move", "create_board",
    "is_on_board", "is_solved", "moves", "press",
]
