"""Subtract Square rules (the starter game of the Stonehenge assignment), as a ``Game``.

Players take turns subtracting a positive square no larger than the current total; whoever
brings the total to 0 wins, so the player facing 0 has lost. Every positive total allows the
move 1, hence there are no ties. This module knows nothing about search.

>>> game = SubtractSquare()
>>> game.actions(SubtractSquarePosition(10, 1))
(1, 4, 9)
>>> game.utility(game.result(SubtractSquarePosition(4, 1), 4), 1)
1
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from reference.core.protocols import GameFacts

Move = int
"""The positive square to subtract."""

Player = int
"""``1`` for the first player (``'p1'`` in the handout API), ``2`` for the second."""


@dataclass(frozen=True)
class SubtractSquarePosition:
    """An immutable Subtract Square position.

    Attributes:
        total: the current total, at least 0.
        player: the player to move, 1 or 2.
    """

    total: int
    player: Player


class SubtractSquare:
    """Subtract Square as a ``reference.core.Game`` over :class:`SubtractSquarePosition`."""

    facts = GameFacts(players=2, deterministic=True, zero_sum=True, perfect_information=True)

    def __repr__(self) -> str:
        return "SubtractSquare()"

    def initial_state(self, total: int, first: Player = 1) -> SubtractSquarePosition:
        """The start position with ``total`` and ``first`` to move.

        Raises:
            ValueError: if ``total`` is negative.
        """
        if total < 0:
            raise ValueError(f"the starting total must be at least 0, got {total}")
        return SubtractSquarePosition(total, first)

    def to_move(self, state: SubtractSquarePosition) -> Player:
        """The player to move (once the total is 0: the player who lost)."""
        return state.player

    def actions(self, state: SubtractSquarePosition) -> tuple[Move, ...]:
        """The positive squares no larger than the total, ascending; ``()`` at total 0."""
        return tuple(k * k for k in range(1, math.isqrt(state.total) + 1))

    def result(self, state: SubtractSquarePosition, move: Move) -> SubtractSquarePosition:
        """The position after subtracting ``move`` (unchecked: ``move`` must be legal)."""
        return SubtractSquarePosition(state.total - move, 3 - state.player)

    def is_terminal(self, state: SubtractSquarePosition) -> bool:
        """Whether the total is 0."""
        return state.total == 0

    def utility(self, state: SubtractSquarePosition, player: Player) -> float:
        """At total 0: -1 for the player to move (who lost), 1 for the other; else 0."""
        if state.total != 0:
            return 0
        return -1 if player == state.player else 1


__all__ = ["Move", "Player", "SubtractSquare", "SubtractSquarePosition"]
