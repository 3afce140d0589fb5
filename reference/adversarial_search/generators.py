"""Hidden-case generators for ``get_best_move``: random boards, expected values from the oracle.

Run through ``gamegrader generate adversarial_search``; the seed is recorded in the spec.
"""
from __future__ import annotations

import random
from typing import Iterator

from harness.spec import render_doctest
from reference.core.counters import Counter
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
