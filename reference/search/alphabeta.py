"""Depth-limited alpha-beta search, shaped like the textbook's ALPHA-BETA-SEARCH.

Russell & Norvig, *Artificial Intelligence: A Modern Approach*, section "Optimal Decisions in
Games" (alpha-beta pruning, figure "The alpha-beta search algorithm"): nested MAX-VALUE and
MIN-VALUE, the prune test ``v >= beta`` / ``v <= alpha`` right after the bound update, and a
cutoff test (terminal, or depth limit reached) where the evaluation is applied. Works for any
two-player zero-sum game of ``reference.core.protocols.Game``; knows nothing about a particular
game. Moves are tried in ``game.actions`` order; the first best move is kept (strict ``>``/``<``).
"""
from __future__ import annotations

import math
from typing import Any, Callable

from reference.core.counters import Counter
from reference.core.protocols import Game, require_facts


def alphabeta_search(game: Game[Any, Any], state: Any, limit: int, *,
                     evaluate: Callable[[Any, Any], float] | None = None,
                     counter: Counter | None = None) -> tuple[Any, float]:
    """Best move for the player to move in ``state``, looking ``limit`` plies ahead.

    Args:
        game: a two-player zero-sum game.
        state: the position to search (not changed).
        limit: plies to look ahead; positions at depth ``limit`` are evaluated.
        evaluate: value of a position to the root player; defaults to ``game.utility``.
        counter: receives one ``leaves`` per evaluated position and one ``expansions`` per
            position whose moves were generated.

    Returns:
        ``(move, value)``; the move is None when the root itself is a cutoff position.

    Raises:
        ValueError: the game is not a two-player zero-sum game.
    """
    require_facts(game, players=2, zero_sum=True)
    player = game.to_move(state)
    score = evaluate or game.utility
    tally = counter if counter is not None else Counter()

    def cutoff(position: Any, depth: int) -> bool:
        return depth == 0 or game.is_terminal(position)

    def max_value(position: Any, alpha: float, beta: float, depth: int) -> tuple[float, Any]:
        if cutoff(position, depth):
            tally.leaves += 1
            return score(position, player), None
        tally.expansions += 1
        value, best = -math.inf, None
        for move in game.actions(position):
            child_value, _ = min_value(game.result(position, move), alpha, beta, depth - 1)
            if child_value > value:
                value, best = child_value, move
                alpha = max(alpha, value)
            if value >= beta:
                return value, best
        return value, best

    def min_value(position: Any, alpha: float, beta: float, depth: int) -> tuple[float, Any]:
        if cutoff(position, depth):
            tally.leaves += 1
            return score(position, player), None
        tally.expansions += 1
        value, best = math.inf, None
        for move in game.actions(position):
            child_value, _ = max_value(game.result(position, move), alpha, beta, depth - 1)
            if child_value < value:
                value, best = child_value, move
                beta = min(beta, value)
            if value <= alpha:
                return value, best
        return value, best

    value, move = max_value(state, -math.inf, math.inf, limit)
    return move, value
