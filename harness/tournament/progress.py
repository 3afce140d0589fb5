"""A progress display for tournament runs: one line per finished game, with counts and time.

Lines go to a text stream (stderr by default), one per game, so the display also reads well in a
log file: ``[ 17/240  0:12] round 2, alice v bob, game 1: alice won (no_moves)``. An aborted game
is flagged so that a hung or crashing entrant is visible while the run goes on.
"""
from __future__ import annotations

import sys
import time
from typing import Callable, Optional, TextIO

from harness.batch.progress import format_duration
from harness.tournament.records import GameResult, GameTask


class Progress:
    """Callback for executors: ``progress(task, result)`` prints one line.

    Args:
        stream: where to print; None for ``sys.stderr`` at call time.
        clock: monotonic seconds.
    """

    def __init__(self, stream: Optional[TextIO] = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream
        self.clock = clock
        self.started = clock()
        self.done = 0
        self.total = 0
        self.aborted = 0

    def expect(self, games: int) -> None:
        """Announce ``games`` more games (elimination rounds are announced one by one)."""
        self.total += games

    def __call__(self, task: GameTask, result: GameResult) -> None:
        self.done += 1
        self.aborted += result.is_aborted
        elapsed = format_duration(self.clock() - self.started)
        width = len(str(self.total))
        if result.is_aborted:
            verdict = f"ABORTED ({result.detail})"
        elif result.winner is None:
            verdict = f"draw ({result.termination})"
        elif result.forfeiter_name is not None:
            first = " on its first move" if result.forfeit_on_first_move else ""
            verdict = (f"{result.winner_name} won ({result.forfeiter_name} forfeited: "
                       f"{result.termination}{first})")
        else:
            verdict = f"{result.winner_name} won ({result.termination})"
        line = (f"[{self.done:>{width}}/{self.total} {elapsed}] "
                f"{task.label or f'game {task.index}'}: {verdict}")
        print(line, file=self.stream or sys.stderr, flush=True)


__all__ = ["Progress"]
