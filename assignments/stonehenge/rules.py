"""Stonehenge rules: the hexagonal grid, ley-lines, captures, the win, and the board text.

The game is the one of ``handouts/stonehenge.txt`` with the conventions of
``notes/stonehenge.md``: side lengths 1 to 5, cells labelled ``A``, ``B``, ... row by row, a
ley-line captured by the first player to hold at least half of its cells (and never taken back),
and a win for the first player to own at least half of all ley-lines. :class:`Stonehenge`
implements ``reference.core.Game``. This module knows nothing about search or grading; the
student-facing ``StonehengeGame``/``StonehengeState`` API is an adapter written elsewhere.

>>> game = Stonehenge(2)
>>> position = game.result(game.initial_state(), "A")
>>> game.actions(position)
('B', 'C', 'D', 'E', 'F', 'G')
>>> print(game.format_board(position))
        1   @
       /   /
  1 - 1 - B   @
     / \\ / \\ /
@ - C - D - E
     \\ / \\ / \\
  @ - F - G   @
       \\   \\
        @   @
"""
from __future__ import annotations

import enum
import string
from dataclasses import dataclass
from itertools import compress
from operator import itemgetter, not_
from typing import Callable

from reference.core.protocols import GameFacts

Move = str
"""A cell's label, one capital letter: ``"A"`` is the left cell of the top row; labels run row
by row from the top, left to right within a row."""

Player = int
"""``1`` for the first player (``'p1'`` in the handout API), ``2`` for the second (``'p2'``)."""

Cell = tuple[int, int]
"""(row, column) of a cell: row 0 is the top row, column 0 the leftmost cell of its row."""

NOBODY = 0
"""Owner of an unclaimed cell or an unowned ley-line."""

SIDES = range(1, 6)
"""The side lengths this module supports (at most 25 cells, so labels A to Y suffice)."""


class IllegalMoveError(ValueError):
    """A move that is not a label of an unclaimed cell, or a move after the game ended."""


class LineKind(enum.Enum):
    """The three directions of ley-lines."""

    ROW = "-"
    DOWN_LEFT = "/"
    DOWN_RIGHT = "\\"


@dataclass(frozen=True)
class LeyLine:
    """One ley-line: its direction, its index among lines of that direction, and its cells.

    Attributes:
        kind: the direction.
        index: rows are numbered from the top; a diagonal is numbered by the column at which it
            crosses the widest row (row ``side - 1``), from the left.
        cells: indices (label order) of the cells on the line, from top to bottom.
    """

    kind: LineKind
    index: int
    cells: tuple[int, ...]


@dataclass(frozen=True)
class StonehengePosition:
    """An immutable, hashable Stonehenge position.

    Attributes:
        side: the side length, 1 to 5.
        cells: owner of each cell in label order (``NOBODY``, 1 or 2).
        lines: owner of each ley-line in the order of :attr:`Stonehenge.lines`.
        player: the player to move, 1 or 2.
    """

    side: int
    cells: tuple[Player, ...]
    lines: tuple[Player, ...]
    player: Player


def row_lengths(side: int) -> tuple[int, ...]:
    """Number of cells in each row, top to bottom: 2, 3, ..., side+1, then side.

    >>> row_lengths(3)
    (2, 3, 4, 3)
    """
    return tuple(range(2, side + 2)) + (side,)


def _ley_line_cells(side: int) -> tuple[tuple[LineKind, int, tuple[Cell, ...]], ...]:
    """Each ley-line as (kind, index, cells as (row, column)), rows then ``/`` then ``\\``.

    Above the widest row, (r, c) continues down-left to (r+1, c) and down-right to
    (r+1, c+1); from the widest row, (side-1, c) continues to (side, c-1) and (side, c).
    """
    widest = side - 1
    upper_rows = range(side)
    lengths = row_lengths(side)
    rows = tuple(
        (LineKind.ROW, r, tuple((r, c) for c in range(length)))
        for r, length in enumerate(lengths))
    down_left = tuple(
        (LineKind.DOWN_LEFT, k,
         tuple((r, k) for r in upper_rows if k < lengths[r])
         + (((side, k - 1),) if k >= 1 else ()))
        for k in range(side + 1))
    down_right = tuple(
        (LineKind.DOWN_RIGHT, j,
         tuple((r, r + j - widest) for r in upper_rows if 0 <= r + j - widest < lengths[r])
         + (((side, j),) if j < side else ()))
        for j in range(side + 1))
    return rows + down_left + down_right


