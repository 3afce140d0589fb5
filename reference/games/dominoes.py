"""Dominoes (the handout's game): players place 1x2 dominoes; the last one to move wins.

Coordinates are (row, col) from the top-left corner. A move is the (row, col) of the domino's
top-left square: the vertical player covers (row, col) and (row + 1, col), the horizontal player
(row, col) and (row, col + 1). ``actions`` lists moves in **row-major order** (rows top to
bottom, columns left to right); leaf counts and tie-breaks depend on that order.
"""
from __future__ import annotations

from dataclasses import dataclass

from reference.core.protocols import GameFacts

Board = tuple[tuple[bool, ...], ...]
"""Rows of squares, True where filled: ``board[row][col]``."""
Move = tuple[int, int]
"""(row, col) of the domino's top-left square."""
Player = bool
"""True for the vertical player, False for the horizontal one."""


@dataclass(frozen=True)
class DominoesState:
    """A position: the board and whether the vertical player is to move."""

    board: Board
    vertical_to_move: bool


def board_from_lists(rows: list[list[bool]]) -> Board:
    """The immutable board for a list-of-lists board (the handout's representation)."""
    return tuple(tuple(bool(square) for square in row) for row in rows)


def legal_moves(board: Board, vertical: bool) -> list[Move]:
    """Every legal move of ``vertical``'s player on ``board``, in row-major order."""
    rows = len(board)
    cols = len(board[0]) if rows else 0
    d_row, d_col = (1, 0) if vertical else (0, 1)
    return [(r, c) for r in range(rows - d_row) for c in range(cols - d_col)
            if not board[r][c] and not board[r + d_row][c + d_col]]


def place(board: Board, move: Move, vertical: bool) -> Board:
    """The board with a domino placed at ``move`` (unchecked: legality is the caller's job)."""
    row, col = move
    rows = list(board)
    for r, c in ((row, col), (row + 1, col) if vertical else (row, col + 1)):
        line = rows[r]
        rows[r] = (*line[:c], True, *line[c + 1:])
    return tuple(rows)


class Dominoes:
    """The game protocol over ``DominoesState``; utility is mobility difference."""

    facts = GameFacts(players=2, deterministic=True, zero_sum=True)

    def initial_state(self, rows: int, cols: int, vertical_first: bool = True) -> DominoesState:
        return DominoesState(tuple((False,) * cols for _ in range(rows)), vertical_first)

    def to_move(self, state: DominoesState) -> Player:
        return state.vertical_to_move

    def actions(self, state: DominoesState) -> list[Move]:
        """Row-major legal moves of the player to move."""
        return legal_moves(state.board, state.vertical_to_move)

    def result(self, state: DominoesState, move: Move) -> DominoesState:
        return DominoesState(place(state.board, move, state.vertical_to_move),
                             not state.vertical_to_move)

    def is_terminal(self, state: DominoesState) -> bool:
        """Over when the player to move cannot place a domino (that player has lost)."""
        return not legal_moves(state.board, state.vertical_to_move)

    def utility(self, state: DominoesState, player: Player) -> int:
        """The handout's evaluation: ``player``'s legal moves minus the opponent's."""
        return len(legal_moves(state.board, player)) - len(legal_moves(state.board, not player))
