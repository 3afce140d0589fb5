"""Othello rules in the handout's variant: the game ends when the player to move has no legal move.

Typed reference rules for the ``othello`` assignment. The module-level functions keep the names
and argument orders of the handout's ``othello_shared`` helpers (``find_lines``,
``get_possible_moves``, ``play_move``, ``get_score``), so a manager written against those helpers
can run on these rules too; :class:`Othello` adapts them to :class:`reference.core.Game`.
This module knows nothing about search (see ``reference.search.alphabeta``) nor about the wire
protocol (see ``assignments/othello/template/othello_game.py``).

There is no passing: when the player to move has no legal move the game is over, and the side
with more disks wins. Moves are ``(column, row)`` pairs, boards are indexed ``board[row][col]``.

Searches and the diagnoses' replays call these rules hundreds of thousands of times, so they are
written for speed with the same results as the plain loops (``assignments/othello/tests/
plain_othello_rules.py`` keeps those as the oracle): rays precomputed per board size, legality
tested without building lines, and bounded memos of legal moves and of plays by board.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Callable, Hashable, TypeVar

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


Ray = tuple[int, int, tuple[Move, ...]]
"""``(col, row, rest)``: the nearest square of a ray, then the squares after it in order; the
first square is apart because most rays are rejected on it."""


def _rays_from(size: int, col: int, row: int) -> tuple[Ray, ...]:
    """For each of :data:`DIRECTIONS` in order, the squares from ``(col, row)`` (any square, even
    off the board) outwards to the edge, nearest first, as a :data:`Ray`. Rays shorter than 2
    squares are left out: a capture needs an opponent disk and then one of the mover's."""
    rays = []
    for dc, dr in DIRECTIONS:
        c, r = col + dc, row + dr
        ray = []
        while 0 <= c < size and 0 <= r < size:
            ray.append((c, r))
            c, r = c + dc, r + dr
        if len(ray) >= 2:
            rays.append((ray[0][0], ray[0][1], tuple(ray[1:])))
    return tuple(rays)


@functools.lru_cache(maxsize=MAX_SIZE + 1)
def _rays(size: int) -> tuple[tuple[tuple[Ray, ...], ...], ...]:
    """``_rays(size)[col][row]``: :func:`_rays_from` every square, worked out once per size."""
    return tuple(tuple(_rays_from(size, col, row) for row in range(size)) for col in range(size))


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
    on_board = 0 <= col < size and 0 <= row < size
    other = opponent(player)
    lines: list[list[Move]] = []
    for c, r, rest in _rays(size)[col][row] if on_board else _rays_from(size, col, row):
        if board[r][c] != other:
            continue
        run: list[Move] = [(c, r)]
        for square in rest:
            c, r = square
            value = board[r][c]
            if value != other:
                if value == player:
                    lines.append(run)
                break
            run.append(square)
    return lines


def _captures(board: Board, rays: tuple[Ray, ...], player: Player, other: Player) -> bool:
    """Whether a disk of ``player`` at the start of ``rays`` captures anything (no lines built)."""
    for c, r, rest in rays:
        if board[r][c] != other:
            continue
        for c, r in rest:
            value = board[r][c]
            if value != other:
                if value == player:
                    return True
                break
    return False


_MEMO_SQUARES = 1 << 20
"""How many board squares each memo may hold: a full memo is emptied. 65536 entries at 4 x 4
(a whole full-depth search from the start fits), 16384 at 8 x 8; measured, the two memos full
take under 30 MB at either size (boards share their unchanged rows), in a grader given 768 MB."""

_MOVES_MEMO: dict[tuple[Board, Player], tuple[Move, ...]] = {}
"""Legal moves by ``(board, player)``: a search asks ``is_terminal`` then ``actions`` of the
same position, and the diagnoses replay the same searches many times."""

_PLAYS_MEMO: dict[tuple[Board, Player, int, int], Board] = {}
"""Boards after a move by ``(board, player, col, row)``, for the same replays."""

