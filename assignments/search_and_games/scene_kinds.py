"""The kinds of grid-navigation scenes the hidden cases use, made from a seeded ``random.Random``.

Each maker returns a :data:`assignments.search_and_games.grid.Scene`; none chooses start or
goal. Hand-drawn
scenes are ``.``/``X`` files in ``scenes/`` next to this module, read with :func:`drawn_scene`.
Nothing here knows the answer: the generator asks the A* reference for it.
"""
from __future__ import annotations

import random
from pathlib import Path

from assignments.search_and_games.grid import Scene, parse_scene

SCENE_DIR = Path(__file__).resolve().parent / "scenes"


def drawn_scene(name: str) -> Scene:
    """The hand-drawn scene ``scenes/<name>.txt``.

    Raises:
        FileNotFoundError: no such scene.
        ValueError: the file is not in the ``.``/``X`` format (the message names the line).
    """
    return parse_scene((SCENE_DIR / f"{name}.txt").read_text(encoding="utf-8"))


def drawn_scene_names() -> list[str]:
    """Names of the hand-drawn scenes, sorted."""
    return sorted(path.stem for path in SCENE_DIR.glob("*.txt"))


def random_scene(rng: random.Random, rows: int, cols: int, density: float) -> Scene:
    """Each cell is an obstacle with probability ``density`` (0 gives an open scene)."""
    return tuple(tuple(rng.random() < density for _ in range(cols)) for _ in range(rows))


def maze_scene(rng: random.Random, rows: int, cols: int) -> Scene:
    """A perfect maze carved by randomised depth-first search.

    Cells with even row and column are rooms; walls between neighbouring rooms are knocked down
    along a random spanning tree, so every room is reachable, by exactly one corridor. Diagonal
    steps can cut corners where corridors turn, which is allowed.
    """
    free = [[False] * cols for _ in range(rows)]
    free[0][0] = True
    stack = [(0, 0)]
    while stack:
        row, col = stack[-1]
        options = [(row + dr, col + dc, row + dr // 2, col + dc // 2)
                   for dr, dc in ((-2, 0), (2, 0), (0, -2), (0, 2))
                   if 0 <= row + dr < rows and 0 <= col + dc < cols
                   and not free[row + dr][col + dc]]
        if not options:
            stack.pop()
            continue
        next_row, next_col, wall_row, wall_col = rng.choice(options)
        free[wall_row][wall_col] = free[next_row][next_col] = True
        stack.append((next_row, next_col))
    return tuple(tuple(not cell for cell in row) for row in free)


def diagonal_walls_scene(rows: int, cols: int, spacing: int) -> Scene:
    """Anti-diagonal walls (cells with ``(row + col) % spacing == spacing - 1``).

    Such a wall blocks every orthogonal step across it, so a path can only cross it by a
    diagonal step squeezing between two obstacles that touch at a corner.
    """
    return tuple(tuple((r + c) % spacing == spacing - 1 for c in range(cols)) for r in range(rows))


def walled_in_scene(rng: random.Random, rows: int, cols: int, density: float,
                    centre: tuple[int, int]) -> Scene:
    """A random scene with a closed ring of obstacles around ``centre``, which stays free.

    The ring is the 8 cells around ``centre`` (those on the scene), so no step, diagonal or
    not, leaves or enters it: ``centre`` is unreachable from anywhere else.
    """
    scene = [list(row) for row in random_scene(rng, rows, cols, density)]
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            r, c = centre[0] + dr, centre[1] + dc
            if 0 <= r < rows and 0 <= c < cols:
                scene[r][c] = (dr, dc) != (0, 0)
    return tuple(tuple(row) for row in scene)


__all__ = ["SCENE_DIR", "diagonal_walls_scene", "drawn_scene", "drawn_scene_names", "maze_scene",
           "random_scene", "walled_in_scene"]
