"""Othello rules in the handout's variant: the game ends when the player to move has no legal move.

Typed reference rules for the ``othello`` assignment. The module-level functions keep the names
and argument orders of the handout's ``othello_shared`` helpers (``find_lines``,
``get_possible_moves``, ``play_move``, ``get_score``), so a manager written against those helpers
can run on these rules too; :class:`Othello` adapts them to :class:`reference.core.Game`.
This module knows nothing about search (see ``reference.search.alphabeta``) nor about the wire
protocol (see ``student_template/othello/othello_game.py``).

There is no passing: when the player to move has no legal move the game is over, and the side
with more disks wins. Moves are ``(column, row)`` pairs, boards are indexed ``board[row][col]``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable

from reference.core.protocols import GameFacts

Board = tuple[tuple[int, ...], ...]
"""An n x n tuple of row tuples indexed ``board[row][col]``: 0 empty, 1 dark, 2 light."""

Move = tuple[int, int]
"""A square as ``(column, row)``: the order of the helpers, the wire protocol and the handout."""

Player = int
"""1 for dark, who moves first; 2 for light. The opponent of ``p`` is ``3 - p``."""

EMPTY = 0
DARK: Player = 1
LIGHT: Player = 2

DIRECTIONS: tuple[tuple[int, int], ...] = (
    (0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
"""The 8 directions as (column step, row step), in the order :func:`find_lines` scans them."""

MIN_SIZE = 4
MAX_SIZE = 26
"""Supported board sizes: even n with MIN_SIZE <= n <= MAX_SIZE (the project uses 4, 6 and 8)."""


def is_supported_size(size: int) -> bool:
    """Whether ``size`` is an even board size the rules and the manager support."""
    return type(size) is int and MIN_SIZE <= size <= MAX_SIZE and size % 2 == 0


def opponent(player: Player) -> Player:
    """The other player: 2 for 1 and 1 for 2."""
    return 3 - player


def _start_board(size: int) -> Board:
    """The start position's board: light on (h, h) and (h+1, h+1), dark on the other two centre
    squares (the start position itself is :meth:`Othello.initial_state`).

    Args:
        size: the board's side, see :func:`is_supported_size`.

    Returns:
        A new board, ``h = size // 2 - 1``.

    Raises:
        ValueError: when ``size`` is not supported.

    >>> _start_board(4)
    ((0, 0, 0, 0), (0, 2, 1, 0), (0, 1, 2, 0), (0, 0, 0, 0))
    """
    if not is_supported_size(size):
        raise ValueError(
            f"board size must be an even int from {MIN_SIZE} to {MAX_SIZE}, got {size!r}")
    h = size // 2 - 1
    rows = [[EMPTY] * size for _ in range(size)]
    rows[h][h] = rows[h + 1][h + 1] = LIGHT
    rows[h][h + 1] = rows[h + 1][h] = DARK
    return tuple(tuple(row) for row in rows)


def find_lines(board: Board, col: int, row: int, player: Player) -> list[list[Move]]:
    """The runs of opponent disks that ``player`` would flip by playing ``(col, row)``.

    Unchecked: the square is assumed to be on the board; whether it is empty is not checked.

    Args:
        board: the position, ``board[row][col]``.
        col: column of the square played.
        row: row of the square played.
        player: 1 or 2.

    Returns:
        One list per direction that captures, in :data:`DIRECTIONS` order; each list holds the
        ``(col, row)`` squares that flip, nearest first. Empty when the move captures nothing.
    """
    size = len(board)
    other = opponent(player)
    lines: list[list[Move]] = []
    for dc, dr in DIRECTIONS:
        c, r = col + dc, row + dr
        run: list[Move] = []
        while 0 <= c < size and 0 <= r < size and board[r][c] == other:
            run.append((c, r))
            c, r = c + dc, r + dr
        if run and 0 <= c < size and 0 <= r < size and board[r][c] == player:
            lines.append(run)
    return lines


def get_possible_moves(board: Board, player: Player) -> list[Move]:
    """Legal moves of ``player``, in column-major order.

    The order is part of the contract (tie-breaks and node counts depend on it): the outer loop
    runs over columns and the inner loop over rows, so ``(0, 0), (0, 1), ..., (0, n-1), (1, 0)``.

    Returns:
        The ``(col, row)`` squares that are empty and capture at least one disk; a new list.

    >>> get_possible_moves(Othello(4).initial_state().board, DARK)
    [(0, 1), (1, 0), (2, 3), (3, 2)]
    """
    size = len(board)
    return [(col, row) for col in range(size) for row in range(size)
            if board[row][col] == EMPTY and find_lines(board, col, row, player)]


def play_move(board: Board, player: Player, col: int, row: int) -> Board:
    """The position after ``player`` plays ``(col, row)``; ``board`` is not changed.

    Unchecked, like the handout's helper: on an illegal square it places the disk and flips
    whatever :func:`find_lines` reports. Use :func:`move_problem` first on untrusted moves.
    """
    rows = [list(r) for r in board]
    rows[row][col] = player
    for line in find_lines(board, col, row, player):
        for c, r in line:
            rows[r][c] = player
    return tuple(tuple(r) for r in rows)


def get_score(board: Board) -> tuple[int, int]:
    """``(dark disks, light disks)``."""
    dark = sum(r.count(DARK) for r in board)
    light = sum(r.count(LIGHT) for r in board)
    return dark, light


def move_problem(board: Board, player: Player, col: int, row: int) -> str | None:
    """Checked legality test: why ``(col, row)`` is not a legal move for ``player``, or None.

    Returns:
        None for a legal move, else one of ``"out-of-range"`` (either index outside
        ``0..n-1``, negative indices included), ``"occupied"`` or ``"no-capture"``.
    """
    size = len(board)
    if not (0 <= col < size and 0 <= row < size):
        return "out-of-range"
    if board[row][col] != EMPTY:
        return "occupied"
    if not find_lines(board, col, row, player):
        return "no-capture"
    return None


def disk_difference(board: Board, player: Player) -> int:
    """Disks of ``player`` minus disks of the opponent: the handout's ``compute_utility``."""
    dark, light = get_score(board)
    return dark - light if player == DARK else light - dark


