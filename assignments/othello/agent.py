"""The reference Othello agent in the handout's vocabulary: boards in, ``(move, utility)`` out.

A thin typed adapter from the ``agent.py`` API (docs/contract/othello.md, "The agent API") to the
generic searches of :mod:`reference.search.alphabeta` on :class:`assignments.othello.rules.Othello`.
Each :class:`ReferenceAgent` owns its cache and its work counter, so two agents never share
state (the student's module-level cache is per process; ours is per object).
"""
from __future__ import annotations

import math
from typing import Any, Callable, Optional, cast

from assignments.othello.rules import (
    Board,
    Move,
    Othello,
    OthelloState,
    Player,
    disk_difference,
    opponent,
)
from reference.core.counters import Counter
from reference.search import alphabeta as search

Answer = tuple[Optional[Move], int]
"""A node function's return: ``(move or None, utility for color)``."""


def compute_utility(board: Board, color: Player) -> int:
    """Disks of ``color`` minus disks of the opponent."""
    return disk_difference(board, color)


GameFor = Callable[[int, Player], Othello]
"""``game_for(size, color)``: the rules a search for ``color`` on a board of ``size`` runs on."""


def othello_rules(size: int, color: Player) -> Othello:
    """The handout's rules (the same for either colour)."""
    return Othello(size)


class ReferenceAgent:
    """The handout's node and select functions, computed by the reference searches.

    Arguments keep the handout's names and meaning: ``color`` is the maximising player in min
    nodes too, ``limit`` -1 is unlimited, ``caching``/``ordering`` are 0/1 flags. Boards are
    never mutated. ``cache`` (used when ``caching`` is 1) and ``counter`` persist across calls.

    The keyword arguments replay a known mistake (``assignments/othello/diagnoses.py``): the
    search's ``rules``, the ``ordering`` used when ``ordering`` is 1, the rules of the game, and
    a counter (which may stop a search that grows too large).
    """

    def __init__(self, *, rules: search.SearchRules = search.TEXTBOOK,
                 ordering: search.Ordering = search.handout_ordering,
                 game_for: GameFor = othello_rules, counter: Optional[Counter] = None) -> None:
        self.cache: search.Cache = {}
        self.counter = counter if counter is not None else Counter()
        self.rules = rules
        self.ordering = ordering
        self.game_for = game_for

    def _ask(self, node: Callable[..., search.NodeValue], board: Board, color: Player,
             maximizing: bool, *window_and_limit: float, caching: int,
             **options: Any) -> Answer:
        """Run one node function of :mod:`reference.search.alphabeta` on ``board``."""
        mover = color if maximizing else opponent(color)
        move, value = node(self.game_for(len(board), color), OthelloState(board, mover), color,
                           *window_and_limit, cache=self.cache if caching else None,
                           counter=self.counter, rules=self.rules, **options)
        return cast(Optional[Move], move), int(value)

    def minimax_max_node(self, board: Board, color: Player, limit: int,
                         caching: int = 0) -> Answer:
        return self._ask(search.minimax_max_node, board, color, True, limit, caching=caching)

    def minimax_min_node(self, board: Board, color: Player, limit: int,
                         caching: int = 0) -> Answer:
        return self._ask(search.minimax_min_node, board, color, False, limit, caching=caching)

    def alphabeta_max_node(self, board: Board, color: Player, alpha: float, beta: float,
                           limit: int, caching: int = 0, ordering: int = 0) -> Answer:
        return self._ask(search.alphabeta_max_node, board, color, True, alpha, beta, limit,
                         caching=caching, ordering=self.ordering if ordering else None)

    def alphabeta_min_node(self, board: Board, color: Player, alpha: float, beta: float,
                           limit: int, caching: int = 0, ordering: int = 0) -> Answer:
        return self._ask(search.alphabeta_min_node, board, color, False, alpha, beta, limit,
                         caching=caching, ordering=self.ordering if ordering else None)

    def select_move_minimax(self, board: Board, color: Player, limit: int,
                            caching: int = 0) -> Optional[Move]:
        return self.minimax_max_node(board, color, limit, caching)[0]

    def select_move_alphabeta(self, board: Board, color: Player, limit: int = -1,
                              caching: int = 0, ordering: int = 0) -> Optional[Move]:
        return self.alphabeta_max_node(board, color, -math.inf, math.inf, limit, caching,
                                       ordering)[0]


def node_answers(board: Board, color: Player, limit: int,
                 maximizing: bool) -> tuple[int, list[Move]]:
    """The exact value of a node and every move that reaches it, for grading.

    Args:
        board: the position.
        color: the maximising player.
        limit: the node's remaining depth (-1 unlimited).
        maximizing: True for a max node (``color`` to move), False for a min node.

    Returns:
        ``(value for color, optimal moves in get_possible_moves order)``; the list is empty at a
        leaf (limit 0 or the mover has no legal move), where the node's move must be None.
    """
    game = Othello(len(board))
    state = OthelloState(board, color if maximizing else opponent(color))
    if limit == 0 or game.is_terminal(state):
        return disk_difference(board, color), []
    values = search.limited_move_values(game, state, color, limit)
    best = search.best_moves(values, maximizing)
    value = dict(values)[best[0]]
    return int(value), list(best)  # type: ignore[arg-type]


__all__ = ["Answer", "ReferenceAgent", "compute_utility", "node_answers"]
