"""The symmetries of a rectangular board (rows of cells), by name, for cases that ask a visible
position again mirrored or rotated (``mirror_of`` in a spec; ``harness.compare.mirror_images``).

Which of them keep a game's rules is the game's to say (its generators pass the names): Othello's
rules keep all eight on a square board, a rectangle keeps only the four that keep its shape.
The image's answer is always computed by the reference on the image, never mapped: tie-breaks
and counts depend on move order.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence, TypeVar

Cell = TypeVar("Cell")
Grid = tuple[tuple[Cell, ...], ...]


def _rows(grid: Sequence[Sequence[Cell]]) -> Grid[Cell]:
    return tuple(tuple(row) for row in grid)


def _transpose(grid: Sequence[Sequence[Cell]]) -> Grid[Cell]:
    return tuple(zip(*grid))


def _mirror(grid: Sequence[Sequence[Cell]]) -> Grid[Cell]:
    return tuple(tuple(row[::-1]) for row in grid)


def _flip(grid: Sequence[Sequence[Cell]]) -> Grid[Cell]:
    return _rows(grid[::-1])


SYMMETRIES: dict[str, Callable[[Sequence[Sequence[Any]]], Grid[Any]]] = {
    "mirror": _mirror,  # left-right
    "flip": _flip,  # top-bottom
    "rotate180": lambda g: _mirror(_flip(g)),
    "transpose": _transpose,  # the main diagonal (square boards)
    "antitranspose": lambda g: _mirror(_flip(_transpose(g))),
    "rotate90": lambda g: _mirror(_transpose(g)),  # clockwise
    "rotate270": lambda g: _flip(_transpose(g)),
}
"""Each non-identity symmetry of a board; the last four need a square board."""


def first_image(grid: Sequence[Sequence[Cell]], names: Sequence[str]
                ) -> tuple[str, Grid[Cell]] | None:
    """The first of the symmetries ``names`` that changes ``grid``, and its image (None when the
    board is symmetric under all of them)."""
    for name in names:
        image: Grid[Cell] = SYMMETRIES[name](grid)
        if image != _rows(grid):
            return name, image
    return None


def first_image_with_points(grid: Sequence[Sequence[Cell]], points: Sequence[Sequence[int]],
                            names: Sequence[str]
                            ) -> tuple[str, Grid[Cell], list[tuple[int, int]]] | None:
    """The first of the symmetries ``names`` that changes ``grid`` together with its cells
    ``points`` (a start and a goal, the moves made), the image of the board and of the points
    (None when every one of them leaves both as they are)."""
    rows, cols = len(grid), len(grid[0])
    asked = (_rows(grid), [(p[0], p[1]) for p in points])
    for name in names:
        image: Grid[Cell] = SYMMETRIES[name](grid)
        moved = [point_image(name, point, rows, cols) for point in asked[1]]
        if (image, moved) != asked:
            return name, image, moved
    return None


def point_image(name: str, point: tuple[int, int], rows: int, cols: int) -> tuple[int, int]:
    """Where the symmetry ``name`` takes the cell ``point`` = (row, column) of a ``rows`` x
    ``cols`` board (found by moving the board's own coordinates, so no formula can disagree
    with :data:`SYMMETRIES`)."""
    cells = tuple(tuple((r, c) for c in range(cols)) for r in range(rows))
    image = SYMMETRIES[name](cells)
    return next((r, c) for r, row in enumerate(image) for c, cell in enumerate(row)
                if cell == tuple(point))
