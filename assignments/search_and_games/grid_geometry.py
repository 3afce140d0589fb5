"""Grid scenes without their search: the ``.``/``X`` format, cells, steps and Euclidean lengths.

The checker of ``find_path`` (:mod:`assignments.search_and_games.checkers`) judges a path with
these alone, so the student package holds this module and not
:mod:`assignments.search_and_games.grid`
(the navigation problem A* solves).
"""
from __future__ import annotations

import math
from typing import Sequence

Scene = tuple[tuple[bool, ...], ...]
"""``scene[row][col]`` is True when the cell at (row, col) is an obstacle; rows top to bottom."""

Point = tuple[int, int]
"""A cell, as (row, col); row 0 is the top row, col 0 the left column."""

FREE_CHAR = "."
OBSTACLE_CHAR = "X"
_QUOTE_LIMIT = 40


def _quote(text: str) -> str:
    """``repr`` of ``text``, abbreviated so an error message stays short."""
    if len(text) > _QUOTE_LIMIT:
        return repr(text[:_QUOTE_LIMIT]) + "..."
    return repr(text)


def parse_scene(text: str) -> Scene:
    """Checked reader of the handout's scene format.

    Args:
        text: one line per row, top to bottom; ``.`` is a free cell and ``X`` an obstacle. Lines
            end with ``\\n`` (a ``\\r\\n`` ending is accepted); the last line's ending is optional.
            Every line has the same, non-zero, length.

    Returns:
        The scene.

    Raises:
        ValueError: naming the line (1-based) and column of the first problem and quoting it.

    >>> parse_scene(".X\\n..\\n")
    ((False, True), (False, False))
    """
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    lines = [line[:-1] if line.endswith("\r") else line for line in lines]
    if not lines or lines[0] == "":
        raise ValueError(f"a scene needs at least one non-empty line, got {_quote(text)}")
    width = len(lines[0])
    for number, line in enumerate(lines, start=1):
        if len(line) != width:
            raise ValueError(
                f"scene line {number} has {len(line)} cells, expected {width}: {_quote(line)}")
        for col, char in enumerate(line):
            if char not in (FREE_CHAR, OBSTACLE_CHAR):
                raise ValueError(
                    f"scene line {number}, column {col + 1}: expected '.' or 'X', got "
                    f"{char!r} in {_quote(line)}")
    return tuple(tuple(char == OBSTACLE_CHAR for char in line) for line in lines)


def is_on_scene(scene: Scene, point: Point) -> bool:
    """Whether ``point`` lies inside ``scene``."""
    row, col = point
    return 0 <= row < len(scene) and 0 <= col < len(scene[0])


def is_step(a: Point, b: Point) -> bool:
    """Whether going from ``a`` to ``b`` is one of the 8 moves (staying put is not)."""
    return a != b and abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


def straight_line_distance(a: Point, b: Point) -> float:
    """Euclidean distance between the centres of two cells (the handout's A* heuristic)."""
    return math.hypot(a[0] - b[0], a[1] - b[1])


def path_length(path: Sequence[Point]) -> float:
    """Euclidean length of a path given as its points, start first; 0 for fewer than 2 points."""
    return sum(straight_line_distance(a, b) for a, b in zip(path, path[1:]))


def grid_mask(grid: Scene) -> int:
    """A grid as a bitmask: bit ``r * cols + c`` set for each True cell (r, c) (an obstacle of
    a scene, a light on of a Lights Out board)."""
    cols = len(grid[0])
    return sum(1 << (r * cols + c) for r, row in enumerate(grid) for c, on in enumerate(row) if on)


__all__ = ["FREE_CHAR", "OBSTACLE_CHAR", "Point", "Scene", "grid_mask", "is_on_scene", "is_step",
           "parse_scene", "path_length", "straight_line_distance"]
