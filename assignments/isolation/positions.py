"""Test positions for grading: random reachable positions, stuck ones and forced ones.

Every position is reached from the opening by random legal moves, so it could occur in a real
game. Draws come from the ``random.Random`` passed in, so a generator's recorded seed fixes them.
"""
from __future__ import annotations

import random
from typing import Callable

from assignments.isolation.rules import Isolation, IsolationState


def random_playout(game: Isolation, rng: random.Random) -> list[IsolationState]:
    """The positions of one game of random moves, opening first, ending where the mover is stuck."""
    states = [game.initial_state()]
    while True:
        moves = game.actions(states[-1])
        if not moves:
            return states
        states.append(game.result(states[-1], rng.choice(moves)))


def draw_position(game: Isolation, rng: random.Random,
                  accept: Callable[[IsolationState], bool], tries: int = 1000) -> IsolationState:
    """A random position from a random playout that ``accept`` takes.

    Raises:
        RuntimeError: when ``tries`` playouts hold no acceptable position.
    """
    for _ in range(tries):
        candidates = [s for s in random_playout(game, rng) if accept(s)]
        if candidates:
            return rng.choice(candidates)
    raise RuntimeError(f"no acceptable position in {tries} random playouts")


__all__ = ["draw_position", "random_playout"]
