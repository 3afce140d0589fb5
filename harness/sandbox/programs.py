"""Long-lived student processes: a program speaking a line protocol, or a call server.

Both are started through ``launcher`` and killed (group and user sweep) by ``close``.
"""
from __future__ import annotations

import os
import select
import subprocess
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Optional, TypeVar

from harness.sandbox.capture import BoundedBuffer, clean_text
from harness.sandbox.cleanup import StudentProcess, terminate
from harness.sandbox.levels import Isolation
from harness.wire.codec import encode_value
from harness.wire.protocol import (
    LINE_LIMIT,
    Call,
    CallReply,
    ErrorReport,
    ProtocolError,
    WorkerReply,
    decode,
    encode,
    value_of,
)
from harness.wire.safe_text import safe_text, student_relative

MAX_LINE = 64 * 1024
_Self = TypeVar("_Self", bound="_Supervised")


class LineTooLong(ValueError):
    """A student process sent a line longer than the protocol allows."""


EXPIRED_POLL_SECONDS = 0.05
"""How often a wait with an ``expired`` check asks it (the games' CPU clocks)."""
Expired = Optional[Callable[[], bool]]
"""A check, asked while waiting for a line, that ends the wait as a timeout when it says so."""


class _LineReader:
    """Reads ``\\n``-terminated lines from a pipe with a timeout per line and a length bound."""

    def __init__(self, fd: int, limit: int = MAX_LINE) -> None:
        self.fd = fd
        self.limit = limit
        self.pending = bytearray()
        self.eof = False

    def read_line(self, timeout: float, expired: Expired = None) -> bytes | None:
        deadline = time.monotonic() + timeout
        while True:
            newline = self.pending.find(b"\n")
            if newline >= 0:
                line = bytes(self.pending[:newline])
                del self.pending[:newline + 1]
                return line
            if len(self.pending) > self.limit:
                raise LineTooLong(f"a line longer than {self.limit} bytes arrived")
            if self.eof:
                # An unterminated last line (a process killed mid-print) is not a reply.
                self.pending.clear()
                return None
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"no complete line within {timeout:g} s")
            if expired is not None:
                if expired():
                    raise TimeoutError("no complete line before the time allowed was used up")
                remaining = min(remaining, EXPIRED_POLL_SECONDS)
            ready, _, _ = select.select([self.fd], [], [], remaining)
            if ready:
                chunk = os.read(self.fd, 65536)
                if chunk:
                    self.pending += chunk
                else:
                    self.eof = True


STDERR_SETTLE = 0.5
"""Seconds ``stderr_tail`` waits for an exited process's stderr to end (a child it left may hold
the pipe open: the tail is then what arrived by then)."""


def _collect(stream: Any, sink: BoundedBuffer) -> None:
    for chunk in iter(lambda: stream.read1(65536), b""):
        sink.add(chunk)


class _Supervised:
    """Common lifecycle: a started process, a background stderr collector, and ``close``."""

    def __init__(self, process: StudentProcess, isolation: Isolation,
                 on_close: Any = None, tag: str = "", folder: str = "") -> None:
        self.process = process
        self.folder = folder  # the case folder: taken out of the paths in stderr_tail
        self.isolation = isolation
        self.tag = tag
        self._stderr = BoundedBuffer(16 * 1024)
        self._on_close = on_close
        self._closed = False
        self._collector: threading.Thread | None = None
        if process.stderr is not None:
            self._collector = threading.Thread(target=_collect,
                                               args=(process.stderr, self._stderr), daemon=True)
            self._collector.start()

    def stderr_tail(self, chars: int = 2000) -> str:
        """The last ``chars`` characters the process wrote to stderr (cleaned). Asked when a
        game is forfeited, so it first waits (at most ``STDERR_SETTLE`` seconds in all) for the
        process to end and its stderr with it: a crash's traceback may still be on its way
        when the end of its stdout is seen."""
        settled = time.monotonic() + STDERR_SETTLE
        try:
            self.process.wait(timeout=STDERR_SETTLE)
        except subprocess.TimeoutExpired:
            pass
        if self._collector is not None:
            self._collector.join(timeout=max(0.0, settled - time.monotonic()))
        return student_relative(self._stderr.text(), self.folder)[-chars:]

    @property
    def returncode(self) -> int | None:
        return self.process.poll()

    def close(self, grace: float = 0.5) -> None:
        """Close stdin, wait up to ``grace`` seconds, then kill everything the process started."""
        if self._closed:
            return
        self._closed = True
        try:
            if self.process.stdin is not None:
                self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
        terminate(self.process, self.isolation, self.tag)
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()
        if self._on_close is not None:
            self._on_close()

    def __enter__(self: _Self) -> _Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class StudentProgram(_Supervised):
    """A student file run as a program, talking a line protocol over stdin/stdout."""

    def __init__(self, process: StudentProcess, isolation: Isolation,
                 on_close: Any = None, tag: str = "", folder: str = "") -> None:
        super().__init__(process, isolation, on_close, tag, folder)
        assert process.stdout is not None
        self._reader = _LineReader(process.stdout.fileno())

    def send_line(self, text: str) -> bool:
        """Send one line (a newline is added) and flush; False if the process stopped reading."""
        try:
            assert self.process.stdin is not None
            self.process.stdin.write(text.encode("utf-8") + b"\n")
            self.process.stdin.flush()
            return True
        except (BrokenPipeError, OSError, ValueError):
            return False

    def read_line(self, timeout: float, *, expired: Expired = None) -> str | None:
        """The next line without its newline, cleaned of control characters; None on EOF.

        Raises:
            TimeoutError: no full line arrived within ``timeout`` seconds, or ``expired()``
                said the time allowed was used up first.
            LineTooLong: the line exceeded the protocol's bound.
        """
        raw = self._reader.read_line(timeout, expired)
        return None if raw is None else clean_text(raw)


