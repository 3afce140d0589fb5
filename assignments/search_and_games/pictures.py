"""Search answers drawn for feedback: the student's answer on its board, beside what was checked.

Both searches of the handout answer with ``(row, column)`` points from 0 at the top left: a path
for ``find_path`` (A* on a scene), a list of presses for ``find_solution`` (Lights Out). The
picture draws the case's board (from its options) with the answer on it, and lists each check
the comparator makes with whether the answer passed it. The optimum itself is named only when
the case may reveal it (its length difference is already in every message, as the checker's
docstring says). :func:`draw_text` is the painter; the ``case_picture`` functions are the
``picture:`` of the two case files.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from assignments.search_and_games.grid_geometry import (
    grid_mask,
    is_on_scene,
    is_step,
    parse_scene,
    path_length,
)
from reference.core.pictures import answer_of, draw_grid

MOST_POINTS = 400
"""Longest answer drawn (a longer one is only counted)."""


def draw_text(position: Sequence[Sequence[bool]],
              marks: Mapping[tuple[int, int], str] | None = None,
              legend: Sequence[str] = (), on: str = "X", off: str = ".") -> str:
    """A grid of booleans (``on`` where True) with ``marks`` at ``(row, column)`` points.

    >>> print(draw_text([[False, True]], {(0, 0): "S"}))
            column
            0 1
    row 0   S X
    """
    cells = [[on if cell else off for cell in row] for row in position]
    return draw_grid(cells, marks=marks, legend=legend)


def _points(value: Any) -> list[tuple[int, int]] | None:
    """The answer as points, or None when it is not a list of (row, column) pairs."""
    if type(value) not in (list, tuple) or len(value) > MOST_POINTS:
        return None
    points = []
    for item in value:
        if type(item) not in (list, tuple) or len(item) != 2 \
                or not all(type(part) is int for part in item):
            return None
        points.append((item[0], item[1]))
    return points


def _checks(results: Sequence[tuple[str, bool]]) -> list[str]:
    return ["checked:"] + [f"  [{'ok' if passed else 'no'}] {what}" for what, passed in results]


def _judged(case: Any, observations: Sequence[Any], draw: Any, reveal: bool) -> str:
    """The picture of the example that decided the case: the easy call a case asks first
    (``sanity``, see the checkers) when it failed, else the last example."""
    if len(observations) < len(case.examples):
        return ""
    sanity = case.options.get("sanity")
    if isinstance(sanity, Mapping) and isinstance(sanity.get("example"), int):
        if "precomputed" in case.options:
            sanity = {**sanity, "precomputed": case.options["precomputed"].get("sanity")}
        text, passed = draw(sanity, observations[sanity["example"]], reveal)
        if not passed:
            return text
    return draw(case.options, observations[-1], reveal)[0]


def path_picture(case: Any, observations: Sequence[Any], reveal: bool) -> str:
    """``find_path``: the scene, the student's path (``*``, ``S`` start, ``G`` goal, ``!`` a
    point on an obstacle), and the checks: ends, steps, obstacles, length."""
    return _judged(case, observations, _path, reveal)


def solution_picture(case: Any, observations: Sequence[Any], reveal: bool) -> str:
    """``find_solution``: the board with the student's presses (``*`` on a light that was on,
    ``o`` on one that was off), the board after them, and the checks: all off, fewest moves."""
    return _judged(case, observations, _solution, reveal)


def _path(options: Mapping[str, Any], observation: Any, reveal: bool) -> tuple[str, bool]:
    scene = parse_scene("\n".join(options["scene"]))
    start, goal = tuple(options["start"]), tuple(options["goal"])
    value = answer_of(observation)
    path = _points(value)
    marks: dict[tuple[int, int], str] = {}
    checks: list[tuple[str, bool]] = []
    optimum = options.get("length")
    if path is None:
        answer = "your answer: None" if value is None else "your answer is not a list of points"
        checks = [("None exactly when no path exists", value is None and optimum is None)]
    else:
        for point in path:
            if is_on_scene(scene, point):
                marks[point] = "!" if scene[point[0]][point[1]] else "*"
        length = path_length(path) if path else 0.0
        answer = f"your path: {len(path)} point{'' if len(path) == 1 else 's'}, length {length:.6f}"
        checks = [
            (f"starts at the start {start}", bool(path) and path[0] == start),
            (f"ends at the goal {goal}", bool(path) and path[-1] == goal),
            ("every point on the scene and off the obstacles",
             all(is_on_scene(scene, p) and not scene[p[0]][p[1]] for p in path)),
            ("every step one of the 8 moves",
             all(is_step(a, b) for a, b in zip(path, path[1:])) or path == [start, goal]),
        ]
        if optimum is not None:
            shortest = f" ({optimum:.6f})" if reveal else ""
            checks.append((f"as short as the shortest path{shortest}",
                           length <= optimum + float(options.get("tolerance", 1e-6))))
        else:
            checks.append(("None exactly when no path exists", False))
    marks[start] = "S"
    marks[goal] = "G"
    legend = ["X obstacle, . free; S start, G goal, * your path, ! your path on an obstacle",
              answer, *_checks(checks)]
    return "The scene\n" + draw_text(scene, marks, legend), all(ok for _, ok in checks)


def _solution(options: Mapping[str, Any], observation: Any, reveal: bool) -> tuple[str, bool]:
    if not isinstance(options.get("precomputed"), Mapping):
        return "", True
    board = parse_scene("\n".join(options["board"]))
    rows, cols = len(board), len(board[0])
    value = answer_of(observation)
    optimum = options.get("length")
    if value is None:
        passed = optimum is None
        return (f"The board (X on, . off)\n{draw_text(board)}\nyour answer: None\n"
                + "\n".join(_checks([("None exactly when the board cannot be solved", passed)])),
                passed)
    moves = _points(value)
    if moves is None or not all(0 <= r < rows and 0 <= c < cols for r, c in moves):
        return "", False
    lights = grid_mask(board)
    toggles = options["precomputed"]["toggles"]
    for row, col in moves:
        lights ^= toggles[row * cols + col]
    after = [[bool(lights >> (r * cols + c) & 1) for c in range(cols)] for r in range(rows)]
    marks = {(r, c): "*" if board[r][c] else "o" for r, c in moves}
    optimum = options.get("length")
    checks = [("every light off after your moves", not lights)]
    if optimum is not None:
        fewest = f" ({optimum})" if reveal else ""
        checks.append((f"as few moves as an optimal solution{fewest}", len(moves) <= optimum))
    else:
        checks.append(("None exactly when the board cannot be solved", False))
    return "\n".join([
        "The board (X on, . off), your presses marked (* on a light that was on, o on one "
        "that was off)", draw_text(board, marks),
        f"after your {len(moves)} move{'' if len(moves) == 1 else 's'}", draw_text(after),
        *_checks(checks)]), all(ok for _, ok in checks)
