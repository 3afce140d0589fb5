"""Test arenas for the tournament engine: Isolation with house bots and entrants that fail, and
an instant game decided by the entrants' code (for records, re-runs and ratings), with replay
pages when asked; and an executor that plays in the calling process.

Imported by the test modules and by worker processes (which inherit this folder on
``sys.path``), so it is top-level and picklable.
"""
from __future__ import annotations

import hashlib
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from harness.games.arenas import HouseArena
from harness.games.pages import Paint, ReplayView
from harness.records.games import GameResult, GameTask, Reason
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


@dataclass(frozen=True)
class CoinArena:
    """A game decided by a digest of both entrants' code and the seed: deterministic, instant
    (``pause`` seconds per game when asked), and sensitive to every fingerprint, so records and
    replays can be told apart by their results.

    Entrants named ``strong-...`` win more often than plain ones, and ``weak-...`` ones less,
    so that ratings have something to separate.

    Attributes:
        pause: seconds each game takes.
        house_folder: a folder whose ``*.py`` files stand for the house bots' code.
    """

    pause: float = 0.0
    house_folder: str = ""
    game_timeout: float = 30.0

    def house_files(self) -> list[Path]:
        return sorted(Path(self.house_folder).glob("*.py")) if self.house_folder else []

    def play(self, task: GameTask) -> GameResult:
        if self.pause:
            time.sleep(self.pause)
        text = f"{task.first.code}:{task.second.code}:{task.seed}".encode()
        draw = hashlib.sha256(text).digest()[0]
        edge = _strength(task.first.name) - _strength(task.second.name)
        winner = 0 if draw < 128 + 60 * edge else 1
        return GameResult(task.first.name, task.second.name, task.seed, winner, Reason.NO_MOVES,
                          moves=((draw,),), game=(("name", "coin"),))


@dataclass(frozen=True)
class PaintedCoinArena(CoinArena):
    """:class:`CoinArena` with replay pages: one square per game, lit for the first player's
    win, and the digest's byte as its score. ``painted`` counts the views drawn in this
    process (tests count redrawn pages by it)."""

    painted = [0]

    def replay_view(self, result: GameResult, outcome: str) -> ReplayView:
        self.painted[0] += 1
        cell = "x" if result.winner == 0 else "o"
        return ReplayView(f"coin: {result.first} v {result.second}", [["."], [cell]],
                          {".": Paint("#888888"), "x": Paint("#888888", "#000000"),
                           "o": Paint("#888888", "#ffffff")},
                          [f"coin {result.moves[0][0]}"], outcome=outcome,
                          score=f"coin {result.moves[0][0]}")


class InProcess:
    """An executor that plays every game in this process, one after another (no process
    starts, so a test of what is written around the games stays fast)."""

    def run(self, arena: Any, tasks: Sequence[GameTask],
            on_result: Optional[Callable[[GameTask, GameResult], None]] = None
            ) -> list[GameResult]:
        results = []
        for task in tasks:
            results.append(arena.play(task))
            if on_result is not None:
                on_result(task, results[-1])
        return results

    def close(self) -> None:
        pass


def _strength(name: str) -> int:
    """``strong-...`` entrants are stronger than plain ones, ``weak-...`` ones weaker."""
    return 1 if name.startswith("strong") else -1 if name.startswith("weak") else 0


def make_coin_arena(clock: Optional[float] = None, **options: Any) -> CoinArena:
    """The factory the tournament command is given as ``--arena tournament_fakes:...``."""
    return CoinArena(**options)


def make_painted_coin_arena(clock: Optional[float] = None, **options: Any) -> PaintedCoinArena:
    """:func:`make_coin_arena` with replay pages."""
    return PaintedCoinArena(**options)
