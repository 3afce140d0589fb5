"""Depth-limited alpha-beta search, shaped like the textbook's ALPHA-BETA-SEARCH.

Russell & Norvig, *Artificial Intelligence: A Modern Approach*, section "Optimal Decisions in
Games" (alpha-beta pruning, figure "The alpha-beta search algorithm"): nested MAX-VALUE and
MIN-VALUE, the prune test ``v >= beta`` / ``v <= alpha`` right after the bound update, and a
cutoff test (terminal, or depth limit reached) where the evaluation is applied. Works for any
two-player zero-sum game of ``reference.core.protocols.Game``; knows nothing about a particular
game. Moves are tried in ``game.actions`` order; the first best move is kept (strict ``>``/``<``).

``SearchRules`` names each decision the search makes; its defaults are the textbook's. Feedback
diagnoses (``reference/diagnoses.py``) replay a student's likely mistake by changing one rule,
so the mistakes are variations of this one search rather than other searches.
"""
from __future__ import annotations

import math
import operator
from dataclasses import dataclass
from typing import Any, Callable, Literal

from reference.core.counters import Counter
from reference.core.protocols import Game, require_facts


@dataclass(frozen=True)
class SearchRules:
    """The decisions of the search; the defaults are the textbook's.

    Attributes:
        extra_depth: plies searched beyond ``limit`` (negative: stops early).
        prune: whether to prune at all (False: plain minimax, every position visited).
        prune_on_ties: prune when the value reaches the bound (``>=``); False prunes only past
            it (``>``).
        wrong_bound: a max node tests against alpha and a min node against beta.
        keep_first_best: a later move replaces the best only when strictly better; False lets
            ties go to the later move.
        count_leaves: which positions are counted: every cutoff position ("cutoff"), only
            those at the depth limit ("depth_limit": finished games forgotten), or every
            position visited ("every_node").
        root_player_sees: whose view the evaluation takes: the root player's ("root"), the
            opponent's ("opponent"), or the player to move at the leaf ("mover").
        root_minimises: the root is a MIN node (max and min swapped).
        reorder: moves are tried in the order this gives (default: ``game.actions`` order).
    """

    extra_depth: int = 0
    prune: bool = True
    prune_on_ties: bool = True
    wrong_bound: bool = False
    keep_first_best: bool = True
    count_leaves: Literal["cutoff", "depth_limit", "every_node"] = "cutoff"
    root_player_sees: Literal["root", "opponent", "mover"] = "root"
    root_minimises: bool = False
    reorder: Callable[[list[Any]], list[Any]] | None = None


TEXTBOOK = SearchRules()


def alphabeta_search(game: Game[Any, Any], state: Any, limit: int, *,
                     evaluate: Callable[[Any, Any], float] | None = None,
                     counter: Counter | None = None,
                     rules: SearchRules = TEXTBOOK) -> tuple[Any, float]:
    """Best move for the player to move in ``state``, looking ``limit`` plies ahead.

    Args:
        game: a two-player zero-sum game.
        state: the position to search (not changed).
        limit: plies to look ahead; positions at depth ``limit`` are evaluated.
        evaluate: value of a position to the root player; defaults to ``game.utility``.
        counter: receives one ``leaves`` per evaluated position and one ``expansions`` per
            position whose moves were generated.
        rules: the search's decisions (the textbook's unless a mistake is being replayed).

    Returns:
        ``(move, value)``; the move is None when the root itself is a cutoff position.

    Raises:
        ValueError: the game is not a two-player zero-sum game.
    """
    require_facts(game, players=2, zero_sum=True)
    player = game.to_move(state)
    score = evaluate or game.utility
    tally = counter if counter is not None else Counter()
    improves_max = operator.gt if rules.keep_first_best else operator.ge
    improves_min = operator.lt if rules.keep_first_best else operator.le
    reaches_beta = operator.ge if rules.prune_on_ties else operator.gt
    reaches_alpha = operator.le if rules.prune_on_ties else operator.lt

    def evaluation(position: Any) -> float:
        if rules.root_player_sees == "mover":
            return score(position, game.to_move(position))
        value = score(position, player)
        return -value if rules.root_player_sees == "opponent" else value  # zero-sum

    def moves(position: Any) -> list[Any]:
        found = list(game.actions(position))
        return rules.reorder(found) if rules.reorder else found

    def cutoff(position: Any, depth: int) -> float | None:
        """The position's value if the search stops here, else None (counting as the rules
        say)."""
        at_limit = depth == 0
        if not at_limit and not game.is_terminal(position):
            if rules.count_leaves == "every_node":
                tally.leaves += 1
            return None
        if rules.count_leaves != "depth_limit" or at_limit:
            tally.leaves += 1
        return evaluation(position)

    def max_value(position: Any, alpha: float, beta: float, depth: int) -> tuple[float, Any]:
        stop = cutoff(position, depth)
        if stop is not None:
            return stop, None
        tally.expansions += 1
        value, best = -math.inf, None
        for move in moves(position):
            child_value, _ = min_value(game.result(position, move), alpha, beta, depth - 1)
            if improves_max(child_value, value):
                value, best = child_value, move
                alpha = max(alpha, value)
            bound = alpha if rules.wrong_bound else beta
            if rules.prune and reaches_beta(value, bound):
                return value, best
        return value, best

    def min_value(position: Any, alpha: float, beta: float, depth: int) -> tuple[float, Any]:
        stop = cutoff(position, depth)
        if stop is not None:
            return stop, None
        tally.expansions += 1
        value, best = math.inf, None
        for move in moves(position):
            child_value, _ = max_value(game.result(position, move), alpha, beta, depth - 1)
            if improves_min(child_value, value):
                value, best = child_value, move
                beta = min(beta, value)
            bound = beta if rules.wrong_bound else alpha
            if rules.prune and reaches_alpha(value, bound):
                return value, best
        return value, best

    root = min_value if rules.root_minimises else max_value
    value, move = root(state, -math.inf, math.inf, limit + rules.extra_depth)
    return move, value
