"""How a refereed game ends: one vocabulary for every game, grading runner and tournament.

A game ends either by the rules (the player to move has no legal move; the game's utility then
names the winner or a draw) or by a forfeit of the player to move, for one named reason. There is
no third way: whatever an entrant sends, the referee turns it into one of these outcomes.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Hashable, Optional


class Reason(enum.Enum):
    """Why a game ended."""

    NO_MOVES = "no_moves"
    """The player to move had no legal move; the rules' utility decides the result."""
    ILLEGAL = "illegal"
    """The player to move answered a move that is not legal, or no move while it had one."""
    MALFORMED = "malformed"
    """The player to move answered something that is not a move at all (or too much of it)."""
    TIMEOUT = "timeout"
    """The player to move ran out of clock time before answering."""
    CRASH = "crash"
    """The player to move raised, died, or stopped answering."""

    @property
    def is_forfeit(self) -> bool:
        """Whether the player to move lost by its own fault."""
        return self is not Reason.NO_MOVES

    @property
    def verdict(self) -> str:
        """The case verdict (a ``harness.grading.verdicts.Verdict`` value) of a game lost this way;
        "" for a game lost by the rules, which is simply a wrong answer."""
        return _VERDICTS.get(self, "")

    @property
    def label(self) -> str:
        """Words for feedback and standings, e.g. ``"forfeit: timeout"``."""
        return "no legal move left" if self is Reason.NO_MOVES else f"forfeit: {self.value}"


_VERDICTS = {Reason.TIMEOUT: "timed out", Reason.CRASH: "crashed",
             Reason.MALFORMED: "protocol violation", Reason.ILLEGAL: "illegal move"}

Termination = Reason
"""The name the tournament records used before the vocabulary was shared; same values."""


@dataclass(frozen=True)
class Outcome:
    """The end of a game: who won and why.

    Attributes:
        winner: the winning player (a value of the game's players), or None for a draw.
        reason: why the game ended.
        detail: for a forfeit, a short message about the faulty reply (bounded text), else "".
        forfeiter: the player who forfeited, or None when the rules ended the game.
    """

    winner: Optional[Hashable]
    reason: Reason
    detail: str = ""
    forfeiter: Optional[Hashable] = None

    @property
    def termination(self) -> Reason:
        """Same as :attr:`reason` (older name)."""
        return self.reason


__all__ = ["Outcome", "Reason", "Termination"]
