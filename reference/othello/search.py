"""Depth-limited minimax and alpha-beta with the Othello handout's node functions.

Written against :class:`reference.core.Game` only, so it knows no Othello rule; the handout's
semantics (``shared/notes/othello.md`` section 7) are parameters and conventions here:

- ``player`` is always the maximising player, in min nodes as well. A max node expands the
  moves of the player to move when that is ``player``; a min node those of the opponent, and
  reports the opponent's chosen move with the value as seen by ``player``.
- ``limit`` is the remaining depth. Every recursive call passes ``limit - 1``; a node reached
  with ``limit == 0`` is valued ``evaluate(state, player)``. A negative limit never counts down
  to 0, so -1 means unlimited.
- A terminal node is valued ``game.utility(state, player)``. Leaves return the move ``None``.
- Moves are visited in ``game.actions`` order (or the ``ordering``'s), and the best move is
  replaced only on a strict improvement, so the first best move wins.
- ``cache`` is a dict owned by the caller (the student's module-level dict). Keys hold the node
  kind, the position, ``player`` and the remaining limit; alpha-beta stores only values that
  are exact (strictly inside the window it was called with), so caching never changes a value.
- ``counter`` tallies expansions and leaves; it is passed in, never global.

Not for games with chance or more than two players: each entry point checks the game's facts.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Hashable, MutableMapping, NamedTuple, Optional, Sequence

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
                 counter: Optional[Counter]) -> None:
        require_facts(game, players=2, deterministic=True, zero_sum=True)
        self.game = game
        self.player = player
        self.evaluate: Evaluate = evaluate if evaluate is not None else game.utility
        self.ordering = ordering
        self.cache = cache
        self.counter = counter if counter is not None else Counter()

    def leaf(self, state: Any, limit: int) -> Optional[NodeValue]:
        """The value of a depth-limit or terminal node, or None when the node must expand."""
        if limit == 0:
            self.counter.leaves += 1
            return NodeValue(None, self.evaluate(state, self.player))
        if self.game.is_terminal(state):
            self.counter.leaves += 1
            return NodeValue(None, self.game.utility(state, self.player))
        return None

    def children(self, state: Any, maximizing: bool, ordered: bool) -> list[Child]:
        self.counter.expansions += 1
        children = [(move, self.game.result(state, move)) for move in self.game.actions(state)]
        if ordered and self.ordering is not None:
            return self.ordering(self.game, children, self.player, maximizing)
        return children

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
                if (value > best) if maximizing else (value < best):
                    best_move, best = move, value
            answer = NodeValue(best_move, best)
        self.store(kind, state, limit, answer)
        return answer

    def max_value(self, state: Any, alpha: float, beta: float, limit: int) -> NodeValue:
        """AIMA 4th ed., section 5.3, figure 5.7 (MAX-VALUE), with a depth limit and a cache."""
        hit = self.cached("max", state, limit)
        if hit is not None:
            return hit
        leaf = self.leaf(state, limit)
        if leaf is not None:
            self.store("max", state, limit, leaf)
            return leaf
        low = alpha
        move, v = None, -math.inf
        for a, child in self.children(state, maximizing=True, ordered=True):
            v2 = self.min_value(child, alpha, beta, limit - 1).value
            if v2 > v:
                move, v = a, v2
                alpha = max(alpha, v)
            if v >= beta:
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
        high = beta
        move, v = None, math.inf
        for a, child in self.children(state, maximizing=False, ordered=True):
            v2 = self.max_value(child, alpha, beta, limit - 1).value
            if v2 < v:
                move, v = a, v2
                beta = min(beta, v)
            if v <= alpha:
                return NodeValue(move, v)
        if alpha < v < high:
            self.store("min", state, limit, NodeValue(move, v))
        return NodeValue(move, v)


def minimax_max_node(game: AnyGame, state: Any, player: Hashable, limit: int, *,
                     evaluate: Optional[Evaluate] = None, cache: Optional[Cache] = None,
                     counter: Optional[Counter] = None) -> NodeValue:
    """Minimax value of ``state``, where ``player`` is to move and maximises.

    Args:
        game: the rules.
        state: a position with ``game.to_move(state) == player``.
        player: the maximising player.
        limit: remaining depth, negative for unlimited.
        evaluate: value at the depth limit; ``game.utility`` by default.
        cache: read and extended in place when given (see the module docstring).
        counter: incremented in place when given.

    Returns:
        ``(first best move or None at a leaf, value for player)``.

    Raises:
        ValueError: when ``game`` is not a deterministic two-player zero-sum game.
    """
    return _Search(game, player, evaluate, None, cache, counter).minimax(state, limit, True)


def minimax_min_node(game: AnyGame, state: Any, player: Hashable, limit: int, *,
                     evaluate: Optional[Evaluate] = None, cache: Optional[Cache] = None,
                     counter: Optional[Counter] = None) -> NodeValue:
    """Minimax value of ``state``, where the opponent of ``player`` is to move and minimises.

    Same arguments, return shape and errors as :func:`minimax_max_node`; the move returned is
    the opponent's first best (lowest-valued) move.
    """
    return _Search(game, player, evaluate, None, cache, counter).minimax(state, limit, False)


def alphabeta_max_node(game: AnyGame, state: Any, player: Hashable, alpha: float, beta: float,
                       limit: int, *, evaluate: Optional[Evaluate] = None,
                       ordering: Optional[Ordering] = None, cache: Optional[Cache] = None,
                       counter: Optional[Counter] = None) -> NodeValue:
    """Alpha-beta value of a max node (``player`` to move) within the window ``(alpha, beta)``.

    Arguments as :func:`minimax_max_node`, plus the window and an optional ``ordering`` (for
    example :func:`handout_ordering`). With ``alpha=-inf, beta=inf`` and no ordering the move and
    value equal minimax's; a value at or outside the window is a bound, as in the textbook.
    """
    search = _Search(game, player, evaluate, ordering, cache, counter)
    return search.max_value(state, alpha, beta, limit)


def alphabeta_min_node(game: AnyGame, state: Any, player: Hashable, alpha: float, beta: float,
                       limit: int, *, evaluate: Optional[Evaluate] = None,
                       ordering: Optional[Ordering] = None, cache: Optional[Cache] = None,
                       counter: Optional[Counter] = None) -> NodeValue:
    """Alpha-beta value of a min node (the opponent of ``player`` to move); see
    :func:`alphabeta_max_node`."""
    search = _Search(game, player, evaluate, ordering, cache, counter)
    return search.min_value(state, alpha, beta, limit)


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


def move_values(game: AnyGame, state: Any, player: Hashable, limit: int, *,
                evaluate: Optional[Evaluate] = None) -> list[tuple[Hashable, float]]:
    """Each legal move at ``state`` with its minimax value for ``player``.

    The value of a move is the minimax value of the resulting position searched with
    ``limit - 1``: exactly what the node at ``state`` (a max node when ``player`` is to move,
    else a min node) compares. In ``game.actions`` order; empty at a terminal position.
    """
    search = _Search(game, player, evaluate, None, {}, None)
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
    """The moves of ``values`` (from :func:`move_values`) that reach the best value, in order.

    ``maximizing`` is True at a max node (highest value is best) and False at a min node.
    """
    if not values:
        return []
    pick = max if maximizing else min
    best = pick(value for _, value in values)
    return [move for move, value in values if value == best]


__all__ = [
    "AnyGame", "Cache", "Child", "Evaluate", "NodeValue", "Ordering", "alphabeta_max_node",
    "alphabeta_min_node", "best_moves", "handout_ordering", "minimax_max_node",
    "minimax_min_node", "mover_ordering", "move_values", "select_move_alphabeta",
    "select_move_minimax",
]
