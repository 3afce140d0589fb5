"""Two-player games between sandboxed entrants: the one match loop, its seats and outcomes.

Knows no game: a game plugs in its rules (``reference.games``) and, per kind of entrant, a
seat (``seats.Served`` with the reply's wire type, or ``seats.Program`` with a line codec).
"""
from __future__ import annotations

from harness.games.freeze import Freezer
from harness.games.match import (
    Clock,
    GameRecord,
    Ply,
    Reply,
    Rules,
    Seat,
    abbreviate,
    play_game,
    replay,
)
from harness.games.outcome import Outcome, Reason
from harness.games.seats import Agent, InProcess, LineCodec, Program, Served, convert

__all__ = ["Agent", "Clock", "Freezer", "GameRecord", "InProcess", "LineCodec", "Outcome", "Ply",
           "Program", "Reason", "Reply", "Rules", "Seat", "Served", "abbreviate",
           "convert", "play_game", "replay"]
