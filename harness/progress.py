"""Progress of a long run on stderr, for batch grading and tournaments alike: items finished out
of a total, time elapsed and an estimate of the time left. On a terminal a status can be redrawn
in place; otherwise every status is its own line, so CI logs and log files stay readable.
Not for results: those go to files."""
from __future__ import annotations

import sys
import time
from typing import Callable, Optional, TextIO


def format_duration(seconds: float) -> str:
    """``h:mm:ss`` or ``m:ss``.

    >>> format_duration(75), format_duration(3725)
    ('1:15', '1:02:05')
    """
    seconds = max(0, int(round(seconds)))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class ProgressDisplay:
    """Counts finished items out of ``total`` (which ``expect`` may raise as work is announced)
    and writes status lines.

    Args:
        total: items expected so far.
        stream: where to write; None for ``sys.stderr`` at the time of writing.
        clock: monotonic seconds (tests pass a fake one).
    """

    def __init__(self, total: int = 0, stream: Optional[TextIO] = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.total = total
        self.done = 0
        self._stream = stream
        self.clock = clock
        self.started = clock()
        self._redrawn = False

    @property
    def stream(self) -> TextIO:
        return self._stream or sys.stderr

    @property
    def live(self) -> bool:
        """Whether the stream is a terminal, where a status line can be redrawn in place."""
        return bool(getattr(self.stream, "isatty", lambda: False)())

    def expect(self, items: int) -> None:
        """Announce ``items`` more items."""
        self.total += items

    def count(self) -> None:
        """One more item finished."""
        self.done += 1

    def elapsed(self) -> str:
        return format_duration(self.clock() - self.started)

    def eta(self) -> float | None:
        """Seconds left, or None before the first item finished: the mean wall-clock time between
        completions so far times the number left (which accounts for parallel workers)."""
        if not self.done:
            return None
        return (self.clock() - self.started) / self.done * (self.total - self.done)

    def write(self, text: str, *, redraw: bool = False) -> None:
        """Write one status; with ``redraw`` on a terminal, in place of the previous one."""
        if redraw and self.live:
            self.stream.write("\r\033[K" + text[:200])
            self._redrawn = True
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def finish(self) -> None:
        """End a redrawn status line."""
        if self._redrawn:
            self.stream.write("\n")
            self.stream.flush()
            self._redrawn = False


__all__ = ["ProgressDisplay", "format_duration"]
