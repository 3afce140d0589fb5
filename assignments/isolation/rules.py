"""Isolation rules: two queens on an 8 x 8 board, each move fills the square it leaves.

Typed reference rules for the ``isolation`` assignment (handout ``isolation_tournament.txt``,
conventions in ``notes/isolation.md``). ``x`` starts on (1, 1), ``o`` on (size, size), and ``x``
moves first. A move goes like a chess queen over empty squares only; it may not cross or land on a
filled square or the other player. The vacated square becomes filled. A player who cannot move on
their turn loses, so the game cannot be drawn and lasts at most ``size * size - 2`` plies.

This module knows nothing about search or referees. :class:`Isolation` adapts the rules to
:class:`reference.core.Game`; :func:`parse_board`, :func:`format_board` and :func:`parse_move`
convert the handout's list-of-rows boards and ``(row, col)`` replies (checked entry points).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Sequence, cast

from assignments.isolation.replies import (  # the reply reader, given to students too
    SIZE,
    Move,
    ReplyError,
    Square,
    _abbreviate,
    parse_move,
)
from reference.core.protocols import GameFacts

Player = str
"""``"x"`` (moves first, starts on (1, 1)) or ``"o"`` (starts on (size, size))."""

Board = list[list[str]]
"""The handout's board: a list of rows, each a list of one-character strings,
``board[row-1][col-1]``: ``"-"`` empty, ``"*"`` filled, ``"x"`` and ``"o"`` the players' squares."""

X: Player = "x"
O: Player = "o"  # noqa: E741 - the handout's name for the o player
EMPTY = "-"
FILLED = "*"
PLAYERS: tuple[Player, Player] = (X, O)

MIN_SIZE = 3
MAX_SIZE = 16

