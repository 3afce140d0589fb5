"""Known mistakes in the Othello agent's node and select functions, for feedback that names one.

Each mistake is the reference agent (:class:`reference.othello.agent.ReferenceAgent`, the one
search of ``reference.search.alphabeta``) with one thing changed: a ``SearchRules`` field, the
ordering used when ``ordering`` is 1, or the rules the search runs on.
``harness.compare.diagnosis`` replays a failed case under each and names the one that
reproduces the student's answers. The descriptions finish the sentence "your answers are exactly
what ... gives".

Some handout mistakes give right answers on every case, because any best move is accepted and
alpha-beta is called with the full window: ties going to the last move in minimax, or no pruning
in a full-window search. They are named only where a case can see them (alpha-beta's move
choice, and the ordering cases, whose positions make the root's choice show the order searched).
Pruning with ``>`` instead of ``>=`` is left out: no case can tell it from the textbook (full
windows give exact values either way). The ordering cases' positions are chosen so that each
ordering mistake here chooses apart from the others (``generators.ordered_entry``), so the
evidence of a case singles one out; a sort by a key of the student's own (their heuristic) is
named by none of them.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from typing import Any, cast

from harness.records.verdicts import Variant
from reference.core.counters import BudgetCounter
from reference.games.othello import (
    Move,
    Othello,
    OthelloState,
    Player,
    disk_difference,
    get_possible_moves,
    opponent,
    play_move,
)
from reference.othello.agent import GameFor, ReferenceAgent, compute_utility, othello_rules
from reference.search.alphabeta import (
    TEXTBOOK,
    AnyGame,
    Child,
    Ordering,
    SearchRules,
    handout_ordering,
)

# A replay whose positions visited (leaves plus expansions, every call of the case together)
# pass this is abandoned, and that mistake does not match. The cases cap the reference's work
# at 30,000-60,000 positions per search; a count, not a clock, so the feedback is the same on
# every machine and under any load.
WORK_BUDGET = 60_000


class _ColourAlwaysMoves(Othello):
    """Othello in which ``color`` makes every move: min nodes expand ``color``'s moves, as a
    student who takes ``color`` for the player to move in a min node writes it."""

    def __init__(self, size: int, color: Player) -> None:
        super().__init__(size)
        self.color = color

    def to_move(self, state: OthelloState) -> Player:
        return self.color

    def actions(self, state: OthelloState) -> list[Move]:
        return get_possible_moves(state.board, self.color)

    def result(self, state: OthelloState, move: Move) -> OthelloState:
        return OthelloState(play_move(state.board, self.color, *move), self.color)

    def is_terminal(self, state: OthelloState) -> bool:
        return not self.actions(state)


class _RemembersParents(Othello):
    """Othello that remembers the position each successor came from, for an ordering that
    scores a move on the parent's board (:func:`_scored_with_the_opponents_colour`)."""

    def __init__(self, size: int, color: Player) -> None:
        super().__init__(size)
        self.parents: dict[OthelloState, OthelloState] = {}

    def result(self, state: OthelloState, move: Move) -> OthelloState:
        child = super().result(state, move)
        self.parents[child] = state
        return child


def _scored_with_the_opponents_colour(game: AnyGame, children: list[Child], player: Any,
                                      maximizing: bool) -> list[Child]:
    """Highest ``compute_utility`` for ``color`` first, but each move scored on the board
    after playing it with the other colour (``play_move(board, 3 - color, i, j)``)."""
    parents = cast(_RemembersParents, game).parents

    def score(child: Child) -> int:
        parent = parents[child[1]]
        col, row = cast(Move, child[0])
        return disk_difference(play_move(parent.board, opponent(parent.to_move), col, row), player)
    return sorted(children, key=score, reverse=True)


def _unordered(game: AnyGame, children: list[Child], player: Any,
               maximizing: bool) -> list[Child]:
    """``ordering`` read and ignored: the successors as ``get_possible_moves`` gives them."""
    return list(children)


def _lowest_utility_first(game: AnyGame, children: list[Child], player: Any,
                          maximizing: bool) -> list[Child]:
    """The handout's ordering turned round: lowest ``compute_utility`` for ``color`` first."""
    return sorted(children, key=lambda child: game.utility(child[1], player))


