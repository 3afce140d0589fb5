"""Run one worker request to completion under a wall-clock deadline."""
from __future__ import annotations

import os
import selectors
import subprocess
import time
from dataclasses import dataclass
from msgspec.structs import replace
from pathlib import Path

from harness.protocol import REPLY_LIMIT, ProtocolError, WorkerReply, WorkerRequest, decode, encode
from harness.sandbox.capture import BoundedBuffer
from harness.sandbox.cleanup import TAG_VARIABLE, terminate
from harness.sandbox.isolation import Isolation
from harness.sandbox.launcher import launch, python_command
from harness.sandbox.limits import Limits

OUTPUT_LIMIT = 16 * 1024
STARTUP_ALLOWANCE = 1.0


@dataclass(frozen=True)
class RawRun:
    """What came back from one worker process, before any interpretation.

    Attributes:
        reply: the decoded reply, or None if none (or one breaking the protocol) arrived.
        reply_problem: why ``reply`` is None although the process answered ("reply too large
            or malformed: ..."), else "".
        output: the process's own stdout/stderr (bounded, cleaned).
        timed_out: the deadline passed before the process finished.
        exit_status: the process's return code (negative: killed by that signal), or None.
        seconds: wall-clock time from start to finish.
    """

    reply: WorkerReply | None
    reply_problem: str
    output: str
    timed_out: bool
    exit_status: int | None
    seconds: float


class WorkerProcess:
    """A started worker waiting for its one request (possibly started ahead, as a spare).

    It starts in the read-only runtime folder; the request names the fresh case folder to move
    to, so no case folder exists before its case is dispatched.
    """

    def __init__(self, *, worker: Path, isolation: Isolation, limits: Limits, tag: str = ""
                 ) -> None:
        self.isolation = isolation
        self.tag = tag
        self.started = time.monotonic()
        self.reply_read, reply_write = os.pipe()
        try:
            self.process = launch(python_command(isolation, str(worker), str(reply_write)),
                                  cwd=str(worker.parent), isolation=isolation, limits=limits,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, pass_fds=[reply_write],
                                  extra_env={TAG_VARIABLE: tag})
        except BaseException:
            os.close(self.reply_read)
            raise
        finally:
            os.close(reply_write)

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def run(self, request: WorkerRequest, timeout: float) -> RawRun:
        """Send ``request``, collect the reply within ``timeout`` (+ an import allowance), and
        kill everything the process started, whatever happened."""
        process = self.process
        started = time.monotonic()
        deadline = started + timeout + STARTUP_ALLOWANCE
        output, reply_bytes = BoundedBuffer(OUTPUT_LIMIT), BoundedBuffer(REPLY_LIMIT)
        timed_out = False
        try:
            assert process.stdin is not None and process.stdout is not None
            request = replace(request, cpu_seconds=int(timeout + STARTUP_ALLOWANCE) + 1)
            try:
                process.stdin.write(encode(request))
                process.stdin.close()
            except (BrokenPipeError, OSError):
                pass
            timed_out = _pump(process, {process.stdout.fileno(): output,
                                        self.reply_read: reply_bytes}, self.reply_read, deadline)
        finally:
            self.discard()
        reply, problem = parse_reply(reply_bytes)
        return RawRun(reply, problem, output.text(), timed_out, process.returncode,
                      time.monotonic() - started)

    def discard(self) -> None:
        """Kill the process (and all it started) and release its pipes."""
        terminate(self.process, self.isolation, self.tag)
        for closer in (lambda: os.close(self.reply_read), self.process.stdout.close
                       if self.process.stdout else None,
                       self.process.stdin.close if self.process.stdin else None):
            if closer is None:
                continue
            try:
                closer()
            except OSError:
                pass


def _pump(process: subprocess.Popen[bytes], sinks: dict[int, BoundedBuffer], reply_fd: int,
          deadline: float) -> bool:
    """Read every stream until the reply pipe closes and the process ends; True on timeout."""
    selector = selectors.DefaultSelector()
    for fd in sinks:
        os.set_blocking(fd, False)
        selector.register(fd, selectors.EVENT_READ)
    open_fds = set(sinks)
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return True
            if reply_fd not in open_fds and process.poll() is not None:
                return False
            for key, _ in selector.select(timeout=min(remaining, 0.05)):
                try:
                    chunk = os.read(key.fd, 65536)
                except BlockingIOError:
                    continue
                if chunk:
                    sinks[key.fd].add(chunk)
                else:
                    selector.unregister(key.fd)
                    open_fds.discard(key.fd)
            if process.poll() is not None and reply_fd in open_fds:
                # The worker is gone; an orphan may still hold the pipe. Drain what is there.
                drain(reply_fd, sinks[reply_fd])
                return False
    finally:
        selector.close()


def drain(fd: int, sink: BoundedBuffer) -> None:
    """Read what a non-blocking pipe holds now into ``sink``."""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            return
        if not chunk:
            return
        sink.add(chunk)


def parse_reply(buffer: BoundedBuffer) -> tuple[WorkerReply | None, str]:
    """The typed reply in ``buffer`` (see harness.protocol), or None and why it broke the
    protocol ("" when nothing was sent)."""
    if buffer.overflowed:
        return None, f"reply too large or malformed: more than {REPLY_LIMIT} bytes"
    if not buffer.data:
        return None, ""
    try:
        return decode(bytes(buffer.data), WorkerReply), ""
    except ProtocolError as exc:
        return None, str(exc)
