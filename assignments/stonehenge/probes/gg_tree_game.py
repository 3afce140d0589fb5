"""Probe: an explicit game tree behind the starter's Game/GameState API (runs in the student's
process).

The grader gives strategies this game instead of the student's own classes. The tree arrives as
one line of text made by the trusted ``assignments.stonehenge.game_tree.encode``: nodes separated
by ``;`` (node 0 is the root); a node is ``T``/``F`` (is it p1's turn?), the winner ``1``, ``2``
or ``-``, then its moves as ``<capital letters><child index>``. Nothing here knows the expected
answers or any game's rules. Standard library only.
"""
from __future__ import annotations

import re
from typing import Any

_NODE = re.compile(r"([TF])([12-])((?:[A-Z]+[0-9]+)*)")
_EDGE = re.compile(r"([A-Z]+)([0-9]+)")


def parse_tree(text: str) -> list[tuple[bool, list[tuple[str, int]], str | None]]:
    """The nodes of ``text`` as ``(p1_turn, [(move, child), ...], winner)`` tuples.

    ``winner`` is ``'p1'``, ``'p2'`` or None. Checked: raises ValueError on a malformed node, a
    child index not after its parent or out of range, or a node with both moves and a winner.
    """
    nodes = []
    for number, part in enumerate(text.split(";")):
        match = _NODE.fullmatch(part)
        if match is None:
            raise ValueError("tree node %d cannot be parsed" % number)
        moves = [(move, int(child)) for move, child in _EDGE.findall(match.group(3))]
        if any(not number < child for _, child in moves):
            raise ValueError("tree node %d has a child out of order" % number)
        winner = None if match.group(2) == "-" else "p" + match.group(2)
        nodes.append((match.group(1) == "T", moves, winner))
    if any(child >= len(nodes) for _, moves, _ in nodes for _, child in moves):
        raise ValueError("tree has a child index out of range")
    if any(moves and winner is not None for _, moves, winner in nodes):
        raise ValueError("a tree node with moves cannot have a winner")
    return nodes


class _Tree:
    """The parsed nodes; shared by every state, never copied."""

    def __init__(self, text: str) -> None:
        self.nodes = parse_tree(text)
        self.moves_made = 0  # legal make_move calls, which the recursion probe cross-checks

    def __deepcopy__(self, memo: dict[int, Any]) -> _Tree:
        return self

    def __copy__(self) -> _Tree:
        return self


class TreeState:
    """A position of the tree, with the starter GameState API. Immutable: make_move returns a
    new object, like a student's StonehengeState."""

    WIN = 1
    LOSE = -1
    DRAW = 0

    def __init__(self, tree: _Tree, index: int) -> None:
        self._tree = tree
        self._index = index
        self.p1_turn = tree.nodes[index][0]

    def __str__(self) -> str:
        return "Position %d (%s to move)" % (self._index, self.get_current_player_name())

    def __repr__(self) -> str:
        return "TreeState(%d, p1_turn=%r)" % (self._index, self.p1_turn)

    def __deepcopy__(self, memo: dict[int, Any]) -> TreeState:
        return TreeState(self._tree, self._index)

    def get_possible_moves(self) -> list[str]:
        """Legal moves in the tree's order (a new list each call)."""
        return [move for move, _ in self._tree.nodes[self._index][1]]

    def get_current_player_name(self) -> str:
        """'p1' or 'p2'."""
        return "p1" if self.p1_turn else "p2"

    def is_valid_move(self, move: Any) -> bool:
        """Whether ``move`` is one of get_possible_moves()."""
        return move in self.get_possible_moves()

    def make_move(self, move: Any) -> TreeState:
        """The state after ``move``; this state does not change. Raises ValueError if illegal."""
        for label, child in self._tree.nodes[self._index][1]:
            if label == move:
                self._tree.moves_made += 1
                return TreeState(self._tree, child)
        raise ValueError("illegal move %r; legal moves are %r" % (move, self.get_possible_moves()))

    def rough_outcome(self) -> int:
        """WIN if a move wins at once, LOSE if over or every move lets the opponent win at
        once, else DRAW (the starter's contract)."""
        nodes = self._tree.nodes
        me = self.get_current_player_name()

        def lost(index: int) -> bool:
            return not nodes[index][1] and nodes[index][2] not in (None, me)

        moves = nodes[self._index][1]
        if not moves:
            winner = nodes[self._index][2]
            return self.DRAW if winner is None else (self.WIN if winner == me else self.LOSE)
        if any(not nodes[child][1] and nodes[child][2] == me for _, child in moves):
            return self.WIN
        if all(lost(child) or any(lost(grandchild) for _, grandchild in nodes[child][1])
               for _, child in moves):
            return self.LOSE
        return self.DRAW


class TreeGame:
    """The starter Game API over a tree: ``current_state`` starts at the root."""

    def __init__(self, tree: _Tree, current_state: TreeState) -> None:
        self._tree = tree
        self.current_state = current_state

    def __deepcopy__(self, memo: dict[int, Any]) -> TreeGame:
        return TreeGame(self._tree, self.current_state)

    def get_instructions(self) -> str:
        """A one-line description."""
        return "A game given as an explicit tree; moves are capital letters."

    def is_over(self, state: TreeState) -> bool:
        """Whether ``state`` has no legal move."""
        return not state.get_possible_moves()

    def is_winner(self, player: str) -> bool:
        """Whether ``player`` ('p1' or 'p2') has won in ``self.current_state``."""
        state = self.current_state
        return self.is_over(state) and self._tree.nodes[state._index][2] == player

    def str_to_move(self, string: str) -> str:
        """The move named by ``string`` (stripped, upper-cased)."""
        return string.strip().upper()


def same_position(state: Any, other: Any) -> bool:
    """Whether ``state`` is the position ``other`` is: the same object, or a copy of it.

    A strategy must leave ``game.current_state`` as it found it, and one that saved a
    ``copy.deepcopy`` of it and assigns the copy back does: the position and the player to move
    are the same, which is all the starter's interface loop reads afterwards.
    """
    if state is other:
        return True
    return (type(state) is TreeState and type(other) is TreeState
            and state._index == other._index and state.p1_turn == other.p1_turn
            and (state._tree is other._tree or state._tree.nodes == other._tree.nodes))


def caterpillar_text(length: int) -> str:
    """The tree text of a game with a spine ``length`` moves long (odd), one good move a turn.

    At spine node ``i`` the player to move (p1 when ``i`` is even) may play ``A``, after which
    the opponent's only move ``A`` wins at once, or ``B``, which goes on. After ``length`` moves
    of ``B`` the game ends, won by the last mover, p1. As in the starter games, the player to
    move at a finished node is the loser. Solving it needs a search ``length`` moves deep, which
    is how the grader tells an explicit stack from recursion.
    """
    if length < 1 or length % 2 == 0:
        raise ValueError("length must be odd and positive")
    parts = []
    for i in range(length):
        mover, other = ("T", "F") if i % 2 == 0 else ("F", "T")
        parts.append("%s-A%dB%d" % (mover, 3 * i + 1, 3 * i + 3))
        parts.append("%s-A%d" % (other, 3 * i + 2))
        parts.append("%s%s" % (mover, "2" if mover == "T" else "1"))
    parts.append("F1")
    return ";".join(parts)


def load_tree_game(text: str) -> TreeGame:
    """A TreeGame positioned at the root of the tree encoded in ``text``."""
    tree = _Tree(text)
    return TreeGame(tree, TreeState(tree, 0))
