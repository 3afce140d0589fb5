"""Grid navigation scenes: obstacles, the 8 moves, Euclidean lengths, and the ``.``/``X`` format.

A scene is a rectangle of cells, each free or an obstacle. A step goes from a cell to one of its
8 neighbours (orthogonal or diagonal) that is on the scene and free; a diagonal step may pass
between two obstacles that touch at a corner, as the handout's example path (0, 0), (1, 0),
(2, 1) does. A step costs its Euclidean length (1 or sqrt 2). This module knows nothing about
search: A* lives in ``reference.search.astar`` and works on :class:`GridNavigationProblem`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from assignments.search_and_games.grid_geometry import (  # the geometry, given to students too
    FREE_CHAR,
    OBSTACLE_CHAR,
    Point,
    Scene,
    is_on_scene,
    is_step,
    parse_scene,
    path_length,
    straight_line_distance,
)

STEPS: tuple[Point, ...] = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
"""The 8 moves as (row change, col change), in the order :func:`neighbours` tries them."""

def format_scene(scene: Scene) -> str:
    """The text of ``scene`` in the format :func:`parse_scene` reads, each line ending in ``\\n``.

    >>> format_scene(((False, True), (False, False)))
    '.X\\n..\\n'
    """
    return "".join(
        "".join(OBSTACLE_CHAR if cell else FREE_CHAR for cell in row) + "\n" for row in scene)


def grid_from_lists(
        rows: Sequence[Sequence[bool]], kind: str = "scene") -> tuple[tuple[bool, ...], ...]:
    """Checked conversion of a handout-style list of lists of bools into a tuple of tuples.

    Scenes and Lights Out boards share this representation; ``kind`` names which one in errors.

    Args:
        rows: a non-empty rectangular grid whose cells are exactly ``True`` or ``False`` (the
            type is checked, so ``1`` or ``"x"`` is refused). Not mutated.
        kind: what the grid is, for error messages ("scene", "board").

    Returns:
        The same cells as a tuple of tuples.

    Raises:
        ValueError: naming the first row or cell that is not as described.
    """
    if len(rows) == 0 or len(rows[0]) == 0:
        raise ValueError(f"a {kind} needs at least one row and one column")
    width = len(rows[0])
    for r, row in enumerate(rows):
        if len(row) != width:
            raise ValueError(f"{kind} row {r} has {len(row)} cells, expected {width}")
        for c, cell in enumerate(row):
            if type(cell) is not bool:
                raise ValueError(f"{kind} cell ({r}, {c}) is {cell!r}, expected True or False")
    return tuple(tuple(row) for row in rows)


def grid_to_lists(grid: tuple[tuple[bool, ...], ...]) -> list[list[bool]]:
    """The handout's representation of a scene or board: a fresh list of lists of bools."""
    return [list(row) for row in grid]


def is_free(scene: Scene, point: Point) -> bool:
    """Whether ``point`` lies inside ``scene`` on a cell without an obstacle."""
    return is_on_scene(scene, point) and not scene[point[0]][point[1]]


def neighbours(scene: Scene, point: Point) -> list[Point]:
    """The free cells one step from ``point``, in the order of :data:`STEPS`."""
    row, col = point
    candidates = [(row + dr, col + dc) for dr, dc in STEPS]
    return [p for p in candidates if is_free(scene, p)]


@dataclass(frozen=True)
class GridNavigationProblem:
    """Going from ``initial`` to ``goal`` on ``scene``, as a ``reference.core.SearchProblem``.

    States are points. An action is the point stepped onto, so a solution's actions are the path
    after its start; they come in the order of :data:`STEPS`. A step costs its Euclidean length.
    The caller checks that ``initial`` and ``goal`` are free (the handout answers None otherwise).
    """

    scene: Scene
    initial: Point
    goal: Point

    def actions(self, state: Point) -> list[Point]:
        """The free neighbours of ``state``."""
        return neighbours(self.scene, state)

    def result(self, state: Point, move: Point) -> Point:
        """The point stepped onto, which is the action itself."""
        return move

    def is_goal(self, state: Point) -> bool:
        """Whether ``state`` is the goal."""
        return state == self.goal

    def action_cost(self, state: Point, move: Point, next_state: Point) -> float:
        """The Euclidean length of the step."""
        return straight_line_distance(state, next_state)

    def heuristic(self, state: Point) -> float:
        """Straight-line distance to the goal: admissible and consistent for these step costs."""
        return straight_line_distance(state, self.goal)


__all__ = [
    "FREE_CHAR", "GridNavigationProblem", "OBSTACLE_CHAR", "Point", "STEPS", "Scene",
    "format_scene", "grid_from_lists", "grid_to_lists", "is_free", "is_on_scene", "is_step",
    "neighbours", "parse_scene",
    "path_length", "straight_line_distance",
]
