"""The single-file reference solution (student API) against the handout and the reference."""
from __future__ import annotations

import random

import pytest
from search_and_games_support import SOLUTION, load_module

from assignments.search_and_games.grid import GridNavigationProblem, grid_from_lists, path_length
from assignments.search_and_games.lights_out import LightsOutProblem, is_solved, press
from assignments.search_and_games.lights_out_algebra import is_solvable
from reference.search.astar import astar_search
from reference.search.bfs import breadth_first_graph_search

T, F = True, False
solution = load_module(SOLUTION, "search_and_games_solution")


def test_lights_out_handout_examples():
    assert solution.LightsOutPuzzle([[T, F], [F, T]]).get_board() == [[T, F], [F, T]]
    assert solution.create_puzzle(2, 3).get_board() == [[F, F, F], [F, F, F]]
    p = solution.create_puzzle(3, 3)
    p.perform_move(1, 1)
    assert p.get_board() == [[F, T, F], [T, T, T], [F, T, F]]
    assert not solution.LightsOutPuzzle([[T, F], [F, T]]).is_solved()
    assert solution.LightsOutPuzzle([[F, F], [F, F]]).is_solved()
    successors = [(m, q.get_board()) for m, q in solution.create_puzzle(2, 2).successors()]
    assert successors == [((0, 0), [[T, T], [T, F]]), ((0, 1), [[T, T], [F, T]]),
                          ((1, 0), [[T, F], [T, T]]), ((1, 1), [[F, T], [T, T]])]
    assert [len(list(solution.create_puzzle(i, i + 1).successors())) for i in range(2, 6)] \
        == [6, 12, 20, 30]
    p = solution.create_puzzle(2, 3)
    for row in range(2):
        for col in range(3):
            p.perform_move(row, col)
    assert p.find_solution() == [(0, 0), (0, 2)]
    assert solution.LightsOutPuzzle([[T, F, F], [F, F, F]]).find_solution() is None


def test_copy_is_independent_both_ways():
    p = solution.create_puzzle(3, 3)
    q = p.copy()
    p.perform_move(0, 0)
    assert q.get_board() == [[F] * 3] * 3
    q.perform_move(2, 2)
    assert p.get_board() == [[T, T, F], [T, F, F], [F, F, F]]


def test_successors_leave_the_puzzle_alone():
    p = solution.LightsOutPuzzle([[T, F, F], [F, F, T]])
    list(p.successors())
    assert p.get_board() == [[T, F, F], [F, F, T]]


def test_find_solution_is_optimal_on_random_boards():
    rng = random.Random(11)
    for rows, cols in [(1, 1), (2, 2), (3, 3), (3, 4), (4, 4), (3, 5)]:
        board = [[rng.random() < 0.5 for _ in range(cols)] for _ in range(rows)]
        answer = solution.LightsOutPuzzle(board).find_solution()
        expected = breadth_first_graph_search(LightsOutProblem(grid_from_lists(board, "board")))
        assert (answer is None) == (expected is None)
        if answer is not None:
            state = grid_from_lists(board, "board")
            for move in answer:
                state = press(state, move)
            assert is_solved(state) and len(answer) == len(expected)


def test_scramble_gives_solvable_changed_boards():
    random.seed(5)
    boards = set()
    for _ in range(20):
        p = solution.create_puzzle(4, 4)
        p.scramble()
        board = grid_from_lists(p.get_board(), "board")
        assert is_solvable(board)
        boards.add(board)
    assert len(boards) > 15


def test_find_path_handout_examples():
    scene = [[F, F, F], [F, T, F], [F, F, F]]
    assert solution.find_path((0, 0), (2, 1), scene) == [(0, 0), (1, 0), (2, 1)]
    assert solution.find_path((0, 0), (0, 2), [[F, T, F]] * 3) is None


def test_find_path_special_cases():
    scene = [[F, T], [T, F]]
    assert solution.find_path((0, 0), (1, 1), scene) == [(0, 0), (1, 1)]
    assert solution.find_path((0, 0), (0, 0), scene) == [(0, 0)]
    assert solution.find_path((0, 1), (1, 1), scene) is None
    assert solution.find_path((0, 0), (1, 0), scene) is None


def test_find_path_is_optimal_on_random_scenes():
    rng = random.Random(12)
    for _ in range(40):
        rows, cols = rng.randint(1, 20), rng.randint(1, 20)
        scene = [[rng.random() < 0.3 for _ in range(cols)] for _ in range(rows)]
        start = (rng.randrange(rows), rng.randrange(cols))
        goal = (rng.randrange(rows), rng.randrange(cols))
        answer = solution.find_path(start, goal, scene)
        problem = GridNavigationProblem(grid_from_lists(scene), start, goal)
        expected = None
        if not scene[start[0]][start[1]] and not scene[goal[0]][goal[1]]:
            expected = astar_search(problem, problem.heuristic)
        assert (answer is None) == (expected is None)
        if answer is not None:
            assert path_length(answer) == pytest.approx(path_length([start] + expected))
