"""How a refereed game ends: one vocabulary for every game, grading runner and tournament.

A game ends either by the rules (the player to move has no legal move; the game's utility then
names the winner or a draw) or by a forfeit of the player to move, for one named reason. There is
no third way: whatever an entrant sends, the referee turns it into one of these outcomes.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Hashable, Optional

from harness.compare.verdict import Verdict


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
    ABORTED = "aborted"
    """A game a tournament gave up on, for a cause outside both entrants: its worker crashed
    or overran its deadline (an entrant's own faults and waiting are its forfeits). Such a game
    has no winner and is left out of ratings; it is never a win for anybody: a tournament plays
    it once more, and an elimination match that stays undecided by aborted games sends nobody
    on."""

    @property
    def is_forfeit(self) -> bool:
        """Whether the player to move lost by its own fault."""
        return self not in (Reason.NO_MOVES, Reason.ABORTED)

    @property
    def verdict(self) -> Verdict | None:
        """The case verdict of a game lost this way; None for a game lost by the rules, which is
        simply a wrong answer."""
        return _VERDICTS.get(self)

    @property
    def label(self) -> str:
        """Words for feedback and standings, e.g. ``"forfeit: timeout"``."""
        if self is Reason.NO_MOVES:
            return "no legal move left"
        return "aborted" if self is Reason.ABORTED else f"forfeit: {self.value}"


_VERDICTS = {Reason.TIMEOUT: Verdict.TIMED_OUT, Reason.CRASH: Verdict.CRASHED,
             Reason.MALFORMED: Verdict.PROTOCOL_VIOLATION, Reason.ILLEGAL: Verdict.ILLEGAL_MOVE}


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


__all__ = ["Outcome", "Reason"]