class Stonehenge:
    """Stonehenge with one side length, as a ``reference.core.Game``.

    Positions are :class:`StonehengePosition`; moves are cell labels (:data:`Move`); players are
    1 and 2 (:data:`Player`). The instance holds only geometry, so it can be shared freely.

    Attributes:
        side: the side length.
        labels: the cell labels in order (``"A"``, ``"B"``, ...).
        lines: every ley-line: the ``side + 1`` rows from the top, then the ``/`` diagonals,
            then the ``\\`` diagonals, each direction ordered by :attr:`LeyLine.index`.
        facts: two players, deterministic, zero-sum, perfect information.
    """

    facts = GameFacts(players=2, deterministic=True, zero_sum=True, perfect_information=True)

    def __init__(self, side: int) -> None:
        """Build the geometry of a side-``side`` board.

        Raises:
            ValueError: if ``side`` is not in :data:`SIDES`.
        """
        if side not in SIDES:
            raise ValueError(f"Stonehenge side length must be 1 to 5, got {side!r}")
        self.side = side
        lengths = row_lengths(side)
        self._cell_index = {
            (r, c): i for i, (r, c) in enumerate(
                (r, c) for r, length in enumerate(lengths) for c in range(length))}
        self.labels: tuple[Move, ...] = tuple(string.ascii_uppercase[:len(self._cell_index)])
        self.lines: tuple[LeyLine, ...] = tuple(
            LeyLine(kind, index, tuple(self._cell_index[cell] for cell in cells))
            for kind, index, cells in _ley_line_cells(side))
        self._lines_of_cell: tuple[tuple[int, ...], ...] = tuple(
            tuple(n for n, line in enumerate(self.lines) if cell in line.cells)
            for cell in range(len(self.labels)))
        # What result() and winner() need per move, worked out once (they run a million times
        # in a search): each label's cell, and per cell its lines with the cells to hold
        # (at least half) and a getter of the line's owners.
        self._cell_of_label = {label: cell for cell, label in enumerate(self.labels)}
        self._captures_of_cell = tuple(
            tuple((n, (len(self.lines[n].cells) + 1) // 2, _owners_getter(self.lines[n].cells))
                  for n in lines)
            for lines in self._lines_of_cell)
        self._half_of_lines = (len(self.lines) + 1) // 2
        self._rows = tuple(
            tuple(self._cell_index[(r, c)] for c in range(length))
            for r, length in enumerate(lengths))

    def __repr__(self) -> str:
        return f"Stonehenge({self.side})"

    def initial_state(self, first: Player = 1) -> StonehengePosition:
        """The empty board with ``first`` to move."""
        return StonehengePosition(
            self.side, (NOBODY,) * len(self.labels), (NOBODY,) * len(self.lines), first)

    def to_move(self, state: StonehengePosition) -> Player:
        """The player to move (also defined once the game is over: the player who lost)."""
        return state.player

    def owned(self, state: StonehengePosition, player: Player) -> int:
        """How many ley-lines ``player`` owns in ``state``."""
        return state.lines.count(player)

    def winner(self, state: StonehengePosition) -> Player | None:
        """The player owning at least half of all ley-lines, or None while the game goes on.

        Only the mover can capture, so at most one player ever reaches half.
        """
        lines = state.lines
        for player in (1, 2):
            if lines.count(player) >= self._half_of_lines:
                return player
        return None

    def is_terminal(self, state: StonehengePosition) -> bool:
        """Whether some player owns at least half of the ley-lines."""
        return self.winner(state) is not None

    def actions(self, state: StonehengePosition) -> tuple[Move, ...]:
        """Labels of the unclaimed cells in alphabetical order; ``()`` once the game is over."""
        if self.winner(state) is not None:
            return ()
        return tuple(compress(self.labels, map(not_, state.cells)))  # NOBODY is 0

    def result(self, state: StonehengePosition, move: Move) -> StonehengePosition:
        """The position after the player to move claims ``move`` (unchecked primitive).

        The mover captures every unowned ley-line through the claimed cell in which it now holds
        at least half of the cells; owned lines never change hands. ``state`` is not changed.
        Legality is the caller's job (see :meth:`play`): claiming an owned cell or moving after
        the end gives a meaningless position.
        """
        mover = state.player
        try:
            cell = self._cell_of_label[move]
        except (KeyError, TypeError):  # not a label: the ValueError it always gave
            cell = self.labels.index(move)
        cells = state.cells[:cell] + (mover,) + state.cells[cell + 1:]
        lines = state.lines
        captured = [n for n, half, owners in self._captures_of_cell[cell]
                    if lines[n] == NOBODY and owners(cells).count(mover) >= half]
        if captured:
            changed = list(lines)
            for n in captured:
                changed[n] = mover
            lines = tuple(changed)
        return StonehengePosition(self.side, cells, lines, 3 - mover)

    def play(self, state: StonehengePosition, move: object) -> StonehengePosition:
        """Checked :meth:`result`: for moves that came from outside the trusted code.

        Raises:
            IllegalMoveError: if ``move`` is not one of :meth:`actions`.
        """
        if not isinstance(move, str) or move not in self.actions(state):
            raise IllegalMoveError(
                f"{move!r} is not a legal move; legal moves are {list(self.actions(state))}")
        return self.result(state, move)

    def utility(self, state: StonehengePosition, player: Player) -> float:
        """1 if ``player`` has won, -1 if the other player has, 0 while the game goes on."""
        winner = self.winner(state)
        if winner is None:
            return 0
        return 1 if winner == player else -1

    def format_board(self, state: StonehengePosition) -> str:
        """The board text, exactly as the student's ``StonehengeState.__str__`` must print it.

        The layout is the canonical one of ``notes/stonehenge.md`` section 6: ``2 * side + 5``
        lines joined by ``\\n``, no trailing whitespace, no final newline. Cells show their label
        or their owner's digit; ley-line markers show ``@`` or their owner's digit.
        """
        n = self.side
        marker = {(line.kind, line.index): _owner_text(owner, "@")
                  for line, owner in zip(self.lines, state.lines)}
        down_left = {k: marker[(LineKind.DOWN_LEFT, k)] for k in range(n + 1)}
        down_right = {j: marker[(LineKind.DOWN_RIGHT, j)] for j in range(n + 1)}

        def row_text(r: int) -> str:
            cells = [_owner_text(state.cells[i], self.labels[i]) for i in self._rows[r]]
            return " - ".join([marker[(LineKind.ROW, r)]] + cells)

        text = [" " * (2 * n + 4) + f"{down_left[0]}   {down_left[1]}",
                " " * (2 * n + 3) + "/   /"]
        for r in range(n - 1):
            indent = 2 * (n - 1 - r)
            text.append(" " * indent + row_text(r) + "   " + down_left[r + 2])
            text.append(" " * (indent + 3) + "/ \\ " * (r + 2) + "/")
        text.append(row_text(n - 1))
        text.append(" " * 5 + "\\ / " * n + "\\")
        text.append("  " + row_text(n) + "   " + down_right[n])
        text.append(" " * 7 + "\\   " * (n - 1) + "\\")
        text.append(" " * 8 + "   ".join(down_right[j] for j in range(n)))
        return "\n".join(text)


def _owners_getter(cells: tuple[int, ...]) -> Callable[[tuple[Player, ...]], tuple[Player, ...]]:
    """A function giving the owners of ``cells`` (a tuple, even for one cell) from a board."""
    if len(cells) == 1:
        only = cells[0]
        return lambda board: (board[only],)
    return itemgetter(*cells)


def _owner_text(owner: Player, unowned: str) -> str:
    """The digit of ``owner``, or ``unowned`` when nobody owns the cell or line."""
    return unowned if owner == NOBODY else str(owner)


__all__ = [
    "Cell", "IllegalMoveError", "LeyLine", "LineKind", "Move", "NOBODY", "Player", "SIDES",
    "Stonehenge", "StonehengePosition", "row_lengths",
]
