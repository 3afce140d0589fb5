"""The symmetries of a Stonehenge board that keep its rules: each relabelling of the cells that
takes every ley-line onto a ley-line. A line is won by holding at least half of its cells and
the game by owning at least half of the lines, so such a relabelling takes every game to a
game with the same captures, the same winner and the same values; a visible scripted game asked
again under one (``mirror_of``) is a game as hard as the shown one, answered by the reference.
The board is no square, so :mod:`reference.core.symmetry` does not serve: the relabellings are
found by search over the cells (a board has 6, side 2 has 12).
"""
from __future__ import annotations

from functools import lru_cache

from assignments.stonehenge.rules import Move, Stonehenge


@lru_cache(maxsize=None)
def symmetries(side: int) -> tuple[dict[Move, Move], ...]:
    """Every relabelling of the side-``side`` board's cells that takes ley-lines to ley-lines,
    the identity first, as label -> label."""
    game = Stonehenge(side)
    lines = [frozenset(line.cells) for line in game.lines]
    cells = range(len(game.labels))
    degree = [sum(cell in line for line in lines) for cell in cells]
    found: list[dict[int, int]] = []

    def fits(image: dict[int, int]) -> bool:
        """Whether the cells placed so far of each line land in one line as long."""
        for line in lines:
            placed = {image[c] for c in line if c in image}
            if placed and not any(len(other) == len(line) and placed <= other
                                  for other in lines):
                return False
        return True

    def extend(image: dict[int, int]) -> None:
        cell = len(image)
        if cell == len(cells):
            found.append(dict(image))
            return
        for target in cells:
            if target not in image.values() and degree[target] == degree[cell]:
                image[cell] = target
                if fits(image):
                    extend(image)
                del image[cell]

    extend({})
    return tuple({game.labels[c]: game.labels[image[c]] for c in cells} for image in found)


def first_image(side: int, moves: str) -> tuple[int, str] | None:
    """The first symmetry (its number in :func:`symmetries`) that changes the game ``moves``
    (cell labels in order), and the game it gives; None when every one leaves it as it is."""
    for number, relabel in enumerate(symmetries(side)):
        image = "".join(relabel[move] for move in moves)
        if image != moves:
            return number, image
    return None


__all__ = ["first_image", "symmetries"]
