"""Hidden-case generators for ``get_best_move``: random boards, expected values from the oracle.

Run through ``gamegrader generate adversarial_search``; the seed is recorded in the spec.
"""
from __future__ import annotations

import random
from typing import Iterator, Sequence

from harness.spec import render_doctest
from reference.core.counters import Counter
from reference.core.symmetry import first_image
from reference.games.dominoes import Board, Dominoes, DominoesState
from reference.search.alphabeta import alphabeta_search


def best_move(board: Board, vertical: bool, limit: int) -> tuple[object, object, int]:
    """The handout's ``get_best_move`` tuple ``(move, value, leaves)`` from the oracle."""
    counter = Counter()
    move, value = alphabeta_search(Dominoes(), DominoesState(board, vertical), limit,
                                   counter=counter)
    return move, value, counter.leaves


def random_board(rng: random.Random, rows: int, cols: int, density: float) -> Board:
    return tuple(tuple(rng.random() < density for _ in range(cols)) for _ in range(rows))


def _board_literal(board: Board) -> str:
    return "[" + ", ".join("[" + ", ".join(str(s) for s in row) + "]" for row in board) + "]"


def best_move_cases(rng: random.Random, count: int, *, max_size: int = 6, max_limit: int = 5,
                    max_leaves: int = 4000, max_trivial: int = 3) -> Iterator[dict[str, object]]:
    """``count`` cases on random boards from 1x1 to ``max_size`` squared, both players, limits
    1 to ``max_limit``.

    Boards whose search exceeds ``max_leaves`` leaves are redrawn, so that every case stays fast
    for a correct student solution on half a CPU; at most ``max_trivial`` cases have a root
    where the player cannot move (a single leaf), so most cases exercise the search.
    """
    made = trivial = 0
    while made < count:
        rows, cols = rng.randint(1, max_size), rng.randint(1, max_size)
        density = rng.choice([0.0, 0.1, 0.2, 0.3, 0.45, 0.6])
        board = random_board(rng, rows, cols, density)
        vertical = rng.random() < 0.5
        limit = rng.randint(1, max_limit)
        expected = best_move(board, vertical, limit)
        if expected[2] > max_leaves or (expected[2] == 1 and trivial >= max_trivial):
            continue
        trivial += expected[2] == 1
        made += 1
        filled = sum(map(sum, board))
        who = "vertical" if vertical else "horizontal"
        yield {
            "name": f"#{made:02d} {rows}x{cols} board, {filled} filled, {who}, limit {limit}",
            "doctest": render_doctest([f"g = DominoesGame({_board_literal(board)})"],
                                      f"g.get_best_move({vertical}, {limit})", expected),
        }


def best_move_images(rng: random.Random, count: int, *, board: Sequence[str], vertical: bool,
                     limits: Sequence[int], mirror_of: str,
                     images: Sequence[str]) -> Iterator[dict[str, object]]:
    """The visible case ``mirror_of`` (its position: ``board`` as rows of ``.``/``X``, the player
    to move, the limits asked) asked again on the first image of ``images`` (names of
    :mod:`reference.core.symmetry`) that changes the board, answered by the oracle on the image.
    Only mirror, flip and rotate180 keep Dominoes' rules (each player's dominoes keep their
    orientation; a transpose would swap them). ``count`` must be 1.
    """
    if count != 1:
        raise ValueError("best_move_images asks one visible case again: count must be 1")
    found = first_image(tuple(tuple(cell == "X" for cell in row) for row in board), images)
    if found is None:
        raise ValueError(f"{mirror_of!r} is unchanged by every one of {list(images)}")
    name, image = found
    text = "".join(render_doctest([f"g = DominoesGame({_board_literal(image)})"] if i == 0 else [],
                                  f"g.get_best_move({vertical}, {limit})",
                                  best_move(image, vertical, limit))
                   for i, limit in enumerate(limits))
    yield {"name": f"{mirror_of} ({name} image)", "doctest": text, "mirror_of": mirror_of}
