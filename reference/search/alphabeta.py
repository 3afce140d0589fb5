"""Depth-limited minimax and alpha-beta, written once for every two-player game of the project.

Russell & Norvig, *Artificial Intelligence: A Modern Approach* (4th ed., section 5.3, figure
5.7): nested MAX-VALUE and MIN-VALUE, the prune test ``v >= beta`` / ``v <= alpha`` right after
the bound update, and a cutoff test (terminal, or depth limit reached) where the evaluation is
applied. Written against :class:`reference.core.Game` only, so it knows no game's rules; what
assignments fix differently is a parameter or a convention here:

- ``player`` is always the maximising player, in min nodes as well. A max node expands the
  moves of the player to move when that is ``player``; a min node those of the opponent, and
  reports the opponent's chosen move with the value as seen by ``player`` (the Othello
  handout's node functions; Dominoes and Isolation only call max nodes at the root).
- ``limit`` is the remaining depth. Every recursive call passes ``limit - 1``; a node reached
  with ``limit == 0``, or a terminal one, is valued ``evaluate(state, player)``
  (``game.utility`` unless given). A negative limit never counts down to 0, so -1 means
  unlimited. Leaves return the move ``None``.
- Moves are visited in ``game.actions`` order (or the ``ordering``'s), and the best move is
  replaced only on a strict improvement, so the first best move wins.
- ``cache`` is a dict owned by the caller. Keys hold the node kind, the position, ``player``
  and the remaining limit; alpha-beta stores only values that are exact (strictly inside the
  window it was called with), so caching never changes a value.
- ``counter`` tallies expansions (positions whose successors were generated) and leaves
  (positions evaluated); it is passed in, never global.

- ``rules`` (:class:`SearchRules`) names each decision the alpha-beta search makes; its
  defaults are the textbook's. Feedback diagnoses (``assignments/adversarial_search/diagnoses.py``)
  replay a student's likely mistake by changing one rule, so the mistakes are variations of this
  one search rather than other searches.

Not for games with more than two players; each entry point checks the game's facts.
"""
from __future__ import annotations

import math
import operator
from dataclasses import dataclass
from typing import (
    Any,
    Callable,
    Hashable,
    Iterable,
    Literal,
    MutableMapping,
    NamedTuple,
    Optional,
    Sequence,
)

from reference.core.counters import Counter
from reference.core.protocols import Game, require_facts

AnyGame = Game[Any, Any]
"""Any game of the protocol: this module never looks inside states or moves."""

Evaluate = Callable[[Any, Any], float]
"""``evaluate(state, player)``: the value of a non-terminal position at the depth limit."""

Child = tuple[Hashable, Any]
"""A successor as ``(move, state)``."""

Ordering = Callable[[AnyGame, list[Child], Hashable, bool], list[Child]]
"""``ordering(game, children, player, maximizing)``: the children in the order to search them."""

Cache = MutableMapping[tuple[str, Hashable, Hashable, int], "NodeValue"]
"""Cache keys are ``(node kind, state, player, remaining limit)``."""


