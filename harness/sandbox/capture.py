"""Bounded reading of untrusted byte streams, and the loop that moves a case's bytes."""
from __future__ import annotations

import os
import selectors
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from harness.wire.safe_text import safe_bytes as clean_text

__all__ = ["BoundedBuffer", "Feed", "clean_text", "drain", "pump"]
# How often ``pump`` asks whether the case has finished, when nothing else wakes it (a
# process's end has a descriptor only where ``os.pidfd_open`` works).
TICK = 0.05


@dataclass
class BoundedBuffer:
    """Keeps the first ``limit`` bytes written to it and counts the rest."""

    limit: int
    data: bytearray = field(default_factory=bytearray)
    dropped: int = 0

    def add(self, chunk: bytes) -> None:
        room = self.limit - len(self.data)
        if room > 0:
            self.data += chunk[:room]
        self.dropped += max(0, len(chunk) - max(room, 0))

    @property
    def overflowed(self) -> bool:
        return self.dropped > 0

    def text(self) -> str:
        """The kept bytes as clean text, with a visible marker when output was cut."""
        text = clean_text(bytes(self.data))
        if self.dropped:
            text += f"\n[... {self.dropped} more bytes of output not kept]"
        return text


def drain(fd: int, sink: BoundedBuffer) -> None:
    """Read what a non-blocking pipe holds now into ``sink`` (at most 4 MB: a writer that
    keeps writing cannot keep the grader here)."""
    for _ in range(64):
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            return
        if not chunk:
            return
        sink.add(chunk)


class Feed:
    """Writes a request into a pipe (which it owns) as the reader takes it, then closes it, so
    a reader that never reads cannot block the grader.

    What fits in the pipe is written at once, before the reader even starts, so a reader
    usually finds its whole request waiting instead of waiting for the grader's next turn."""

    def __init__(self, fd: int, data: bytes) -> None:
        self.fd = fd
        self.data = memoryview(data)
        os.set_blocking(fd, False)
        self.advance()

    def advance(self, selector: selectors.BaseSelector | None = None) -> None:
        """Write what the pipe takes now; once all is written, close the pipe (and leave
        ``selector``)."""
        if self.fd < 0:
            return
        try:
            written = os.write(self.fd, self.data[:65536])
        except BlockingIOError:
            return
        except OSError:  # the reader is gone or closed its end: nothing more to send
            written = len(self.data)
        self.data = self.data[written:]
        if not self.data:
            if selector is not None:
                selector.unregister(self.fd)
            self.close()

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def pump(sinks: dict[int, BoundedBuffer], deadline: float, *, feed: Feed,
         events: Any = None, on_event: Callable[[], bool] | None = None,
         finished: Callable[[set[int]], bool] | None = None,
         extend: Callable[[float], float] | None = None) -> bool:
    """Move bytes for one case: ``feed`` into its pipe, every pipe of ``sinks`` into its buffer,
    until ``on_event`` (called when ``events`` is readable) or ``finished`` (called with the
    pipes still open, every tick) returns True. Returns True if the deadline passed first;
    ``extend``, when given, is asked at the deadline for a later one (given the deadline).

    The one loop both ways of starting a case (a fresh worker, a forked one) use.
    """
    selector = selectors.DefaultSelector()
    for fd in sinks:
        os.set_blocking(fd, False)
        selector.register(fd, selectors.EVENT_READ)
    if feed.fd >= 0:
        selector.register(feed.fd, selectors.EVENT_WRITE)
    if events is not None:
        selector.register(events, selectors.EVENT_READ)
    open_fds = set(sinks)
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0 and extend is not None:
                deadline = max(deadline, extend(deadline))
                remaining = deadline - time.monotonic()
            if remaining <= 0:
                return True
            if finished is not None and finished(open_fds):
                return False
            for key, _ in selector.select(timeout=min(remaining, TICK)):
                if key.fd == feed.fd >= 0:
                    feed.advance(selector)
                elif events is not None and key.fileobj == events:
                    if on_event is not None and on_event():
                        return False
                elif key.fd in open_fds:
                    try:
                        chunk = os.read(key.fd, 65536)
                    except BlockingIOError:
                        continue
                    if chunk:
                        sinks[key.fd].add(chunk)
                    else:
                        selector.unregister(key.fd)
                        open_fds.discard(key.fd)
    finally:
        feed.close()
        selector.close()