T = TypeVar("T")


def _memoised(memo: dict[Any, T], key: tuple[Any, ...], compute: Callable[[], T]) -> T:
    """``memo[key]``, computed and kept on a miss. ``key`` starts with the board: a full memo
    (by :data:`_MEMO_SQUARES`) is emptied first, and a board of lists is computed, not kept."""
    try:
        found = memo.get(key)
    except TypeError:  # a board of lists: nothing to remember it by
        return compute()
    if found is None:
        if len(memo) * len(key[0]) ** 2 >= _MEMO_SQUARES:
            memo.clear()
        found = memo[key] = compute()
    return found


def _legal_moves(board: Board, player: Player) -> tuple[Move, ...]:
    """The legal moves of ``player`` in column-major order, memoised (a tuple: never mutated)."""
    return _memoised(_MOVES_MEMO, (board, player), lambda: _scan_moves(board, player))


def _scan_moves(board: Board, player: Player) -> tuple[Move, ...]:
    """The legal moves of ``player`` in column-major order, computed."""
    size = len(board)
    other = opponent(player)
    table = _rays(size)
    return tuple((col, row) for col in range(size) for row in range(size)
                 if board[row][col] == EMPTY and _captures(board, table[col][row], player, other))


def get_possible_moves(board: Board, player: Player) -> list[Move]:
    """Legal moves of ``player``, in column-major order.

    The order is part of the contract (tie-breaks and node counts depend on it): the outer loop
    runs over columns and the inner loop over rows, so ``(0, 0), (0, 1), ..., (0, n-1), (1, 0)``.

    Returns:
        The ``(col, row)`` squares that are empty and capture at least one disk; a new list.

    >>> get_possible_moves(Othello(4).initial_state().board, DARK)
    [(0, 1), (1, 0), (2, 3), (3, 2)]
    """
    return list(_legal_moves(board, player))


def play_move(board: Board, player: Player, col: int, row: int) -> Board:
    """The position after ``player`` plays ``(col, row)``; ``board`` is not changed.

    Unchecked, like the handout's helper: on an illegal square it places the disk and flips
    whatever :func:`find_lines` reports. Use :func:`move_problem` first on untrusted moves.
    """
    if type(player) is not int:  # True would find the board 1 made, holding 1s, not Trues
        return _play(board, player, col, row)
    return _memoised(_PLAYS_MEMO, (board, player, col, row),
                     lambda: _play(board, player, col, row))


def _play(board: Board, player: Player, col: int, row: int) -> Board:
    """:func:`play_move`, computed. Rows without a change are the input's own row tuples."""
    rows: list[Any] = list(board)
    changed: dict[int, list[int]] = {}
    for line in find_lines(board, col, row, player):
        for c, r in line:
            if r not in changed:
                changed[r] = rows[r] = list(board[r])
            changed[r][c] = player
    placed = rows[row] = changed.get(row % len(board)) or list(board[row])
    placed[col] = player
    return tuple(map(tuple, rows))


def get_score(board: Board) -> tuple[int, int]:
    """``(dark disks, light disks)``."""
    dark = light = 0
    for r in board:
        dark += r.count(DARK)
        light += r.count(LIGHT)
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
        return not _legal_moves(state.board, state.to_move)

    def utility(self, state: OthelloState, player: Hashable) -> int:
        """Disks of ``player`` (1 or 2) minus the opponent's, at any position."""
        return disk_difference(state.board, DARK if player == DARK else LIGHT)


__all__ = [
    "Board", "DARK", "DIRECTIONS", "EMPTY", "LIGHT", "MAX_SIZE", "MIN_SIZE", "Move", "Othello",
    "OthelloState", "Player", "disk_difference", "find_lines", "get_possible_moves", "get_score",
    "is_supported_size", "move_problem", "opponent", "play_move",
]
