"""Explicit game trees: any reference position turned into plain data, and played back as a Game.

Strategies are graded on the harness's own games, never on the student's classes, and no rules
code may reach the student's process. So the trusted side expands a reference position into a
:class:`GameTree` (every reachable position as a node: whose turn, moves with their children,
winner) and ships it inside the case as text (:func:`encode`). The probe
``probes/gg_tree_game.py`` decodes that text in the student's process and offers the starter's
Game/GameState API over it. :class:`TreeGame` plays the same tree on the trusted side through
``reference.core.Game``, so the checker solves exactly the tree the student was given.

Text format (one line; the probe parses it strictly): nodes separated by ``;``, node 0 is the
root. A node is ``T`` or ``F`` (is it p1's turn?), then the winner ``1``, ``2`` or ``-`` (none),
then its moves as ``<label><child index>``, labels being capital letters, in move order. A node
with no moves is terminal; every child index is larger than its parent's, so the tree is acyclic.

>>> tree = caterpillar(3)
>>> encode(tree)
'T-A1B3;F-A2;T2;F-A4B6;T-A5;F1;T-A7B9;F-A8;T2;F1'
>>> decode(encode(tree)) == tree
True
"""
from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional

from assignments.stonehenge.probes.gg_tree_game import caterpillar_text, parse_tree
from reference.core.protocols import Game, GameFacts, Move, State

PlayerName = str
"""``'p1'`` or ``'p2'``, as the handout's ``get_current_player_name`` returns them."""


class TreeTooLargeError(ValueError):
    """Expanding a position would exceed the node budget."""


@dataclass(frozen=True)
class TreeNode:
    """One position of a :class:`GameTree`.

    Attributes:
        p1_turn: whether p1 is to move.
        moves: ``(label, child index)`` pairs in the game's move order; empty when terminal.
        winner: ``'p1'``, ``'p2'`` or None (game not over, or a tie at a terminal node).
    """

    p1_turn: bool
    moves: tuple[tuple[str, int], ...]
    winner: Optional[PlayerName]


@dataclass(frozen=True)
class GameTree:
    """Every position reachable from the root (node 0), each once (a DAG of transpositions)."""

    nodes: tuple[TreeNode, ...]

    def count_paths(self) -> int:
        """Number of root-to-terminal paths: the leaves a minimax without memoisation visits."""
        paths = [0] * len(self.nodes)
        for index in reversed(range(len(self.nodes))):
            node = self.nodes[index]
            paths[index] = sum(paths[child] for _, child in node.moves) if node.moves else 1
        return paths[0]

    def depth(self) -> int:
        """Length of the longest game from the root, in moves."""
        depths = [0] * len(self.nodes)
        for index in reversed(range(len(self.nodes))):
            depths[index] = max((depths[c] + 1 for _, c in self.nodes[index].moves), default=0)
        return depths[0]


def build_tree(game: Game[State, Move], state: State, names: Mapping[Any, PlayerName],
               max_nodes: int, label: Callable[[Move], str] = str) -> GameTree:
    """Expand every position reachable from ``state`` (breadth first) into a :class:`GameTree`.

    Args:
        game: a reference game whose moves each bring the game one step closer to its end (so
            breadth-first order numbers every child after its parent).
        state: the root position; not changed.
        names: the handout's name of each player (e.g. ``{1: 'p1', 2: 'p2'}``).
        max_nodes: the node budget.
        label: the text of a move; it must be capital letters.

    Returns:
        The tree, nodes numbered in breadth-first discovery order, moves in ``game.actions``
        order, the winner of a terminal node being the player of utility 1 (None for a tie).

    Raises:
        TreeTooLargeError: when more than ``max_nodes`` positions are reachable.
        ValueError: when a move label is not capital letters or a child would precede its parent.
    """
    index: dict[State, int] = {state: 0}
    order = [state]
    queue = deque([state])
    while queue:
        position = queue.popleft()
        for move in game.actions(position):
            child = game.result(position, move)
            if child not in index:
                if len(order) == max_nodes:
                    raise TreeTooLargeError(f"more than {max_nodes} positions below {state!r}")
                index[child] = len(order)
                order.append(child)
                queue.append(child)
    nodes = []
    for number, position in enumerate(order):
        moves = tuple((label(move), index[game.result(position, move)])
                      for move in game.actions(position))
        if any(not re.fullmatch("[A-Z]+", text) or child <= number for text, child in moves):
            raise ValueError(f"bad move label or move order at {position!r}: {moves}")
        winner = None
        if game.is_terminal(position):
            winner = next((names[p] for p in names if game.utility(position, p) > 0), None)
        nodes.append(TreeNode(names[game.to_move(position)] == "p1", moves, winner))
    return GameTree(tuple(nodes))


def caterpillar(length: int) -> GameTree:
    """The probe's deep test game (see ``gg_tree_game.caterpillar_text``), for the checker.

    p1's only optimal first move is ``B``; finding it needs a search ``length`` moves deep.

    Raises:
        ValueError: if ``length`` is not odd and positive.
    """
    return decode(caterpillar_text(length))


def encode(tree: GameTree) -> str:
    """The one-line text of ``tree`` (format in the module docstring)."""
    return ";".join(
        ("T" if node.p1_turn else "F") + (node.winner[1] if node.winner else "-")
        + "".join(f"{move}{child}" for move, child in node.moves)
        for node in tree.nodes)


def decode(text: str) -> GameTree:
    """Parse :func:`encode`'s text with the probe's own parser (checked: ValueError if bad)."""
    return GameTree(tuple(TreeNode(p1_turn, tuple(moves), winner)
                          for p1_turn, moves, winner in parse_tree(text)))


class TreeGame:
    """A :class:`GameTree` as a ``reference.core.Game``: states are node indices (root 0).

    Players are ``'p1'`` and ``'p2'``; terminal nodes are those without moves.
    """

    facts = GameFacts(players=2, deterministic=True, zero_sum=True, perfect_information=True)

    def __init__(self, tree: GameTree) -> None:
        self.tree = tree

    def initial_state(self) -> int:
        """The root."""
        return 0

    def to_move(self, state: int) -> PlayerName:
        """``'p1'`` or ``'p2'``."""
        return "p1" if self.tree.nodes[state].p1_turn else "p2"

    def actions(self, state: int) -> tuple[str, ...]:
        """The move labels of node ``state``, in tree order."""
        return tuple(move for move, _ in self.tree.nodes[state].moves)

    def result(self, state: int, move: str) -> int:
        """The child reached by ``move`` (unchecked: ``move`` must be a label of the node)."""
        return dict(self.tree.nodes[state].moves)[move]

    def is_terminal(self, state: int) -> bool:
        """Whether node ``state`` has no moves."""
        return not self.tree.nodes[state].moves

    def utility(self, state: int, player: PlayerName) -> float:
        """1 if ``player`` won at ``state``, -1 if the other player did, else 0."""
        winner = self.tree.nodes[state].winner
        if winner is None:
            return 0
        return 1 if winner == player else -1


__all__ = [
    "GameTree", "PlayerName", "TreeGame", "TreeNode", "TreeTooLargeError", "build_tree",
    "caterpillar", "decode", "encode",
]