_DIRECTIONS: tuple[tuple[int, int], ...] = (
    (-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


class BoardError(ValueError):
    """A board (or player symbol) that is not a well-formed Isolation position."""


def opponent(player: Player) -> Player:
    """The other player: ``"o"`` for ``"x"`` and ``"x"`` for ``"o"``."""
    return O if player == X else X


def is_supported_size(size: int) -> bool:
    """Whether the rules support a ``size`` x ``size`` board (the handout always uses 8)."""
    return type(size) is int and MIN_SIZE <= size <= MAX_SIZE


@dataclass(frozen=True)
class IsolationState:
    """A position; immutable and hashable.

    Attributes:
        filled: bit set of filled squares; square ``(r, c)`` is bit ``(r - 1) * size + (c - 1)``.
        x: the square of player x.
        o: the square of player o.
        to_move: the player whose turn it is.
    """

    filled: int
    x: Square
    o: Square
    to_move: Player

    def square_of(self, player: Player) -> Square:
        """The square ``player`` stands on."""
        return self.x if player == X else self.o


def _bit(square: Square, size: int) -> int:
    return 1 << ((square[0] - 1) * size + square[1] - 1)


Rays = dict[Square, tuple[tuple[tuple[int, Square], ...], ...]]


@lru_cache(maxsize=None)
def _rays(size: int) -> Rays:
    """For every square, its 8 rays as ``((bit, square), ...)`` nearest first; computed once per
    size (a grading makes the rules a few hundred times, for each game and house bot) and
    shared by every ``Isolation`` of that size, which only reads it (a plain dict: a read-only
    view would slow every move count)."""
    rays = {}
    for row in range(1, size + 1):
        for col in range(1, size + 1):
            square_rays = []
            for dr, dc in _DIRECTIONS:
                ray = []
                r, c = row + dr, col + dc
                while 1 <= r <= size and 1 <= c <= size:
                    ray.append((_bit((r, c), size), (r, c)))
                    r, c = r + dr, c + dc
                square_rays.append(tuple(ray))
            rays[(row, col)] = tuple(square_rays)
    return rays


Line = tuple[int, int, bool]


@lru_cache(maxsize=None)
def _lines(size: int) -> dict[Square, tuple[Line, ...]]:
    """For every square, its non-empty rays as ``(mask, length, ascending)``: the ray's squares
    as one bit set, how many there are, and whether the bits grow along the ray. The moves open
    along a ray are its squares before the nearest blocked one, which bit arithmetic finds at
    once (:meth:`Isolation.mobility`, the search's hottest loop)."""
    lines = {}
    for square, square_rays in _rays(size).items():
        here = _bit(square, size)
        lines[square] = tuple((sum(bit for bit, _ in ray), len(ray), ray[0][0] > here)
                              for ray in square_rays if ray)
    return lines


class Isolation:
    """:class:`reference.core.Game` adapter for Isolation on a ``size`` x ``size`` board.

    ``actions`` lists destinations in ascending ``(row, col)`` order (row-major); ``is_terminal``
    is true when the player to move has no legal move; ``utility`` is +1 for the winner and -1 for
    the loser at a terminal position, 0 elsewhere.

    >>> game = Isolation()
    >>> len(game.actions(game.initial_state()))
    20
    """

    facts = GameFacts(players=2, deterministic=True, zero_sum=True, perfect_information=True)

    def __init__(self, size: int = SIZE) -> None:
        """Raises ValueError when ``size`` is not supported (see :func:`is_supported_size`)."""
        if not is_supported_size(size):
            raise ValueError(f"board size must be an int from {MIN_SIZE} to {MAX_SIZE}, "
                             f"got {size!r}")
        self.size = size
        self._rays = _rays(size)
        self._lines = _lines(size)
        self._start = IsolationState(0, (1, 1), (size, size), X)

    def initial_state(self) -> IsolationState:
        """The start position: x on (1, 1), o on (size, size), x to move."""
        return self._start

    def __repr__(self) -> str:
        return f"Isolation({self.size!r})"

    def to_move(self, state: IsolationState) -> Player:
        """The player to move."""
        return state.to_move

    def moves_of(self, state: IsolationState, player: Player) -> list[Move]:
        """Destinations open to ``player`` from its square, whoever is to move.

        Returns:
            A new list in ascending ``(row, col)`` order. Every square on the path and the
            destination are neither filled nor the other player's square.
        """
        other = state.o if player == X else state.x
        blocked = state.filled | _bit(other, self.size)
        found = []
        for ray in self._rays[state.square_of(player)]:
            for bit, square in ray:
                if blocked & bit:
                    break
                found.append(square)
        found.sort()
        return found

    def mobility(self, state: IsolationState, player: Player) -> int:
        """How many moves ``player`` has from its square: ``len(moves_of(state, player))``."""
        other = state.o if player == X else state.x
        blocked = state.filled | _bit(other, self.size)
        count = 0
        for mask, length, ascending in self._lines[state.square_of(player)]:
            hit = blocked & mask
            if not hit:
                count += length
            elif ascending:  # the ray's squares below the lowest blocked one
                count += (mask & ((hit & -hit) - 1)).bit_count()
            else:  # the ray's squares above the highest blocked one
                count += (mask >> hit.bit_length()).bit_count()
        return count

    def actions(self, state: IsolationState) -> list[Move]:
        """Legal moves of the player to move, in ascending ``(row, col)`` order."""
        return self.moves_of(state, state.to_move)

    def is_legal(self, state: IsolationState, move: Move) -> bool:
        """Checked legality test for the player to move; ``move`` may be any pair of ints."""
        return move in self.actions(state)

    def result(self, state: IsolationState, move: Move) -> IsolationState:
        """Unchecked: the position after the player to move goes to ``move``.

        The square the player leaves becomes filled; ``state`` is not changed. Use
        :meth:`is_legal` first on untrusted moves.
        """
        player = state.to_move
        filled = state.filled | _bit(state.square_of(player), self.size)
        if player == X:
            return IsolationState(filled, move, state.o, O)
        return IsolationState(filled, state.x, move, X)

    def is_terminal(self, state: IsolationState) -> bool:
        """True when the player to move has no legal move (and so has lost)."""
        return self.mobility(state, state.to_move) == 0

    def utility(self, state: IsolationState, player: Player) -> int:
        """+1 if ``player`` has won, -1 if it has lost, 0 while the game goes on."""
        if not self.is_terminal(state):
            return 0
        return -1 if player == state.to_move else 1

    def empty_count(self, state: IsolationState) -> int:
        """Squares that are neither filled nor occupied by a player."""
        return self.size * self.size - 2 - bin(state.filled).count("1")


def parse_board(board: object, player: object, size: int = SIZE) -> IsolationState:
    """Checked: the position described by a handout board with ``player`` to move.

    Args:
        board: a list of ``size`` lists of ``size`` one-character strings from ``-*xo``, with
            exactly one ``x`` and one ``o``. Tuples are accepted in place of lists.
        player: ``"x"`` or ``"o"``, the player to move.
        size: the expected board size.

    Returns:
        A new state; ``board`` is not changed.

    Raises:
        BoardError: naming the first row, column or value that is wrong.
    """
    if type(player) is not str or player not in PLAYERS:
        raise BoardError(f"player must be 'x' or 'o', got {_abbreviate(player)}")
    if type(board) not in (list, tuple) or len(cast(Sequence[Any], board)) != size:
        raise BoardError(f"board must be a list of {size} rows, got {_abbreviate(board)}")
    filled = 0
    squares: dict[str, list[Square]] = {X: [], O: []}
    row: Any
    for r, row in enumerate(cast(Sequence[Any], board), start=1):
        if type(row) not in (list, tuple) or len(row) != size:
            raise BoardError(f"row {r} must be a list of {size} squares, got {_abbreviate(row)}")
        for c, cell in enumerate(row, start=1):
            if type(cell) is not str or cell not in (EMPTY, FILLED, X, O):
                raise BoardError(f"square ({r}, {c}) must be one of '-', '*', 'x', 'o', "
                                 f"got {_abbreviate(cell)}")
            if cell == FILLED:
                filled |= _bit((r, c), size)
            elif cell != EMPTY:
                squares[cell].append((r, c))
    for symbol in PLAYERS:
        if len(squares[symbol]) != 1:
            raise BoardError(f"board must hold exactly one {symbol!r}, "
                             f"found {len(squares[symbol])}")
    return IsolationState(filled, squares[X][0], squares[O][0], player)


def format_board(state: IsolationState, size: int = SIZE) -> Board:
    """The handout board for ``state``: a new list of ``size`` new row lists.

    >>> format_board(Isolation(3).initial_state(), 3)
    [['x', '-', '-'], ['-', '-', '-'], ['-', '-', 'o']]
    """
    board = [[EMPTY] * size for _ in range(size)]
    for index in range(size * size):
        if state.filled >> index & 1:
            board[index // size][index % size] = FILLED
    board[state.x[0] - 1][state.x[1] - 1] = X
    board[state.o[0] - 1][state.o[1] - 1] = O
    return board


__all__ = [
    "Board", "BoardError", "EMPTY", "FILLED", "Isolation", "IsolationState", "MAX_SIZE",
    "MIN_SIZE", "Move", "O", "PLAYERS", "Player", "ReplyError", "SIZE", "Square", "X",
    "format_board", "is_supported_size", "opponent", "parse_board", "parse_move",
]
