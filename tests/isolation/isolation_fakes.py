"""Test doubles for the Isolation and tournament tests: a clock, a call server, arenas.

Imported by the test modules (and, for the arenas, by worker processes, which inherit this
folder on ``sys.path``), so everything here is top-level and picklable.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from reference.isolation.arena import IsolationArena
from harness.tournament.records import GameResult, GameTask


class TickingClock:
    """A clock that advances ``step`` seconds every time it is read; deterministic."""

    def __init__(self, step: float = 0.001) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@dataclass
class FakeResult:
    """The fields of the harness's CallResult that seats read."""

    ok: bool
    value: Any = None
    error: str = ""
    timed_out: bool = False


@dataclass
class FakeServer:
    """A CallServer double: ``reply(function, args, timeout)`` gives each FakeResult."""

    reply: Callable[[str, list[Any], float], FakeResult]
    calls: list[tuple[str, list[Any], float]] = field(default_factory=list)

    def call(self, function: str, args: list[Any], timeout: float) -> FakeResult:
        self.calls.append((function, args, timeout))
        return self.reply(function, args, timeout)


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
        return IsolationArena(self.seconds).play(task)
