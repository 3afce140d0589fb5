"""A test arena for the tournament engine: Isolation with house bots, and entrants that fail.

Imported by the test modules and by worker processes (which inherit this folder on
``sys.path``), so it is top-level and picklable.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass

from harness.tournament.arenas import HouseArena
from harness.tournament.records import GameResult, GameTask
from reference.isolation.kit import IsolationKit


@dataclass(frozen=True)
class FaultyArena:
    """Isolation with house bots, except entrants whose source is ``fault:crash`` (kills the
    game's process), ``fault:hang`` (never returns) or ``fault:raise`` (arena error)."""

    seconds: float = 5.0
    game_timeout: float = 1.0

    def play(self, task: GameTask) -> GameResult:
        for entrant in (task.first, task.second):
            if entrant.source == "fault:crash":
                os._exit(3)
            if entrant.source == "fault:hang":
                time.sleep(3600)
            if entrant.source == "fault:raise":
                raise RuntimeError("arena bug")
        return HouseArena(IsolationKit(self.seconds), open_sandbox=None).play(task)
