"""Lights Out rules, BFS optimality against brute force, and the GF(2) oracle."""
from __future__ import annotations

import itertools
import random

import pytest

from assignments.search_and_games.grid import grid_from_lists
from assignments.search_and_games.lights_out import (
    LightsOutProblem,
    create_board,
    is_on_board,
    is_solved,
    moves,
    press,
)
from assignments.search_and_games.lights_out_algebra import is_solvable, minimum_presses
from reference.core.counters import Counter
from reference.search.bfs import breadth_first_graph_search

T, F = True, False


def random_board(rng: random.Random, rows: int, cols: int):
    return tuple(tuple(rng.random() < 0.5 for _ in range(cols)) for _ in range(rows))


def apply_all(board, presses):
    for move in presses:
        board = press(board, move)
    return board


def brute_force_lengths(rows: int, cols: int) -> dict:
    """Fewest presses to reach each solvable board from all-off (presses are self-inverse)."""
    cells = moves(create_board(rows, cols))
    best: dict = {}
    for size in range(len(cells) + 1):
        for subset in itertools.combinations(cells, size):
            best.setdefault(apply_all(create_board(rows, cols), subset), size)
    return best


def test_press_centre_and_corner_match_the_handout():
    # . X .      X X .
    # X X X      X . .
    # . X .      . . .
    assert press(create_board(3, 3), (1, 1)) == ((F, T, F), (T, T, T), (F, T, F))
    assert press(create_board(3, 3), (0, 0)) == ((T, T, F), (T, F, F), (F, F, F))


def test_press_on_edges_of_a_one_row_board():
    assert press(create_board(1, 3), (0, 2)) == ((F, T, T),)
    assert press(create_board(1, 1), (0, 0)) == ((T,),)


def test_moves_come_row_major():
    assert moves(create_board(2, 3)) == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]


def test_is_on_board_and_is_solved():
    board = create_board(2, 3)
    assert is_on_board(board, (1, 2)) and not is_on_board(board, (2, 0))
    assert not is_on_board(board, (0, -1))
    assert is_solved(board) and not is_solved(press(board, (0, 0)))


def test_create_board_refuses_empty_sizes():
    with pytest.raises(ValueError, match="0x3"):
        create_board(0, 3)


def test_presses_commute_and_undo_themselves():
    rng = random.Random(7)
    board = random_board(rng, 3, 4)
    assert press(press(board, (1, 2)), (1, 2)) == board
    assert press(press(board, (0, 0)), (2, 3)) == press(press(board, (2, 3)), (0, 0))


@pytest.mark.parametrize("rows", [[[T, 1]], [[T], [T, F]], [], [[]]])
def test_grid_from_lists_refuses_bad_boards(rows):
    with pytest.raises(ValueError):
        grid_from_lists(rows, "board")


def test_bfs_solves_the_handout_example():
    board = apply_all(create_board(2, 3), moves(create_board(2, 3)))
    assert breadth_first_graph_search(LightsOutProblem(board)) == [(0, 0), (0, 2)]


def test_bfs_returns_none_for_the_handout_unsolvable_board():
    board = ((T, F, F), (F, F, F))
    assert breadth_first_graph_search(LightsOutProblem(board)) is None


def test_bfs_returns_empty_list_for_a_solved_board():
    assert breadth_first_graph_search(LightsOutProblem(create_board(3, 3))) == []


@pytest.mark.parametrize("rows, cols", [(1, 1), (1, 2), (1, 4), (2, 2), (2, 3)])
def test_bfs_is_optimal_on_every_small_board(rows, cols):
    best = brute_force_lengths(rows, cols)
    for cells in itertools.product([F, T], repeat=rows * cols):
        board = tuple(tuple(cells[r * cols:(r + 1) * cols]) for r in range(rows))
        solution = breadth_first_graph_search(LightsOutProblem(board))
        if board not in best:
            assert solution is None, board
        else:
            assert len(solution) == best[board], board
            assert is_solved(apply_all(board, solution)), board


@pytest.mark.parametrize("rows, cols", [(3, 3), (2, 4)])
def test_bfs_is_optimal_on_sampled_boards(rows, cols):
    best = brute_force_lengths(rows, cols)
    rng = random.Random(rows * 10 + cols)
    for _ in range(12):
        board = random_board(rng, rows, cols)
        solution = breadth_first_graph_search(LightsOutProblem(board))
        assert (solution is None) == (board not in best)
        if solution is not None:
            assert len(solution) == best[board] and is_solved(apply_all(board, solution))


@pytest.mark.parametrize("rows, cols", [(4, 4), (3, 5)])
def test_bfs_agrees_with_the_algebra_on_larger_boards(rows, cols):
    rng = random.Random(rows * 10 + cols)
    for _ in range(2):
        presses = [m for m in moves(create_board(rows, cols)) if rng.random() < 0.5]
        solvable = apply_all(create_board(rows, cols), presses)
        corner_flipped = (tuple(not solvable[0][0] if c == 0 else x
                                for c, x in enumerate(solvable[0])),) + solvable[1:]
        solution = breadth_first_graph_search(LightsOutProblem(solvable))
        oracle = minimum_presses(solvable)
        assert is_solvable(solvable) and len(solution) == len(oracle) <= len(presses)
        assert is_solved(apply_all(solvable, solution)) and is_solved(apply_all(solvable, oracle))
        # A single corner light is unsolvable on both sizes, so flipping it breaks solvability.
        assert not is_solvable(corner_flipped) and minimum_presses(corner_flipped) is None
        assert breadth_first_graph_search(LightsOutProblem(corner_flipped)) is None


@pytest.mark.parametrize("board", [
    ((T, F),),                      # 1x2: every press toggles both lights
    ((T, F, F), (F, F, F)),         # the handout's board
    ((T, F, F, F), (F, F, F, F), (F, F, F, F), (F, F, F, F)),
])
def test_unsolvable_boards(board):
    assert not is_solvable(board)
    assert minimum_presses(board) is None
    assert breadth_first_graph_search(LightsOutProblem(board)) is None


def test_algebra_minimum_on_the_handout_example():
    board = apply_all(create_board(2, 3), moves(create_board(2, 3)))
    assert minimum_presses(board) == [(0, 0), (0, 2)]


def test_bfs_counts_expansions_in_the_counter_it_is_given():
    first, second = Counter(), Counter()
    breadth_first_graph_search(LightsOutProblem(((T, F, F), (F, F, F))), first)
    assert first.expansions == 2 ** 4  # 2x3 has a 2-dimensional null space: 16 reachable boards
    assert second.expansions == 0
