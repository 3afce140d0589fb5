"""The batch run's progress: a bar with the submissions graded, time elapsed and ETA, redrawn in
place on a terminal (harness/progress.py does the counting and writing)."""
from __future__ import annotations

import time
from typing import Callable, TextIO

from harness.progress import ProgressDisplay, format_duration


class Progress(ProgressDisplay):
    """Counts finished submissions out of ``total`` and estimates the time left."""

    WIDTH = 28

    def __init__(self, total: int, stream: TextIO | None = None, label: str = "grading",
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(total, stream, clock)
        self.label = label

    def line(self, note: str = "") -> str:
        """The current status line, e.g. ``grading [#####....]  3/10  0:12 elapsed, ETA 0:28``."""
        filled = int(self.WIDTH * self.done / self.total) if self.total else self.WIDTH
        bar = "#" * filled + "." * (self.WIDTH - filled)
        eta = self.eta()
        left = "ETA --:--" if eta is None else f"ETA {format_duration(eta)}"
        text = f"{self.label} [{bar}] {self.done}/{self.total}  {self.elapsed()} elapsed, {left}"
        return f"{text}  {note}" if note else text

    def start(self) -> None:
        self.write(self.line(), redraw=True)

    def advance(self, note: str = "") -> None:
        """Count one more finished submission and redraw, with ``note`` after the bar."""
        self.count()
        self.write(self.line(note), redraw=True)


__all__ = ["Progress", "format_duration"]
