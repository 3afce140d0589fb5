"""Exhaustive minimax (AIMA 3rd ed., Section 5.2, Figure 5.3), recursive and with an explicit stack.

Written against ``reference.core.Game`` only; it knows nothing about any particular game. It
solves finite, acyclic, deterministic two-player zero-sum games to the end (no depth limit, no
evaluation function): values are ``game.utility`` at terminal positions. Positions are hashable,
so values are cached per position within one call (a transposition table that lives only for
that call). For depth-limited or alpha-beta search use the modules made for those.

Both versions visit the moves in ``game.actions`` order and agree on every value; a decision is
the first move (in that order) of highest value.

>>> from reference.games.subtract_square import SubtractSquare
>>> game = SubtractSquare()
>>> move_values(game, game.initial_state(8))
((1, 1), (4, -1))
>>> nine = game.initial_state(9)
>>> minimax_decision(game, nine), iterative_minimax_decision(game, nine)
(4, 4)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, Optional

from reference.core.counters import Counter
from reference.core.protocols import Game, Move, Player, State, require_facts

MoveValues = tuple[tuple[Move, float], ...]
"""Each legal move with its minimax value for the player to move, in ``game.actions`` order."""


def _check_game(game: Game[State, Move]) -> None:
    """Refuse games this algorithm cannot solve (ValueError naming the fact)."""
    require_facts(game, players=2, deterministic=True, zero_sum=True)


def _count(counter: Counter | None, *, leaf: bool) -> None:
    """Record one terminal position (``leaf``) or one expansion in ``counter``, if given."""
    if counter is None:
        return
    if leaf:
        counter.leaves += 1
    else:
        counter.expansions += 1


def minimax_value(game: Game[State, Move], state: State, player: Player,
                  counter: Counter | None = None) -> float:
    """The minimax value of ``state`` for ``player``, by recursion on the positions.

    Max nodes are the positions where ``player`` moves, min nodes the others (so turns need not
    alternate). Recursion depth is the length of the longest game from ``state``.

    Args:
        game: a finite two-player zero-sum game; only read.
        state: the position; not changed.
        player: the player whose value is computed.
        counter: if given, counts distinct terminal positions (``leaves``) and expansions.

    Returns:
        ``game.utility`` of the terminal position reached under optimal play, for ``player``.

    Raises:
        ValueError: if ``game`` does not declare two players, determinism and zero sum.
    """
    _check_game(game)
    memo: dict[State, float] = {}

    def value(position: State) -> float:
        if position in memo:
            return memo[position]
        if game.is_terminal(position):
            _count(counter, leaf=True)
            result = game.utility(position, player)
        else:
            _count(counter, leaf=False)
            values = [value(game.result(position, move)) for move in game.actions(position)]
            result = max(values) if game.to_move(position) == player else min(values)
        memo[position] = result
        return result

    return value(state)


class OutOfBudget(Exception):
    """:func:`bounded_value` met more positions than it may expand."""


def bounded_value(game: Game[State, Move], state: State, player: Player,
                  budget: int) -> float | None:
    """The minimax value of ``state`` for ``player``, or None if proving it needs more than
    ``budget`` expansions. For games whose utilities lie in [-1, 1]: a max node stops at its
    first move worth 1, a min node at its first worth -1, so won and lost positions are proved
    with far less work than :func:`minimax_value` spends. Used where an answer must be checked
    against the true value when it can be known (a rough estimate of +-1), and left open when not.
    """
    _check_game(game)
    memo: dict[State, float] = {}
    spent = 0
    # Bound once: a proof meets up to a million positions (Stonehenge's generator).
    is_terminal, utility, to_move, actions, result = (
        game.is_terminal, game.utility, game.to_move, game.actions, game.result)

    def value(position: State) -> float:
        nonlocal spent
        known = memo.get(position)
        if known is not None:
            return known
        if is_terminal(position):
            memo[position] = known = utility(position, player)
            return known
        spent += 1
        if spent > budget:
            raise OutOfBudget
        if to_move(position) == player:  # a max node: done at its first win
            best = -1.0
            for move in actions(position):
                child = value(result(position, move))
                if child > best:
                    best = child
                    if best == 1.0:
                        break
        else:  # a min node: done at its first loss
            best = 1.0
            for move in actions(position):
                child = value(result(position, move))
                if child < best:
                    best = child
                    if best == -1.0:
                        break
        memo[position] = best
        return best

    try:
        return value(state)
    except OutOfBudget:
        return None

@dataclass
class _Node(Generic[State]):
    """A node of the explicit search tree: a position, its children once known, its value."""

    state: State
    children: Optional[list[_Node[State]]] = None
    value: Optional[float] = field(default=None)


def iterative_minimax_value(game: Game[State, Move], state: State, player: Player,
                            counter: Counter | None = None) -> float:
    """The same value as :func:`minimax_value`, computed with an explicit stack (no recursion).

    The handout's algorithm: pop a node; a terminal node gets its utility; a node without
    children gets one child per move and is pushed back below them; a node whose children are
    known takes the max (``player`` to move) or min of their values.

    Args and Returns: as for :func:`minimax_value`.

    Raises:
        ValueError: if ``game`` does not declare two players, determinism and zero sum.
    """
    _check_game(game)
    return _value(_solve_iteratively(game, state, player, counter))


def _value(node: _Node[State]) -> float:
    """The value of a scored node (children are scored before their parent is popped again)."""
    if node.value is None:
        raise AssertionError(f"node {node.state!r} was never scored")
    return node.value


def _solve_iteratively(game: Game[State, Move], state: State, player: Player,
                       counter: Counter | None) -> _Node[State]:
    """Evaluate the tree below ``state`` with an explicit stack; return the scored root node."""
    memo: dict[State, float] = {}
    root: _Node[State] = _Node(state)
    stack = [root]
    while stack:
        node = stack.pop()
        if node.state in memo:
            node.value = memo[node.state]
        elif game.is_terminal(node.state):
            _count(counter, leaf=True)
            node.value = memo[node.state] = game.utility(node.state, player)
        elif node.children is None:
            _count(counter, leaf=False)
            node.children = [_Node(game.result(node.state, move))
                             for move in game.actions(node.state)]
            stack.append(node)
            stack.extend(node.children)
        else:
            values = [_value(child) for child in node.children]
            pick = max if game.to_move(node.state) == player else min
            node.value = memo[node.state] = pick(values)
    return root


def move_values(game: Game[State, Move], state: State, *, iterative: bool = False,
                counter: Counter | None = None) -> MoveValues[Move]:
    """Every legal move of ``state`` with its minimax value for the player to move.

    Args:
        game: a finite two-player zero-sum game; only read.
        state: the position; not changed. If it is terminal the result is empty.
        iterative: use the explicit-stack version instead of recursion (for deep games).
        counter: as for :func:`minimax_value`, summed over the moves.

    Returns:
        ``((move, value), ...)`` in ``game.actions`` order.
    """
    player = game.to_move(state)
    solve = iterative_minimax_value if iterative else minimax_value
    return tuple((move, solve(game, game.result(state, move), player, counter))
                 for move in game.actions(state))


def optimal_moves(game: Game[State, Move], state: State, *,
                  iterative: bool = True) -> tuple[Move, ...]:
    """The moves that guarantee the best value for the player to move, in ``actions`` order.

    Raises:
        ValueError: if ``state`` has no legal move.
    """
    values = move_values(game, state, iterative=iterative)
    if not values:
        raise ValueError(f"no legal move in {state!r}")
    best = max(value for _, value in values)
    return tuple(move for move, value in values if value == best)


def minimax_decision(game: Game[State, Move], state: State) -> Move:
    """The first move of highest minimax value, by recursion (AIMA's MINIMAX-DECISION).

    Raises:
        ValueError: if ``state`` has no legal move, or the game lacks a required fact.
    """
    return optimal_moves(game, state, iterative=False)[0]


def iterative_minimax_decision(game: Game[State, Move], state: State) -> Move:
    """The same move as :func:`minimax_decision`, found without recursion.

    Raises:
        ValueError: if ``state`` has no legal move, or the game lacks a required fact.
    """
    return optimal_moves(game, state, iterative=True)[0]


__all__ = [
    "MoveValues", "OutOfBudget", "bounded_value", "iterative_minimax_decision",
    "iterative_minimax_value", "minimax_decision", "minimax_value", "move_values", "optimal_moves",
]