@dataclass(frozen=True)
class SearchRules:
    """The decisions of the alpha-beta search; the defaults are the textbook's.

    Attributes:
        extra_depth: plies searched beyond the ``limit`` an entry point is given (negative:
            stops early; an unlimited, negative limit stays unlimited).
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
        root_minimises: max and min swapped: a max node asked for is searched as a MIN node,
            and the other way round (the player to move stays the same).
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


class NodeValue(NamedTuple):
    """A node's answer, unpackable as the handout's ``(move, utility)`` pair.

    Attributes:
        move: the chosen move of the player to move at the node, or None at a leaf.
        value: the node's value for the maximising player.
    """

    move: Optional[Hashable]
    value: float


def handout_ordering(game: AnyGame, children: list[Child], player: Hashable,
                     maximizing: bool) -> list[Child]:
    """The handout's node ordering: highest ``game.utility(child, player)`` first, in max and
    min nodes alike; a stable sort, so ties keep the ``game.actions`` order. A new list."""
    return sorted(children, key=lambda child: game.utility(child[1], player), reverse=True)


def mover_ordering(game: AnyGame, children: list[Child], player: Hashable,
                   maximizing: bool) -> list[Child]:
    """Best-for-the-mover-first ordering: as :func:`handout_ordering` in max nodes, lowest
    utility for ``player`` first in min nodes. Stable; a new list."""
    return sorted(children, key=lambda child: game.utility(child[1], player),
                  reverse=maximizing)


class _Search:
    """One search's settings; the recursion lives here so public functions stay thin."""

    def __init__(self, game: AnyGame, player: Hashable, evaluate: Optional[Evaluate],
                 ordering: Optional[Ordering], cache: Optional[Cache],
                 counter: Optional[Counter], rules: SearchRules = TEXTBOOK) -> None:
        self.game = game
        self.player = player
        self.evaluate: Evaluate = evaluate if evaluate is not None else game.utility
        self.ordering = ordering
        self.cache = cache
        self.counter = counter if counter is not None else Counter()
        self.rules = rules
        keep_first = rules.keep_first_best
        self.improves_max = operator.gt if keep_first else operator.ge
        self.improves_min = operator.lt if keep_first else operator.le
        self.reaches_beta = operator.ge if rules.prune_on_ties else operator.gt
        self.reaches_alpha = operator.le if rules.prune_on_ties else operator.lt

    def evaluation(self, state: Any) -> float:
        """``evaluate`` from the viewpoint the rules give (the maximising player's by default)."""
        seen_by = self.rules.root_player_sees
        if seen_by == "mover":
            return self.evaluate(state, self.game.to_move(state))
        value = self.evaluate(state, self.player)
        return -value if seen_by == "opponent" else value  # zero-sum

    def leaf(self, state: Any, limit: int) -> Optional[NodeValue]:
        """The value of a depth-limit or terminal node, or None when the node must expand."""
        at_limit = limit == 0
        if not at_limit and not self.game.is_terminal(state):
            if self.rules.count_leaves == "every_node":
                self.counter.leaves += 1
            return None
        if self.rules.count_leaves != "depth_limit" or at_limit:
            self.counter.leaves += 1
        return NodeValue(None, self.evaluation(state))

    def children(self, state: Any, maximizing: bool, ordered: bool) -> Iterable[Child]:
        """The successors in the order to search them; built one at a time unless ordered."""
        self.counter.expansions += 1
        moves = list(self.game.actions(state))
        if self.rules.reorder is not None:
            moves = self.rules.reorder(moves)
        if ordered and self.ordering is not None:
            children = [(move, self.game.result(state, move)) for move in moves]
            return self.ordering(self.game, children, self.player, maximizing)
        return ((move, self.game.result(state, move)) for move in moves)

    def cached(self, kind: str, state: Any, limit: int) -> Optional[NodeValue]:
        if self.cache is None:
            return None
        return self.cache.get((kind, state, self.player, limit))

    def store(self, kind: str, state: Any, limit: int, answer: NodeValue) -> None:
        if self.cache is not None:
            self.cache[(kind, state, self.player, limit)] = answer

    def minimax(self, state: Any, limit: int, maximizing: bool) -> NodeValue:
        kind = "max" if maximizing else "min"
        hit = self.cached(kind, state, limit)
        if hit is not None:
            return hit
        answer = self.leaf(state, limit)
        if answer is None:
            best_move, best = None, -math.inf if maximizing else math.inf
            for move, child in self.children(state, maximizing, ordered=False):
                value = self.minimax(child, limit - 1, not maximizing).value
                if (self.improves_max if maximizing else self.improves_min)(value, best):
                    best_move, best = move, value
            answer = NodeValue(best_move, best)
        self.store(kind, state, limit, answer)
        return answer

    def root_limit(self, limit: int) -> int:
        """The limit a search asked for ``limit`` starts from (negative stays unlimited)."""
        return limit + self.rules.extra_depth if limit >= 0 else limit

    def root_minimax(self, state: Any, limit: int, maximizing: bool) -> NodeValue:
        """Minimax from a node the caller asked for, under the rules' root decisions."""
        return self.minimax(state, self.root_limit(limit), maximizing != self.rules.root_minimises)

    def root_alphabeta(self, state: Any, alpha: float, beta: float, limit: int,
                       maximizing: bool) -> NodeValue:
        """Alpha-beta from a node the caller asked for, under the rules' root decisions."""
        node = self.max_value if maximizing != self.rules.root_minimises else self.min_value
        return node(state, alpha, beta, self.root_limit(limit))

    def max_value(self, state: Any, alpha: float, beta: float, limit: int) -> NodeValue:
        """AIMA 4th ed., section 5.3, figure 5.7 (MAX-VALUE), with a depth limit and a cache."""
        hit = self.cached("max", state, limit)
        if hit is not None:
            return hit
        leaf = self.leaf(state, limit)
        if leaf is not None:
            self.store("max", state, limit, leaf)
            return leaf
        low, rules = alpha, self.rules
        move, v = None, -math.inf
        for a, child in self.children(state, maximizing=True, ordered=True):
            v2 = self.min_value(child, alpha, beta, limit - 1).value
            if self.improves_max(v2, v):
                move, v = a, v2
                alpha = max(alpha, v)
            if rules.prune and self.reaches_beta(v, alpha if rules.wrong_bound else beta):
                return NodeValue(move, v)
        if low < v < beta:
            self.store("max", state, limit, NodeValue(move, v))
        return NodeValue(move, v)

    def min_value(self, state: Any, alpha: float, beta: float, limit: int) -> NodeValue:
        """AIMA 4th ed., section 5.3, figure 5.7 (MIN-VALUE), with a depth limit and a cache."""
        hit = self.cached("min", state, limit)
        if hit is not None:
            return hit
        leaf = self.leaf(state, limit)
        if leaf is not None:
            self.store("min", state, limit, leaf)
            return leaf
        high, rules = beta, self.rules
        move, v = None, math.inf
        for a, child in self.children(state, maximizing=False, ordered=True):
            v2 = self.max_value(child, alpha, beta, limit - 1).value
            if self.improves_min(v2, v):
                move, v = a, v2
                beta = min(beta, v)
            if rules.prune and self.reaches_alpha(v, beta if rules.wrong_bound else alpha):
                return NodeValue(move, v)
        if alpha < v < high:
            self.store("min", state, limit, NodeValue(move, v))
        return NodeValue(move, v)


