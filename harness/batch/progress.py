"""A progress bar with an ETA, written to stderr (one redrawn line on a terminal, plain lines
otherwise, so logs of CI runs stay readable). Not for results: those go to files."""
from __future__ import annotations

import sys
import time
from typing import TextIO


def format_duration(seconds: float) -> str:
    """``h:mm:ss`` or ``m:ss``.

    >>> format_duration(75), format_duration(3725)
    ('1:15', '1:02:05')
    """
    seconds = max(0, int(round(seconds)))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class Progress:
    """Counts finished submissions out of ``total`` and estimates the time left.

    The estimate is the mean wall-clock time between completions so far times the number left,
    which already accounts for parallel workers.
    """

    WIDTH = 28

    def __init__(self, total: int, stream: TextIO | None = None, label: str = "grading") -> None:
        self.total = total
        self.done = 0
        self.label = label
        self.stream = stream or sys.stderr
        self.started = time.monotonic()
        self.live = bool(getattr(self.stream, "isatty", lambda: False)())

    def eta(self) -> float | None:
        """Seconds left, or None before the first completion."""
        if not self.done:
            return None
        elapsed = time.monotonic() - self.started
        return elapsed / self.done * (self.total - self.done)

    def line(self, note: str = "") -> str:
        """The current status line, e.g. ``grading [#####....]  3/10  0:12 elapsed, ETA 0:28``."""
        filled = int(self.WIDTH * self.done / self.total) if self.total else self.WIDTH
        bar = "#" * filled + "." * (self.WIDTH - filled)
        eta = self.eta()
        left = "ETA --:--" if eta is None else f"ETA {format_duration(eta)}"
        elapsed = format_duration(time.monotonic() - self.started)
        text = f"{self.label} [{bar}] {self.done}/{self.total}  {elapsed} elapsed, {left}"
        return f"{text}  {note}" if note else text

    def start(self) -> None:
        self._write(self.line())

    def advance(self, note: str = "") -> None:
        """Count one more finished submission and redraw, with ``note`` after the bar."""
        self.done += 1
        self._write(self.line(note))

    def finish(self) -> None:
        if self.live:
            self.stream.write("\n")
            self.stream.flush()

    def _write(self, text: str) -> None:
        if self.live:
            self.stream.write("\r\033[K" + text[:200])
        else:
            self.stream.write(text + "\n")
        self.stream.flush()
