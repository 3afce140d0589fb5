"""Two-player games between sandboxed entrants: the one match loop and its seats (how
a game ends is ``harness.records.games``).

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
from harness.games.seats import Agent, InProcess, LineCodec, Program, Served, convert

__all__ = ["Agent", "Clock", "Freezer", "GameRecord", "InProcess", "LineCodec", "Ply",
           "Program", "Reply", "Rules", "Seat", "Served", "abbreviate",
           "convert", "play_game", "replay"]
