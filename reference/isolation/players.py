"""Trusted in-process Isolation players: random, greedy one-ply, and timed alpha-beta.

Each is an ``Agent`` for ``harness.games.seats.InProcess``: ``choose_move(state,
time_left)`` returns a legal destination for the player to move, or None when it has none. They
work on :class:`reference.games.isolation.IsolationState` and never change it. The student-API
reference player is the separate file ``reference/solutions/isolation/``.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

from reference.games.isolation import Isolation, IsolationState, Move, opponent
from reference.isolation.evaluation import MobilityEvaluation
from reference.search.timed_alphabeta import timed_alphabeta_search


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
        clock: monotonic seconds, for tests.
    """

    game: Isolation
    evaluate: Optional[Callable[[IsolationState, str], float]] = None
    policy: TimePolicy = TimePolicy()
    max_depth: Optional[int] = None
    timed: bool = True
    clock: Callable[[], float] = time.perf_counter

    def __post_init__(self) -> None:
        """Raises ValueError for an untimed player without a depth limit."""
        if not self.timed and self.max_depth is None:
            raise ValueError("an untimed AlphaBetaPlayer needs a max_depth")

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
        result = timed_alphabeta_search(self.game, state, seconds, evaluate=evaluate,
                                        max_depth=self.max_depth, clock=self.clock)
        return result.move


__all__ = ["AlphaBetaPlayer", "GreedyPlayer", "RandomPlayer", "TimePolicy"]
