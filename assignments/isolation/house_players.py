"""The house players the graded games use: random, and greedy one-ply.

Each is an ``Agent`` for ``harness.games.seats.InProcess``: ``choose_move(state, time_left)``
returns a legal destination for the player to move, or None when it has none. They work on
:class:`assignments.isolation.rules.IsolationState` and never change it. They need the rules
alone, no search, so the student package holds them (its ``games`` role) and plays
the visible games against them as Gradescope does. Only methods are named ``choose_move``: this
module handed in as a student's player has no ``choose_move`` function and earns nothing.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Optional

from assignments.isolation.rules import Isolation, IsolationState, Move, opponent


@dataclass
class RandomPlayer:
    """Picks a legal move uniformly at random; reproducible from ``seed``.

    Attributes:
        game: the rules.
        seed: seeds the player's own ``random.Random`` (ints and strings are stable across runs).
    """

    game: Isolation
    seed: int | str = 0
    _rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def choose_move(self, state: IsolationState, time_left: float) -> Optional[Move]:
        """A random legal move, or None when there is none."""
        moves = self.game.actions(state)
        return self._rng.choice(moves) if moves else None


@dataclass
class GreedyPlayer:
    """One-ply lookahead: the move that leaves the best ``mine - theirs`` mobility.

    A move that leaves the opponent without a move wins at once and is taken first. Ties go to
    the first such move in ``actions`` order, or to a seeded random one when ``seed`` is given.

    Attributes:
        game: the rules.
        seed: None for deterministic first-best ties, else the seed of the tie-breaking RNG.
    """

    game: Isolation
    seed: int | str | None = None
    _rng: Optional[random.Random] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._rng = None if self.seed is None else random.Random(self.seed)

    def score(self, state: IsolationState, move: Move) -> float:
        """Mobility difference for the mover after ``move`` (infinite when it wins at once)."""
        me = state.to_move
        after = self.game.result(state, move)
        theirs = self.game.mobility(after, opponent(me))
        if theirs == 0:
            return float("inf")
        return self.game.mobility(after, me) - theirs

    def choose_move(self, state: IsolationState, time_left: float) -> Optional[Move]:
        """The best one-ply move, or None when there is none."""
        moves = self.game.actions(state)
        if not moves:
            return None
        scores = [self.score(state, move) for move in moves]
        best = [move for move, value in zip(moves, scores) if value == max(scores)]
        return self._rng.choice(best) if self._rng is not None else best[0]


HOUSE_PLAYERS = ("random", "greedy")
"""The house players of this module, by the names specs and tournaments use."""


def house_player(name: str, game: Isolation, seed: int | str) -> RandomPlayer | GreedyPlayer:
    """A new house player ``name`` (one of :data:`HOUSE_PLAYERS`) seeded by ``seed``: the random
    player's moves, or the greedy player's tie-breaks.

    Raises:
        ValueError: for another name, listing the known ones.
    """
    if name == "random":
        return RandomPlayer(game, seed)
    if name == "greedy":
        return GreedyPlayer(game, seed)
    raise ValueError(f"unknown house player {name!r}; known: {', '.join(HOUSE_PLAYERS)}")


def house_bot(kit: Any, name: str, seed: int | str) -> RandomPlayer | GreedyPlayer:
    """The game kit's factory of these players (``assignments.isolation.kit``): ``name`` on the
    kit's board size."""
    return house_player(name, Isolation(kit.size), seed)


__all__ = ["GreedyPlayer", "HOUSE_PLAYERS", "RandomPlayer", "house_bot", "house_player"]