@dataclass(frozen=True)
class OthelloState:
    """A position together with the player to move; immutable and hashable.

    Attributes:
        board: ``board[row][col]``.
        to_move: the player whose turn it is.
    """

    board: Board
    to_move: Player


class Othello:
    """:class:`reference.core.Game` adapter over the module's rules for one board size.

    ``actions`` follows :func:`get_possible_moves` (column-major); ``is_terminal`` is true when
    the player to move has no legal move; ``utility`` is :func:`disk_difference` at any position.
    """

    facts = GameFacts(players=2, deterministic=True, zero_sum=True, perfect_information=True)

    def __init__(self, size: int = 8) -> None:
        """Raises ValueError for an unsupported ``size`` (see :func:`is_supported_size`)."""
        self.size = size
        self._start = OthelloState(_start_board(size), DARK)

    def initial_state(self) -> OthelloState:
        """The start position: the four centre disks, dark to move."""
        return self._start

    def __repr__(self) -> str:
        return f"Othello({self.size!r})"

    def to_move(self, state: OthelloState) -> Player:
        """The player to move."""
        return state.to_move

    def actions(self, state: OthelloState) -> list[Move]:
        """Legal moves of the player to move, column-major (see :func:`get_possible_moves`)."""
        return get_possible_moves(state.board, state.to_move)

    def result(self, state: OthelloState, move: Move) -> OthelloState:
        """Unchecked: the position after the player to move plays ``move``."""
        col, row = move
        return OthelloState(play_move(state.board, state.to_move, col, row),
                            opponent(state.to_move))

    def is_terminal(self, state: OthelloState) -> bool:
        """True when the player to move has no legal move (the handout's end rule)."""
        board, player = state.board, state.to_move
        size = len(board)
        return not any(board[row][col] == EMPTY and find_lines(board, col, row, player)
                       for col in range(size) for row in range(size))

    def utility(self, state: OthelloState, player: Hashable) -> int:
        """Disks of ``player`` (1 or 2) minus the opponent's, at any position."""
        return disk_difference(state.board, DARK if player == DARK else LIGHT)


__all__ = [
    "Board", "DARK", "DIRECTIONS", "EMPTY", "LIGHT", "MAX_SIZE", "MIN_SIZE", "Move", "Othello",
    "OthelloState", "Player", "disk_difference", "find_lines", "get_possible_moves", "get_score",
    "is_supported_size", "move_problem", "opponent", "play_move",
]
