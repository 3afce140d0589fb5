"""The reference evaluation of Isolation positions, for the timed alpha-beta player.

Mobility is the whole story of Isolation: a player with no move loses. The evaluation is the
mover's count of moves against a weighted count of the opponent's, and decided positions score
beyond any mobility value, preferring quick wins and slow losses.
"""
from __future__ import annotations

from dataclasses import dataclass

from assignments.isolation.rules import Isolation, IsolationState, Player, opponent

DECIDED = 1000.0
"""Base value of a decided position; mobility differences never reach it on boards up to 16 x 16
(a queen has at most 4 * (16 - 1) = 60 moves)."""


@dataclass(frozen=True)
class MobilityEvaluation:
    """``evaluate(state, player)``: ``mine - weight * theirs``, or +-(DECIDED + empty squares).

    At a terminal position (the player to move has no move) the mover has lost: the value is
    ``-(DECIDED + empty)`` to the mover and ``+(DECIDED + empty)`` to the other player, so an
    earlier win (more empty squares) is worth more and an earlier loss less. Elsewhere ``mine``
    and ``theirs`` are the move counts of ``player`` and of its opponent.

    Attributes:
        game: the rules.
        weight: how much each opponent move counts against ``player``; above 1 plays to
            restrict the opponent.
    """

    game: Isolation
    weight: float = 1.5

    def __call__(self, state: IsolationState, player: Player) -> float:
        mine = self.game.mobility(state, player)
        theirs = self.game.mobility(state, opponent(player))
        mover_moves = mine if state.to_move == player else theirs
        if mover_moves == 0:
            decided = DECIDED + self.game.empty_count(state)
            return -decided if state.to_move == player else decided
        return mine - self.weight * theirs


__all__ = ["DECIDED", "MobilityEvaluation"]
