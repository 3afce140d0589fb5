"""Reference Othello rules, and the template's othello_shared checked against them."""
from __future__ import annotations

import random

import pytest

from assignments.othello import rules
from assignments.othello.rules import Othello, OthelloState

START4 = ((0, 0, 0, 0), (0, 2, 1, 0), (0, 1, 2, 0), (0, 0, 0, 0))


def random_positions(size, count, seed):
    """Positions (board, player to move) met in seeded random playouts, terminal ones included."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        board, player = rules.Othello(size).initial_state().board, rules.DARK
        while True:
            positions.append((board, player))
            moves = rules.get_possible_moves(board, player)
            if not moves:
                break
            col, row = rng.choice(moves)
            board = rules.play_move(board, player, col, row)
            player = rules.opponent(player)
    return positions[:count]


def test_initial_board_matches_the_notes_and_the_handout():
    assert rules.Othello(4).initial_state().board == START4
    eight = rules.Othello(8).initial_state().board
    assert eight[3] == (0, 0, 0, 2, 1, 0, 0, 0)
    assert eight[4] == (0, 0, 0, 1, 2, 0, 0, 0)
    assert rules.get_score(eight) == (2, 2)


@pytest.mark.parametrize("size", [3, 5, 2, 28, 4.0, True])
def test_unsupported_sizes_are_refused(size):
    with pytest.raises(ValueError, match="board size"):
        rules.Othello(size).initial_state().board


def test_moves_come_column_major_as_column_row():
    # 8 x 8 start, dark to move (* = legal). Row-major order would start with (3, 2):
    #     0 1 2 3 4 5 6 7
    #  2  . . . * . . . .      (3, 2)
    #  3  . . * O X . . .      (2, 3)
    #  4  . . . X O * . .      (5, 4)
    #  5  . . . . * . . .      (4, 5)
    board = rules.Othello(8).initial_state().board
    assert rules.get_possible_moves(board, rules.DARK) == [(2, 3), (3, 2), (4, 5), (5, 4)]
    assert rules.get_possible_moves(START4, rules.DARK) == [(0, 1), (1, 0), (2, 3), (3, 2)]
    assert Othello(4).actions(Othello(4).initial_state()) == [(0, 1), (1, 0), (2, 3), (3, 2)]


def test_play_move_flips_every_captured_line_and_leaves_the_input_alone():
    # Dark plays (0, 0) on:      after:
    #   . O X .                    X X X .
    #   O O . .                    X X . .
    #   X . X .                    X . X .
    #   . . . .                    . . . .
    board = ((0, 2, 1, 0), (2, 2, 0, 0), (1, 0, 1, 0), (0, 0, 0, 0))
    assert rules.find_lines(board, 0, 0, rules.DARK) == [[(1, 0)], [(1, 1)], [(0, 1)]]
    after = rules.play_move(board, rules.DARK, 0, 0)
    assert after == ((1, 1, 1, 0), (1, 1, 0, 0), (1, 0, 1, 0), (0, 0, 0, 0))
    assert board == ((0, 2, 1, 0), (2, 2, 0, 0), (1, 0, 1, 0), (0, 0, 0, 0))
    assert isinstance(after, tuple) and all(isinstance(row, tuple) for row in after)


@pytest.mark.parametrize("square, problem", [
    ((-1, 2), "out-of-range"), ((2, -1), "out-of-range"), ((4, 0), "out-of-range"),
    ((1, 1), "occupied"), ((0, 0), "no-capture"), ((0, 1), None),
])
def test_move_problem_names_the_reason(square, problem):
    assert rules.move_problem(START4, rules.DARK, *square) == problem


def test_game_protocol_adapter():
    game = Othello(4)
    state = game.initial_state()
    assert game.to_move(state) == rules.DARK and not game.is_terminal(state)
    child = game.result(state, (0, 1))
    assert child == OthelloState(((0, 0, 0, 0), (1, 1, 1, 0), (0, 1, 2, 0), (0, 0, 0, 0)), 2)
    assert game.utility(child, rules.DARK) == 3 and game.utility(child, rules.LIGHT) == -3
    # light to move on a board with no light disk: no legal move, so the game is over
    full_dark = OthelloState(((1, 1, 0, 0), (1, 1, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0)), 2)
    assert game.is_terminal(full_dark) and game.actions(full_dark) == []
    assert repr(game) == "Othello(4)"


@pytest.mark.parametrize("size", [4, 6, 8])
def test_template_helpers_agree_with_the_reference(shared, size):
    for board, player in random_positions(size, 60, seed=size):
        assert shared.get_possible_moves(board, player) == rules.get_possible_moves(board, player)
        assert shared.get_score(board) == rules.get_score(board)
        for col in range(size):
            for row in range(size):
                assert (shared.find_lines(board, col, row, player)
                        == rules.find_lines(board, col, row, player))
        for col, row in rules.get_possible_moves(board, player):
            assert (shared.play_move(board, player, col, row)
                    == rules.play_move(board, player, col, row))


def test_manager_start_position_agrees_with_the_reference(manager):
    for size in (4, 6, 8, 10):
        assert manager.initial_board(size) == rules.Othello(size).initial_state().board
    with pytest.raises(ValueError):
        manager.initial_board(5)
