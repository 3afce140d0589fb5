"""Isolation rules: opening moves, queen lines, blocking, the filled trail, parsing."""
from __future__ import annotations

import pytest

from assignments.isolation.rules import (
    BoardError,
    Isolation,
    IsolationState,
    ReplyError,
    format_board,
    parse_board,
    parse_move,
)

GAME = Isolation()


def board_from(rows: str) -> list[list[str]]:
    return [list(row) for row in rows.split()]


def test_opening_position_has_20_moves_per_side_in_row_major_order() -> None:
    state = GAME.initial_state()
    x_moves = GAME.actions(state)
    assert len(x_moves) == 20
    assert len(GAME.moves_of(state, "o")) == 20
    assert x_moves == sorted(x_moves)
    assert x_moves[:3] == [(1, 2), (1, 3), (1, 4)]
    # the diagonal stops before o's square (8, 8)
    assert (7, 7) in x_moves and (8, 8) not in x_moves


def test_moves_stop_at_filled_squares_and_at_the_other_player() -> None:
    # x at (1,1); (1,3) filled; o at (3,1); diagonal free
    board = board_from("""
        x-*-----
        --------
        o-------
        --------
        --------
        --------
        --------
        --------""")
    state = parse_board(board, "x")
    moves = GAME.actions(state)
    assert (1, 2) in moves and (1, 3) not in moves and (1, 4) not in moves
    assert (2, 1) in moves and (3, 1) not in moves and (4, 1) not in moves
    assert [m for m in moves if m[0] == m[1]] == [(r, r) for r in range(2, 9)]


def test_result_fills_only_the_vacated_square_and_passes_the_turn() -> None:
    after = GAME.result(GAME.initial_state(), (1, 5))
    board = format_board(after)
    assert board[0] == ["*", "-", "-", "-", "x", "-", "-", "-"]
    assert after.to_move == "o" and after.x == (1, 5)
    assert GAME.initial_state().x == (1, 1)  # the original position is unchanged


def test_a_player_without_moves_has_lost() -> None:
    board = board_from("""
        x*------
        **------
        --------
        --------
        --------
        --------
        --------
        -------o""")
    stuck = parse_board(board, "x")
    assert GAME.is_terminal(stuck)
    assert GAME.utility(stuck, "x") == -1 and GAME.utility(stuck, "o") == 1
    assert not GAME.is_terminal(parse_board(board, "o"))
    assert GAME.utility(GAME.initial_state(), "x") == 0


def test_board_round_trip() -> None:
    state = GAME.result(GAME.result(GAME.initial_state(), (4, 4)), (8, 2))
    assert parse_board(format_board(state), state.to_move) == state
    assert isinstance(state, IsolationState) and hash(state) == hash(parse_board(
        format_board(state), state.to_move))


@pytest.mark.parametrize("board, player, message", [
    ([["-"] * 8] * 7, "x", "8 rows"),
    ([["-"] * 8 for _ in range(8)], "x", "exactly one 'x'"),
    ([["x"] + ["-"] * 7] + [["-"] * 8 for _ in range(6)] + [["-"] * 7 + ["q"]], "x",
     "square (8, 8)"),
    (format_board(GAME.initial_state()), "z", "player must be"),
])
def test_parse_board_rejects_malformed_boards(board: object, player: str, message: str) -> None:
    with pytest.raises(BoardError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_board(board, player)


@pytest.mark.parametrize("value, expected", [
    ((3, 4), (3, 4)), ([8, 1], (8, 1)), ((None, None), None), ([None, None], None),
])
def test_parse_move_accepts_pairs(value: object, expected: object) -> None:
    assert parse_move(value) == expected


@pytest.mark.parametrize("value", [
    "3 4", (3,), (3, 4, 5), (True, 4), (3.0, 4), (0, 4), (3, 9), (-1, 2), None, (None, 4),
    {"row": 3, "col": 4},
])
def test_parse_move_rejects_everything_else(value: object) -> None:
    with pytest.raises(ReplyError):
        parse_move(value)


def test_small_boards_are_supported_and_sizes_checked() -> None:
    small = Isolation(3)
    assert small.initial_state().o == (3, 3)
    assert len(small.actions(small.initial_state())) == 5
    with pytest.raises(ValueError, match="board size"):
        Isolation(2)


def test_the_rays_of_a_board_size_are_computed_once() -> None:
    # a grading makes the rules a few hundred times (each game, each house bot): the queen
    # lines of a size are the same every time, so every Isolation of that size shares them
    assert Isolation(8)._rays is Isolation(8)._rays is GAME._rays
    assert Isolation(5)._rays is not GAME._rays
    assert len(Isolation(5)._rays) == 25 and len(GAME._rays) == 64


@pytest.mark.parametrize("size", [3, 4, 5, 8, 11, 16])
def test_mobility_counts_the_moves_of_every_player_on_every_board_size(size: int) -> None:
    # mobility counts by bit arithmetic on whole rays (the search's hottest loop); moves_of
    # walks each ray square by square: both agree in random games played to their end
    import random

    rng, game = random.Random(size), Isolation(size)
    for _ in range(30):
        state = game.initial_state()
        while True:
            for player in ("x", "o"):
                assert game.mobility(state, player) == len(game.moves_of(state, player))
            moves = game.actions(state)
            if not moves:
                break
            state = game.result(state, rng.choice(moves))
