"""Run one worker request to completion under a wall-clock deadline."""
from __future__ import annotations

import json
import os
import selectors
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.sandbox.capture import BoundedBuffer
from harness.sandbox.cleanup import terminate
from harness.sandbox.isolation import Isolation
from harness.sandbox.launcher import launch, python_command
from harness.sandbox.limits import Limits

OUTPUT_LIMIT = 16 * 1024
REPLY_LIMIT = 8 * 1024 * 1024
STARTUP_ALLOWANCE = 1.0


@dataclass(frozen=True)
class RawRun:
    """What came back from one worker process, before any interpretation.

    Attributes:
        reply: the decoded JSON reply, or None if none (or an unreadable one) arrived.
        reply_problem: why ``reply`` is None although the process answered, else "".
        output: the process's own stdout/stderr (bounded, cleaned).
        timed_out: the deadline passed before the process finished.
        exit_status: the process's return code (negative: killed by that signal), or None.
        seconds: wall-clock time from start to finish.
    """

    reply: dict[str, Any] | None
    reply_problem: str
    output: str
    timed_out: bool
    exit_status: int | None
    seconds: float


def run_worker(request: dict[str, Any], *, cwd: Path, worker: Path, isolation: Isolation,
               limits: Limits, timeout: float) -> RawRun:
    """Start a worker in ``cwd``, send ``request``, and collect its single reply.

    The whole process group is killed afterwards, whatever happened.
    """
    reply_read, reply_write = os.pipe()
    started = time.monotonic()
    deadline = started + timeout + STARTUP_ALLOWANCE
    try:
        process = launch(python_command(str(worker), str(reply_write)), cwd=str(cwd),
                         isolation=isolation, limits=limits.with_cpu(timeout + STARTUP_ALLOWANCE),
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         pass_fds=[reply_write])
    finally:
        os.close(reply_write)
    output, reply_bytes = BoundedBuffer(OUTPUT_LIMIT), BoundedBuffer(REPLY_LIMIT)
    timed_out = False
    try:
        assert process.stdin is not None and process.stdout is not None
        try:
            process.stdin.write(json.dumps(request).encode())
            process.stdin.close()
        except (BrokenPipeError, OSError):
            pass
        timed_out = _pump(process, {process.stdout.fileno(): output, reply_read: reply_bytes},
                          reply_read, deadline)
    finally:
        terminate(process, isolation)
        os.close(reply_read)
        if process.stdout is not None:
            process.stdout.close()
    reply, problem = _parse_reply(reply_bytes)
    return RawRun(reply, problem, output.text(), timed_out, process.returncode,
                  time.monotonic() - started)


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
                _drain(reply_fd, sinks[reply_fd])
                return False
    finally:
        selector.close()


def _drain(fd: int, sink: BoundedBuffer) -> None:
    while True:
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            return
        if not chunk:
            return
        sink.add(chunk)


def _parse_reply(buffer: BoundedBuffer) -> tuple[dict[str, Any] | None, str]:
    if buffer.overflowed:
        return None, f"the reply was larger than {REPLY_LIMIT} bytes"
    if not buffer.data:
        return None, ""
    try:
        reply = json.loads(bytes(buffer.data).decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None, "the reply was not valid JSON"
    if not isinstance(reply, dict):
        return None, "the reply was not a JSON object"
    return reply, ""