@dataclass(frozen=True)
class Mistake:
    """One known mistake: its description and what it changes in the reference agent."""

    description: str
    rules: SearchRules = TEXTBOOK
    ordering: Ordering = field(default=handout_ordering)
    game_for: GameFor = field(default=othello_rules)
    alone: bool = False
    """Named only where the case tells it from every other mistake (the ordering mistakes:
    on most positions two of them choose the same move, and naming a twin misleads)."""


NO_PRUNING = "alpha-beta without any pruning"
ORDERED_ANOTHER_WAY = (" (or, as likely, alpha-beta that prunes but orders successors by "
                       "another key, a heuristic of your own: either goes on past where the "
                       "handout's order stops, and this case cannot tell them apart)")


MISTAKES: tuple[Mistake, ...] = (
    Mistake("a search in which min nodes expand the moves of color instead of the opponent's "
            "(color taken for the player to move in a min node)",
            game_for=_ColourAlwaysMoves),
    Mistake("a search that stops one ply before the limit (a node is taken for a leaf while "
            "one ply is still left)", rules=replace(TEXTBOOK, extra_depth=-1)),
    Mistake("a search with min and max swapped (a max node picks the lowest value, a min node "
            "the highest)", rules=replace(TEXTBOOK, root_minimises=True)),
    Mistake(NO_PRUNING, rules=replace(TEXTBOOK, prune=False)),
    Mistake("alpha-beta testing a max node against alpha and a min node against beta (the "
            "wrong bound)", rules=replace(TEXTBOOK, wrong_bound=True)),
    Mistake("a search valuing positions with compute_utility for the opponent of color",
            rules=replace(TEXTBOOK, root_player_sees="opponent")),
    Mistake("a search valuing each position with compute_utility for the player to move "
            "there, instead of for color", rules=replace(TEXTBOOK, root_player_sees="mover")),
    Mistake("alpha-beta that lets a later move with an equal value replace the best one "
            "(ties go to the last move: a pruned successor's bound can equal the best value)",
            rules=replace(TEXTBOOK, keep_first_best=False)),
    Mistake("alpha-beta ordering successors lowest compute_utility first (the order reversed)",
            ordering=_lowest_utility_first, alone=True),
    Mistake("alpha-beta that does not order successors when ordering is 1 (it searches them in "
            "column order, as get_possible_moves lists them)", ordering=_unordered, alone=True),
    Mistake("alpha-beta ordering successors by compute_utility after playing each move with "
            "the opponent's colour", ordering=_scored_with_the_opponents_colour,
            game_for=_RemembersParents, alone=True),
)


def _namespace(mistake: Mistake) -> dict[str, Any]:
    """The handout's agent functions behaving as ``mistake``; one agent and one work budget for
    the whole case."""
    agent = ReferenceAgent(rules=mistake.rules, ordering=mistake.ordering,
                           game_for=mistake.game_for, counter=BudgetCounter(WORK_BUDGET))
    names = ("minimax_max_node", "minimax_min_node", "alphabeta_max_node", "alphabeta_min_node",
             "select_move_minimax", "select_move_alphabeta")
    namespace: dict[str, Any] = {name: getattr(agent, name) for name in names}
    namespace["compute_utility"] = compute_utility
    return namespace


def _variants(mistakes: tuple[Mistake, ...]) -> list[Variant]:
    return [Variant(mistake.description, functools.partial(_namespace, mistake), mistake.alone)
            for mistake in mistakes]


def variants() -> list[Variant]:
    """The known mistakes of the node and select functions (named by ``diagnose:`` in the case
    files of minimax, alpha-beta and depth limits)."""
    return _variants(MISTAKES)


def ordering_variants() -> list[Variant]:
    """:func:`variants` for the ordering cases (``diagnose:`` in their case file). There a node
    that does not prune and one that orders by a key of the student's own both reach a best
    move before the stop, and the second cannot be replayed (the key is anyone's), so the
    first is never named alone as the cause."""
    return _variants(tuple(replace(mistake, description=mistake.description + ORDERED_ANOTHER_WAY)
                           if mistake.description == NO_PRUNING else mistake
                           for mistake in MISTAKES))


__all__ = ["MISTAKES", "Mistake", "WORK_BUDGET", "ordering_variants", "variants"]