def _exact(game: AnyGame) -> AnyGame:
    """``game``, after checking it is a deterministic two-player zero-sum game (ValueError)."""
    require_facts(game, players=2, deterministic=True, zero_sum=True)
    return game


def minimax_max_node(game: AnyGame, state: Any, player: Hashable, limit: int, *,
                     evaluate: Optional[Evaluate] = None, cache: Optional[Cache] = None,
                     counter: Optional[Counter] = None, rules: SearchRules = TEXTBOOK) -> NodeValue:
    """Minimax value of ``state``, where ``player`` is to move and maximises.

    Args:
        game: the rules.
        state: a position with ``game.to_move(state) == player``.
        player: the maximising player.
        limit: remaining depth, negative for unlimited.
        evaluate: value at the depth limit; ``game.utility`` by default.
        cache: read and extended in place when given (see the module docstring).
        counter: incremented in place when given.
        rules: the search's decisions (the textbook's unless a mistake is being replayed).

    Returns:
        ``(first best move or None at a leaf, value for player)``.

    Raises:
        ValueError: when ``game`` is not a deterministic two-player zero-sum game.
    """
    search = _Search(_exact(game), player, evaluate, None, cache, counter, rules)
    return search.root_minimax(state, limit, True)


def minimax_min_node(game: AnyGame, state: Any, player: Hashable, limit: int, *,
                     evaluate: Optional[Evaluate] = None, cache: Optional[Cache] = None,
                     counter: Optional[Counter] = None, rules: SearchRules = TEXTBOOK) -> NodeValue:
    """Minimax value of ``state``, where the opponent of ``player`` is to move and minimises.

    Same arguments, return shape and errors as :func:`minimax_max_node`; the move returned is
    the opponent's first best (lowest-valued) move.
    """
    search = _Search(_exact(game), player, evaluate, None, cache, counter, rules)
    return search.root_minimax(state, limit, False)


def alphabeta_max_node(game: AnyGame, state: Any, player: Hashable, alpha: float, beta: float,
                       limit: int, *, evaluate: Optional[Evaluate] = None,
                       ordering: Optional[Ordering] = None, cache: Optional[Cache] = None,
                       counter: Optional[Counter] = None,
                       rules: SearchRules = TEXTBOOK) -> NodeValue:
    """Alpha-beta value of a max node (``player`` to move) within the window ``(alpha, beta)``.

    Arguments as :func:`minimax_max_node`, plus the window and an optional ``ordering`` (for
    example :func:`handout_ordering`) and ``rules``. With ``alpha=-inf, beta=inf`` and no ordering
    the move and value equal minimax's; a value at or outside the window is a bound, as in the
    textbook.
    """
    search = _Search(_exact(game), player, evaluate, ordering, cache, counter, rules)
    return search.root_alphabeta(state, alpha, beta, limit, True)