@dataclass(frozen=True)
class CallResult:
    """The outcome of one call into a student module served by ``CallServer``."""

    ok: bool
    value: Any = None
    error: str = ""
    timed_out: bool = False
    crashed: bool = False
    seconds: float = 0.0
    stdout: str = ""
    traceback: str = ""
    """For a raised error, its traceback through the student's files (bounded)."""


class CallServer(_Supervised):
    """A student module imported once, answering function calls with plain data.

    After a timeout or a crash the server is dead; later calls report ``crashed``.
    """

    def __init__(self, process: StudentProcess, isolation: Isolation,
                 requests_fd: int, replies_fd: int, on_close: Any = None, tag: str = "",
                 folder: str = "") -> None:
        super().__init__(process, isolation, on_close, tag, folder)
        self._requests = os.fdopen(requests_fd, "wb")
        self._replies = _LineReader(replies_fd, LINE_LIMIT)
        self._replies_fd = replies_fd
        self.import_error = ""
        self.import_seconds = 0.0
        """Wall seconds :meth:`wait_ready` waited for the import (a game counts them as the
        entrant's waiting before its first move)."""

    def wait_ready(self, timeout: float) -> bool:
        """Wait for the worker's import to finish; False (with ``import_error``) if it failed."""
        started = time.monotonic()
        try:
            return self._await_ready(timeout)
        finally:
            self.import_seconds = time.monotonic() - started

    def _await_ready(self, timeout: float) -> bool:
        try:
            line = self._replies.read_line(timeout)
        except (TimeoutError, LineTooLong) as exc:
            self.import_error = f"importing your file did not finish: {exc}"
            return False
        try:
            reply = None if line is None else decode(line, WorkerReply, LINE_LIMIT)
        except ProtocolError as exc:
            self.import_error = f"importing your file broke the grader's protocol: {exc}"
            return False
        if reply is not None and reply.ready:
            return True
        if reply is not None and reply.import_error is not None:
            self.import_error = _describe(reply.import_error)
        else:
            self.import_error = "your file could not be imported (the process ended)"
        return False

    def call(self, function: str, args: list[Any], timeout: float, *,
             expired: Expired = None) -> CallResult:
        """Call ``function(*args)`` in the student module; ``args`` must be plain data. No
        answer within ``timeout`` seconds, or before ``expired()`` says so, is a timeout."""
        if self.returncode is not None or self._closed or self._requests.closed:
            return CallResult(ok=False, crashed=True, error="the process is no longer running")
        started = time.monotonic()
        try:
            self._requests.write(encode(Call(function, encode_value(args))) + b"\n")
            self._requests.flush()
            line = self._replies.read_line(timeout, expired)
        except TimeoutError:
            self.close(grace=0)
            return CallResult(ok=False, timed_out=True, seconds=time.monotonic() - started,
                              error=f"no answer within {timeout:g} s")
        except (BrokenPipeError, OSError, LineTooLong) as exc:
            self.close(grace=0)
            return CallResult(ok=False, crashed=True, error=str(exc),
                              seconds=time.monotonic() - started)
        seconds = time.monotonic() - started
        if line is None:
            self.close(grace=0)
            return CallResult(ok=False, crashed=True, seconds=seconds,
                              error="the process ended without answering")
        try:
            reply = decode(line, CallReply, LINE_LIMIT)
            value = value_of(reply.value)
        except ProtocolError as exc:
            self.close(grace=0)
            return CallResult(ok=False, crashed=True, seconds=seconds,
                              error=f"the process broke the grader's protocol: {exc}")
        stdout = safe_text(reply.stdout)
        if reply.error is not None:
            return CallResult(ok=False, seconds=seconds, stdout=stdout,
                              error=_describe(reply.error), traceback=_traceback(reply.error))
        return CallResult(ok=True, value=value, seconds=seconds, stdout=stdout)

    def end_calls(self) -> None:
        """Say that no more calls come: the worker ends at once (without running student exit
        handlers), so its stderr ends too and ``stderr_tail`` need not wait out its settle time
        for a process that would otherwise idle until ``close``."""
        try:
            self._requests.close()
        except OSError:
            pass

    def close(self, grace: float = 0.5) -> None:
        if self._closed:  # once: closing the number again would close whatever reused it
            return
        self.end_calls()
        super().close(grace)
        try:
            os.close(self._replies_fd)
        except OSError:
            pass


def _traceback(error: ErrorReport) -> str:
    """A student's exception as Python would print it, its frames those of the student's files
    (``agent.py, line 3, in f: ...``), safe to show and bounded."""
    frames = "".join(f"\n  {line}" for line in error.where.strip().splitlines())
    return safe_text(f"Traceback (your files, most recent call last):{frames}\n"
                     f"{error.type}: {error.message}", 2000)


def _describe(error: ErrorReport) -> str:
    """``Type: message (at the raising line)`` of a student's exception, safe to show."""
    where = error.where.strip().splitlines()[-1:]  # the raising line
    return (f"{safe_text(error.type)}: {safe_text(error.message)}"
            + (f" (at {safe_text(where[0], 300)})" if where else ""))
