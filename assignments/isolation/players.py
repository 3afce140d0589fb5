"""Trusted in-process Isolation players: the timed alpha-beta, and every house bot by name.

The random and greedy players are ``assignments.isolation.house_players`` (the student package
holds them); this module adds the search, which never ships. Each is an ``Agent`` for
``harness.games.seats.InProcess``: ``choose_move(state, time_left)`` returns a legal destination
for the player to move, or None when it has none. The student-API reference player is the
separate file ``assignments/isolation/solution/``.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from assignments.isolation.evaluation import MobilityEvaluation
from assignments.isolation.house_players import HOUSE_PLAYERS, house_player
from assignments.isolation.kit import SEARCHING_BOTS
from assignments.isolation.rules import Isolation, IsolationState, Move
from harness.games.seats import Agent
from reference.search.timed_alphabeta import timed_alphabeta_search


@dataclass(frozen=True)
class TimePolicy:
    """How much of its clock the alpha-beta player gives one move.

    ``budget = share * (time_left - reserve) / horizon``, with ``horizon = max(min_horizon,
    empty_squares // squares_per_move)``: the remaining clock split evenly among the moves the
    player still expects to make, as the handout suggests. With ``time_left <= reserve`` the
    player answers at once with its first legal move, so it never loses on time while the
    process round trip stays below ``reserve``.
    """

    share: float = 0.8
    reserve: float = 0.1
    min_horizon: int = 4
    squares_per_move: int = 4

    def budget(self, time_left: float, empty_squares: int) -> float:
        """Seconds for this move's search; 0.0 means answer immediately."""
        horizon = max(self.min_horizon, empty_squares // self.squares_per_move)
        return max(0.0, self.share * (time_left - self.reserve) / horizon)


@dataclass
class AlphaBetaPlayer:
    """Iterative-deepening alpha-beta under a chess clock; the reference player.

    Attributes:
        game: the rules.
        evaluate: position value for a player; default :class:`MobilityEvaluation`.
        policy: how much of the clock each move may use.
        max_depth: deepest iteration, or None. With ``timed=False`` the player searches exactly
            to this depth whatever its clock says, and so plays deterministically.
        timed: whether the clock limits the search.
        clock: the search's clock: the thread's CPU time, which is what its in-process seat
            is charged (``harness.games.seats.InProcess``); a fake in tests.
        seed: None to break ties between equally good moves by ``actions`` order; else the
            seed of the order the root's moves are tried in, so ties go a seeded way (each game
            of a graded series differs, and each replays the same from its seed).
    """

    game: Isolation
    evaluate: Optional[Callable[[IsolationState, str], float]] = None
    policy: TimePolicy = TimePolicy()
    max_depth: Optional[int] = None
    timed: bool = True
    clock: Callable[[], float] = time.thread_time
    seed: int | str | None = None
    _rng: Optional[random.Random] = field(init=False, repr=False, default=None)

    def __post_init__(self) -> None:
        """Raises ValueError for an untimed player without a depth limit."""
        if not self.timed and self.max_depth is None:
            raise ValueError("an untimed AlphaBetaPlayer needs a max_depth")
        self._rng = None if self.seed is None else random.Random(self.seed)

    def choose_move(self, state: IsolationState, time_left: float) -> Optional[Move]:
        """The best move found in this move's time budget, or None when there is no move."""
        moves = self.game.actions(state)
        if not moves:
            return None
        seconds = self.policy.budget(time_left, self.game.empty_count(state)) \
            if self.timed else float("inf")
        if seconds <= 0.0:
            return moves[0]
        evaluate = self.evaluate or MobilityEvaluation(self.game)
        if self._rng is not None:
            self._rng.shuffle(moves)
        result = timed_alphabeta_search(self.game, state, seconds, evaluate=evaluate,
                                        max_depth=self.max_depth, clock=self.clock,
                                        root_moves=moves)
        return result.move


HOUSE_BOTS = (*HOUSE_PLAYERS, "reference", *SEARCHING_BOTS)
"""Built-in players: seeded random, greedy one-ply with seeded ties, the timed alpha-beta
reference, and fixed-depth alpha-beta (clock ignored, seeded ties: deterministic per seed)."""


def house_agent(name: str, game: Isolation, seed: int | str) -> Agent[IsolationState, Move]:
    """A new built-in player ``name`` (one of :data:`HOUSE_BOTS`) seeded by ``seed``.

    Raises:
        ValueError: for an unknown name, listing the known ones.
    """
    if name in HOUSE_PLAYERS:
        return house_player(name, game, seed)
    if name == "reference":
        return AlphaBetaPlayer(game)
    if name in SEARCHING_BOTS:
        return AlphaBetaPlayer(game, max_depth=int(name[len("depth"):]), timed=False, seed=seed)
    raise ValueError(f"unknown house bot {name!r}; known: {', '.join(HOUSE_BOTS)}")


def house_bot(kit: Any, name: str, seed: int | str) -> Agent[IsolationState, Move]:
    """The game kit's factory of every built-in player (``assignments.isolation.kit``): ``name``
    on the kit's board size."""
    return house_agent(name, Isolation(kit.size), seed)


__all__ = ["AlphaBetaPlayer", "HOUSE_BOTS", "TimePolicy", "house_agent", "house_bot"]
