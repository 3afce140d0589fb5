"""Test positions for grading: random reachable positions, stuck ones and forced ones.

Every position is reached from the opening by random legal moves, so it could occur in a real
game. Draws come from the ``random.Random`` passed in, so a generator's recorded seed fixes them.
"""
from __future__ import annotations

import random
from typing import Callable

from assignments.isolation.rules import Isolation, IsolationState, Player, Square, opponent


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


def region_of(game: Isolation, state: IsolationState, player: Player) -> set[Square]:
    """The empty squares ``player`` could ever reach: those joined to its square through empty
    squares side by side or corner to corner (a queen's move crosses only such squares; the
    other player's square stays closed, filled once it is left)."""
    start, other = state.square_of(player), state.square_of(opponent(player))
    found: set[Square] = set()
    todo = [start]
    while todo:
        row, col = todo.pop()
        for near in ((row + dr, col + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)):
            if (near in found or near in (start, other)
                    or not (1 <= near[0] <= game.size and 1 <= near[1] <= game.size)
                    or state.filled >> ((near[0] - 1) * game.size + near[1] - 1) & 1):
                continue
            found.add(near)
            todo.append(near)
    return found


def walled_apart(game: Isolation, state: IsolationState) -> bool:
    """Whether the players can no longer meet: their regions (``region_of``) share no square,
    so each plays on alone and the one with the longer path through its own region wins."""
    return not region_of(game, state, "x") & region_of(game, state, "o")


__all__ = ["draw_position", "random_playout", "region_of", "walled_apart"]
