"""Scenes: the text format, the 8 moves, and A* against an independent Dijkstra oracle."""
from __future__ import annotations

import heapq
import math
import random

import pytest

from assignments.search_and_games.grid import (
    GridNavigationProblem,
    format_scene,
    grid_from_lists,
    grid_to_lists,
    is_free,
    is_step,
    neighbours,
    parse_scene,
    path_length,
    straight_line_distance,
)
from reference.search.astar import astar_search

T, F = True, False
SQRT2 = math.sqrt(2)


def random_scene(rng: random.Random, rows: int, cols: int, density: float):
    return tuple(tuple(rng.random() < density for _ in range(cols)) for _ in range(rows))


def dijkstra_distance(scene, start, goal):
    """Cheapest Euclidean cost from start to goal over the 8 moves, or None (test oracle)."""
    best = {start: 0.0}
    heap = [(0.0, start)]
    while heap:
        cost, (r, c) = heapq.heappop(heap)
        if (r, c) == goal:
            return cost
        if cost > best[(r, c)]:
            continue
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                nxt = (r + dr, c + dc)
                if (dr or dc) and 0 <= nxt[0] < len(scene) and 0 <= nxt[1] < len(scene[0]) \
                        and not scene[nxt[0]][nxt[1]]:
                    new = cost + (SQRT2 if dr and dc else 1.0)
                    if new < best.get(nxt, math.inf):
                        best[nxt] = new
                        heapq.heappush(heap, (new, nxt))
    return None


def reference_path(scene, start, goal):
    problem = GridNavigationProblem(scene, start, goal)
    actions = astar_search(problem, problem.heuristic)
    return None if actions is None else [start] + actions


def test_parse_reads_dots_and_crosses():
    assert parse_scene("..X\nX..\n") == ((F, F, T), (T, F, F))


def test_parse_accepts_a_missing_final_newline_and_crlf():
    assert parse_scene(".X\r\n..") == ((F, T), (F, F))


@pytest.mark.parametrize("text, where", [
    ("", "at least one"),
    ("\n", "at least one"),
    ("..\n.\n", "line 2 has 1 cells"),
    (".o\n", "line 1, column 2"),
    ("..\n\n..\n", "line 2 has 0 cells"),
])
def test_parse_errors_say_where(text, where):
    with pytest.raises(ValueError, match=where):
        parse_scene(text)


def test_parse_quotes_long_lines_abbreviated():
    with pytest.raises(ValueError) as info:
        parse_scene("." * 100 + "?\n")
    assert "..." in str(info.value) and len(str(info.value)) < 150


def test_parse_and_format_round_trip():
    rng = random.Random(3)
    for _ in range(20):
        scene = random_scene(rng, rng.randint(1, 8), rng.randint(1, 8), 0.4)
        text = format_scene(scene)
        assert parse_scene(text) == scene
        assert format_scene(parse_scene(text)) == text


def test_lists_round_trip_and_reject_non_bools():
    scene = ((F, T), (F, F))
    assert grid_to_lists(scene) == [[F, T], [F, F]]
    assert grid_from_lists(grid_to_lists(scene)) == scene
    with pytest.raises(ValueError, match=r"scene cell \(1, 0\) is 0"):
        grid_from_lists([[F, T], [0, F]])


def test_neighbours_allow_diagonal_squeezes_and_keep_step_order():
    # . X
    # X .   (0, 0) -> (1, 1) passes between two obstacles touching at a corner
    scene = parse_scene(".X\nX.\n")
    assert neighbours(scene, (0, 0)) == [(1, 1)]
    assert neighbours(parse_scene("...\n...\n"), (0, 1)) == [(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)]


def test_is_free_is_step_and_lengths():
    scene = parse_scene(".X\n..\n")
    assert is_free(scene, (0, 0)) and not is_free(scene, (0, 1)) and not is_free(scene, (2, 0))
    assert is_step((0, 0), (1, 1)) and not is_step((0, 0), (0, 0)) and not is_step((0, 0), (0, 2))
    assert path_length([(0, 0), (1, 0), (2, 1)]) == pytest.approx(1 + SQRT2)
    assert path_length([(3, 3)]) == 0
    assert straight_line_distance((0, 0), (3, 4)) == 5


def test_astar_on_the_handout_scenes():
    scene = parse_scene("...\n.X.\n...\n")
    assert reference_path(scene, (0, 0), (2, 1)) == [(0, 0), (1, 0), (2, 1)]
    assert reference_path(parse_scene(".X.\n.X.\n.X.\n"), (0, 0), (0, 2)) is None


def test_astar_from_the_goal_is_the_one_point_path():
    assert reference_path(parse_scene("..\n..\n"), (1, 1), (1, 1)) == [(1, 1)]


def test_astar_uses_diagonal_squeezes():
    scene = parse_scene(".X\nX.\n")
    assert reference_path(scene, (0, 0), (1, 1)) == [(0, 0), (1, 1)]


@pytest.mark.parametrize("seed", range(6))
def test_astar_matches_dijkstra_on_random_scenes(seed):
    rng = random.Random(seed)
    for _ in range(15):
        rows, cols = rng.randint(1, 14), rng.randint(1, 14)
        scene = random_scene(rng, rows, cols, rng.choice([0.0, 0.2, 0.35, 0.5]))
        free = [(r, c) for r in range(rows) for c in range(cols) if not scene[r][c]]
        if not free:
            continue
        start, goal = rng.choice(free), rng.choice(free)
        path = reference_path(scene, start, goal)
        optimum = dijkstra_distance(scene, start, goal)
        assert (path is None) == (optimum is None)
        if path is not None:
            assert path[0] == start and path[-1] == goal
            assert all(is_step(a, b) and is_free(scene, b) for a, b in zip(path, path[1:]))
            assert path_length(path) == pytest.approx(optimum, abs=1e-9)
