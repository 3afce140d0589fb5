"""Exact short-horizon solving of Isolation positions, for the generated deep-search cases.

A game of Isolation ends when the player to move is stuck, so "the mover wins within ``n``
plies" is a finite AND/OR question: some move leaves the opponent stuck, or leaves every answer
of the opponent a position the mover again wins within ``n - 2`` plies. :class:`Solver` answers
it exactly (every line is searched, nothing is estimated), remembering what it has proved. The
generators use it to state which moves of a position win by force and which lose by force;
it is trusted code and never ships to students.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from assignments.isolation.rules import Isolation, IsolationState, Move


@dataclass
class Solver:
    """Exact answers to "does the mover force a win within n plies?" on ``game``'s positions."""

    game: Isolation
    _proved: dict[tuple[IsolationState, int], bool] = field(default_factory=dict, repr=False)

    def wins_within(self, state: IsolationState, plies: int) -> bool:
        """Whether the player to move forces the opponent stuck within ``plies`` plies (the
        mover's own last move included)."""
        if plies < 1:
            return False
        key = (state, plies)
        known = self._proved.get(key)
        if known is None:
            known = any(self.lost_within(self.game.result(state, move), plies - 1)
                        for move in self.game.actions(state))
            self._proved[key] = known
        return known

    def lost_within(self, state: IsolationState, plies: int) -> bool:
        """Whether the player to move is stuck now, or whatever it does the opponent then wins
        within ``plies - 1`` plies."""
        replies = self.game.actions(state)
        if not replies:
            return True
        return plies >= 2 and all(self.wins_within(self.game.result(state, reply), plies - 1)
                                  for reply in replies)

    def winning_moves(self, state: IsolationState, plies: int) -> list[Move]:
        """The mover's moves that force a win within ``plies`` plies."""
        return [move for move in self.game.actions(state)
                if self.lost_within(self.game.result(state, move), plies - 1)]

    def losing_moves(self, state: IsolationState, plies: int) -> list[Move]:
        """The mover's moves after which the opponent forces a win within ``plies`` plies."""
        return [move for move in self.game.actions(state)
                if self.wins_within(self.game.result(state, move), plies)]

    def win_length(self, state: IsolationState, limit: int) -> Optional[int]:
        """The fewest plies in which the mover forces a win (odd), or None beyond ``limit``."""
        return next((plies for plies in range(1, limit + 1, 2)
                     if self.wins_within(state, plies)), None)


__all__ = ["Solver"]