def alphabeta_min_node(game: AnyGame, state: Any, player: Hashable, alpha: float, beta: float,
                       limit: int, *, evaluate: Optional[Evaluate] = None,
                       ordering: Optional[Ordering] = None, cache: Optional[Cache] = None,
                       counter: Optional[Counter] = None,
                       rules: SearchRules = TEXTBOOK) -> NodeValue:
    """Alpha-beta value of a min node (the opponent of ``player`` to move); see
    :func:`alphabeta_max_node`."""
    search = _Search(_exact(game), player, evaluate, ordering, cache, counter, rules)
    return search.root_alphabeta(state, alpha, beta, limit, False)


def select_move_minimax(game: AnyGame, state: Any, limit: int,
                        **options: Any) -> Optional[Hashable]:
    """The first best move for the player to move, by minimax; None when there is no move.

    ``options`` are the keyword arguments of :func:`minimax_max_node`.
    """
    player = game.to_move(state)
    return minimax_max_node(game, state, player, limit, **options).move


def select_move_alphabeta(game: AnyGame, state: Any, limit: int,
                          **options: Any) -> Optional[Hashable]:
    """A best move for the player to move, by alpha-beta from the full window; None when there is
    no move. ``options`` are the keyword arguments of :func:`alphabeta_max_node`."""
    player = game.to_move(state)
    return alphabeta_max_node(game, state, player, -math.inf, math.inf, limit, **options).move


def limited_move_values(game: AnyGame, state: Any, player: Hashable, limit: int, *,
                evaluate: Optional[Evaluate] = None) -> list[tuple[Hashable, float]]:
    """Each legal move at ``state`` with its minimax value for ``player``.

    The value of a move is the minimax value of the resulting position searched with
    ``limit - 1``: exactly what the node at ``state`` (a max node when ``player`` is to move,
    else a min node) compares. In ``game.actions`` order; empty at a terminal position.
    """
    search = _Search(_exact(game), player, evaluate, None, {}, None)
    values = []
    for move in game.actions(state):
        child = game.result(state, move)
        # a full window makes alpha-beta's value exact, and much cheaper than plain minimax
        if game.to_move(state) == player:
            value = search.min_value(child, -math.inf, math.inf, limit - 1).value
        else:
            value = search.max_value(child, -math.inf, math.inf, limit - 1).value
        values.append((move, value))
    return values


def best_moves(values: Sequence[tuple[Hashable, float]], maximizing: bool = True) -> list[Hashable]:
    """The moves of ``values`` (from :func:`limited_move_values`) that reach the best value, in
    order.

    ``maximizing`` is True at a max node (highest value is best) and False at a min node.
    """
    if not values:
        return []
    pick = max if maximizing else min
    best = pick(value for _, value in values)
    return [move for move, value in values if value == best]


def alphabeta_search(game: AnyGame, state: Any, limit: int, *,
                     evaluate: Optional[Evaluate] = None, counter: Optional[Counter] = None,
                     rules: SearchRules = TEXTBOOK) -> tuple[Any, float]:
    """Best move for the player to move in ``state``, looking ``limit`` plies ahead (AIMA's
    ALPHA-BETA-SEARCH with a cutoff test): the root node of this module's search, full window.

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
    search = _Search(game, game.to_move(state), evaluate, None, None, counter, rules)
    answer = search.root_alphabeta(state, -math.inf, math.inf, limit, True)
    return answer.move, answer.value


__all__ = [
    "AnyGame", "Cache", "Child", "Evaluate", "NodeValue", "Ordering", "SearchRules", "TEXTBOOK",
    "alphabeta_max_node",
    "alphabeta_min_node", "alphabeta_search", "best_moves", "handout_ordering",
    "limited_move_values", "minimax_max_node", "minimax_min_node", "mover_ordering",
    "select_move_alphabeta", "select_move_minimax",
]
