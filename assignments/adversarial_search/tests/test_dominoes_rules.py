"""Dominoes rules (reference/games/dominoes.py): legal moves in row-major order, placement,
the end of the game, and the handout's mobility evaluation."""
from __future__ import annotations

import pytest

from reference.games.dominoes import Dominoes, DominoesState, board_from_lists, legal_moves, place

GAME = Dominoes()


def empty(rows: int, cols: int) -> tuple[tuple[bool, ...], ...]:
    return board_from_lists([[False] * cols for _ in range(rows)])


@pytest.mark.parametrize("rows, cols, vertical, count", [
    (3, 3, True, 6), (3, 3, False, 6), (2, 5, True, 5), (2, 5, False, 8),
    (1, 1, True, 0), (1, 4, True, 0), (1, 4, False, 3), (4, 1, True, 3)])
def test_an_empty_board_has_every_domino_that_fits(rows, cols, vertical, count):
    d_row, d_col = (1, 0) if vertical else (0, 1)
    assert len(legal_moves(empty(rows, cols), vertical)) == count == \
        max(0, rows - d_row) * max(0, cols - d_col)


def test_moves_come_in_row_major_order():
    moves = legal_moves(empty(3, 3), False)
    assert moves == [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]
    assert legal_moves(empty(3, 3), True) == sorted(legal_moves(empty(3, 3), True))


def test_a_move_needs_both_squares_empty_and_on_the_board():
    board = board_from_lists([[False, True, False], [False, False, False]])
    assert legal_moves(board, False) == [(1, 0), (1, 1)]
    assert legal_moves(board, True) == [(0, 0), (0, 2)]
    # nothing hangs off the right or bottom edge, nor starts at a negative index
    assert all(0 <= r and 0 <= c for r, c in legal_moves(empty(4, 4), True))
    assert (3, 0) not in legal_moves(empty(4, 4), True)
    assert (0, 3) not in legal_moves(empty(4, 4), False)


def test_placing_fills_exactly_the_two_squares_and_leaves_the_input_untouched():
    board = empty(3, 3)
    vertical = place(board, (0, 1), True)
    assert [(r, c) for r in range(3) for c in range(3) if vertical[r][c]] == [(0, 1), (1, 1)]
    horizontal = place(board, (2, 1), False)
    assert [(r, c) for r in range(3) for c in range(3) if horizontal[r][c]] == [(2, 1), (2, 2)]
    assert not any(any(row) for row in board)


def test_players_alternate_and_the_player_who_cannot_move_has_lost():
    state = GAME.initial_state(2, 2)
    assert GAME.to_move(state) is True
    after = GAME.result(state, (0, 0))
    assert GAME.to_move(after) is False
    assert GAME.actions(after) == []  # the columns are full, so no horizontal domino fits
    assert GAME.is_terminal(after)
    assert not GAME.is_terminal(state)


def test_evaluation_is_the_player_s_moves_minus_the_opponent_s():
    state = DominoesState(empty(3, 3), True)
    assert GAME.utility(state, True) == 0
    after = GAME.result(state, (0, 1))
    # vertical: 6 - 2 (column 1 is blocked twice); horizontal: 6 - 4
    assert GAME.utility(after, True) == 4 - 2
    assert GAME.utility(after, False) == -(4 - 2)
