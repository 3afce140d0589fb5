"""A progress display for tournament runs: one line per finished game, with counts and time.

Lines go to a text stream (stderr by default), one per game, so the display also reads well in a
log file: ``[ 17/240  0:12] round 2, alice v bob, game 1: alice won (no_moves)``. An aborted game
is flagged so that a hung or crashing entrant is visible while the run goes on.
"""
from __future__ import annotations

import time
from typing import Callable, Optional, TextIO

from harness.progress import ProgressDisplay
from harness.records.games import GameResult, GameTask


class Progress(ProgressDisplay):
    """Callback for executors: ``progress(task, result)`` prints one line (counting and writing
    are harness/progress.py's).

    Args:
        stream: where to print; None for ``sys.stderr`` at call time.
        clock: monotonic seconds.
    """

    def __init__(self, stream: Optional[TextIO] = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(0, stream, clock)
        self.aborted = 0

    def __call__(self, task: GameTask, result: GameResult) -> None:
        self.count()
        self.aborted += result.is_aborted
        width = len(str(self.total))
        if result.is_aborted:
            verdict = f"ABORTED ({result.detail})"
        elif result.winner is None:
            verdict = f"draw ({result.reason.value})"
        elif result.forfeiter_name is not None:
            first = " on its first move" if result.forfeit_on_first_move else ""
            verdict = (f"{result.winner_name} won ({result.forfeiter_name} forfeited: "
                       f"{result.reason.value}{first})")
        else:
            verdict = f"{result.winner_name} won ({result.reason.value})"
        self.write(f"[{self.done:>{width}}/{self.total} {self.elapsed()}] "
                   f"{task.label or f'game {task.index}'}: {verdict}")


__all__ = ["Progress"]
