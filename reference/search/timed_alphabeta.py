"""Time-managed iterative-deepening alpha-beta for any two-player zero-sum deterministic game.

Heuristic alpha-beta as in AIMA (4th ed.), Sec. 5.3 "Heuristic Alpha-Beta Tree Search": the
depth-limited ALPHA-BETA-SEARCH of ``reference.search.alphabeta`` run with depth 1, 2, 3, ...
until the time budget is spent ("iterative deepening ... when time runs out, the program returns
the move selected by the deepest completed search", Sec. 5.3.2). Each iteration searches the
previous iteration's best move first (Sec. 5.2.4, move ordering). The deadline is checked at
every evaluated position; a search interrupted by it is discarded whole.

Written against :class:`reference.core.Game` only; it knows no particular game. The clock is a
parameter so that tests can drive it.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, Generic, Hashable, Optional, Sequence, TypeVar

from reference.core.counters import Counter
from reference.core.protocols import Game, GameFacts, Player, require_facts
from reference.search.alphabeta import alphabeta_search

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)

Evaluation = Callable[[S, Any], float]
"""``evaluate(state, player)``: the value of ``state`` to ``player``. At terminal states it must
agree in sign with the game's utility (AIMA's EVAL equals UTILITY there)."""


@dataclass(frozen=True)
class TimedSearchResult(Generic[M]):
    """What a timed search found.

    Attributes:
        move: the best move of the deepest completed iteration; before any iteration completed,
            the first legal move; None only when the root has no legal move.
        value: its backed-up value for the player to move at the root (0.0 before any iteration).
        depth: the deepest iteration that completed (0 when none did).
        complete: True when that iteration reached no depth cutoff, so the value is exact.
    """

    move: Optional[M]
    value: float
    depth: int
    complete: bool


class _OutOfTime(Exception):
    """Raised inside an iteration when the deadline passes; never leaves this module."""


def timed_alphabeta_search(
    game: Game[S, M],
    state: S,
    seconds: float,
    *,
    evaluate: Evaluation[S] | None = None,
    max_depth: int | None = None,
    clock: Callable[[], float] = time.perf_counter,
    counter: Counter | None = None,
    root_moves: Sequence[M] | None = None,
) -> TimedSearchResult[M]:
    """Iterative-deepening alpha-beta that returns within about ``seconds``.

    Args:
        game: a two-player, zero-sum, deterministic game.
        state: the root position; not changed.
        seconds: the time budget from the call. No iteration starts after half of it has gone,
            and a running iteration is abandoned at the deadline (checked at every evaluated
            position), so the overshoot is the work between two evaluations.
        evaluate: value of a position to a player, used at the depth cutoff and at terminal
            positions; defaults to ``game.utility``.
        max_depth: deepest iteration to run; None for no limit other than the game's end.
        clock: seconds from an arbitrary origin, monotonic.
        counter: if given, leaves and expansions of every iteration are added to it.
        root_moves: the root's legal moves in the order to try them (so to break ties);
            default ``game.actions`` order.

    Returns:
        A :class:`TimedSearchResult`. Root moves are tried in ``root_moves`` order, with the
        previous iteration's best move first; ties keep the first best move (strict improvement
        only).

    Raises:
        ValueError: when ``game`` lacks one of the facts above.
    """
    require_facts(game, players=2, zero_sum=True, deterministic=True)
    deadline = clock() + seconds
    start = clock()
    evaluate = evaluate or game.utility
    counter = counter if counter is not None else Counter()
    moves = list(game.actions(state) if root_moves is None else root_moves)
    if not moves:
        return TimedSearchResult(None, 0.0, 0, True)
    best = TimedSearchResult(moves[0], 0.0, 0, False)
    depth = 0
    while max_depth is None or depth < max_depth:
        depth += 1
        iteration = _Iteration(game, state, _best_first(moves, best.move), evaluate, deadline,
                               clock)
        try:
            move, value = alphabeta_search(iteration, state, depth,
                                           evaluate=iteration.evaluate, counter=counter)
        except _OutOfTime:
            break
        best = TimedSearchResult(move, value, depth, not iteration.cut_off)
        if best.complete or clock() - start > seconds / 2:
            break
    return best


class _Iteration(Generic[S, M]):
    """One depth-limited search: the game with the root's moves reordered, and a timed EVAL.

    Acts as the game for ``alphabeta_search``: ``actions`` at the root returns ``root_moves``,
    and every evaluation first checks the deadline and notes whether it was a depth cutoff.
    """

    def __init__(self, game: Game[S, M], root: S, root_moves: Sequence[M],
                 evaluate: Evaluation[S], deadline: float, clock: Callable[[], float]) -> None:
        self.game = game
        self.facts: GameFacts = game.facts
        self.root = root
        self.root_moves = list(root_moves)
        self._evaluate = evaluate
        self.deadline = deadline
        self.clock = clock
        self.cut_off = False

    def initial_state(self, *args: Any, **kwargs: Any) -> S:
        return self.game.initial_state(*args, **kwargs)

    def to_move(self, state: S) -> Player:
        return self.game.to_move(state)

    def actions(self, state: S) -> Sequence[M]:
        return self.root_moves if state is self.root else self.game.actions(state)

    def result(self, state: S, move: M) -> S:
        return self.game.result(state, move)

    def is_terminal(self, state: S) -> bool:
        return self.game.is_terminal(state)

    def utility(self, state: S, player: Player) -> float:
        return self.game.utility(state, player)

    def evaluate(self, state: S, player: Player) -> float:
        """EVAL, after the clock check; notes a cutoff at a non-terminal position."""
        if self.clock() >= self.deadline:
            raise _OutOfTime
        if not self.cut_off and not self.game.is_terminal(state):
            self.cut_off = True
        return self._evaluate(state, player)


def _best_first(moves: Sequence[M], first: M | None) -> list[M]:
    """``moves`` with ``first`` moved to the front (the rest keep their order)."""
    if first is None or first not in moves:
        return list(moves)
    return [first] + [m for m in moves if m != first]


__all__ = ["Evaluation", "TimedSearchResult", "timed_alphabeta_search"]
