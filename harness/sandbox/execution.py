"""Run one worker request to completion under a wall-clock deadline."""
from __future__ import annotations

import os
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from msgspec.structs import replace

from harness.records.limits import Limits
from harness.sandbox.capture import BoundedBuffer, Feed, drain, pump
from harness.sandbox.cleanup import (
    TAG_VARIABLE,
    held_back_extension,
    process_tree_cpu_seconds,
    terminate,
    tree_held_back_seconds,
)
from harness.sandbox.launcher import launch, python_command
from harness.sandbox.levels import Isolation
from harness.sandbox.limits import case_allowance
from harness.sandbox.stages import STAGES, marks_of, now
from harness.wire.protocol import (
    REPLY_LIMIT,
    ProtocolError,
    WorkerReply,
    WorkerRequest,
    decode,
    encode,
)

# The steps a traced fresh worker reports (see harness.worker.main) and the stage each ends.
_STEPS = (("read", "child reads request"), ("setup", "child setup"),
          ("imported", "import student file"), ("ran", "run examples + encode"))

OUTPUT_LIMIT = 16 * 1024


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
        seconds: wall-clock time from the start to the process's end or its deadline (the
            cleanup after it is not the case's time).
        memory_exceeded: the kernel killed a process of the sandbox's memory group for want of
            memory while this ran (the sandbox then killed the rest of it).
        disk_full: the case folders' sized mount was full when this ended.
        cpu_seconds: on a timeout, the CPU time the case's processes had used when it was
            stopped (None: not read, as where there is no ``/proc``).
    """

    reply: WorkerReply | None
    reply_problem: str
    output: str
    timed_out: bool
    exit_status: int | None
    seconds: float
    memory_exceeded: bool = False
    disk_full: bool = False
    cpu_seconds: float | None = None


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

    def run(self, request: WorkerRequest, timeout: float, patience: float = 1.0) -> RawRun:
        """Send ``request``, collect the reply within ``timeout`` (+ an import allowance), and
        kill everything the process started, whatever happened (``patience``: see
        ``cleanup.held_back_extension``)."""
        process = self.process
        started = now()
        output, reply_bytes = BoundedBuffer(OUTPUT_LIMIT), BoundedBuffer(REPLY_LIMIT)
        exited = 0.0
        cpu: float | None = None
        allowance = case_allowance(timeout, forked=False)
        try:
            assert process.stdin is not None and process.stdout is not None
            request = replace(request, cpu_seconds=allowance.cpu_seconds)
            feed = Feed(os.dup(process.stdin.fileno()), encode(request))
            process.stdin.close()
            sent = STAGES.add("request encode", started)

            def finished(open_fds: set[int]) -> bool:
                if process.poll() is None:
                    return False
                # The worker is gone; an orphan may still hold a pipe: take what is there.
                for fd in open_fds:
                    drain(fd, sinks[fd])
                return True

            sinks = {process.stdout.fileno(): output, self.reply_read: reply_bytes}
            exit_fd = _exit_descriptor(process.pid)  # wakes the pump when the worker ends
            try:
                extend = held_back_extension(
                    started, allowance.wall_seconds, patience,
                    lambda: tree_held_back_seconds(process.pid, with_top=True))
                timed_out = pump(sinks, started + allowance.wall_seconds, feed=feed,
                                 finished=finished, events=exit_fd, on_event=lambda: False,
                                 extend=extend)
            finally:
                if exit_fd is not None:
                    os.close(exit_fd)
            exited = now()
            if timed_out:
                cpu = process_tree_cpu_seconds(process.pid)
        finally:
            self.discard()
        discarded = STAGES.add("kill + reap the process", exited or started)
        reply, problem = parse_reply(reply_bytes)
        STAGES.add("reply decode", discarded)
        if STAGES.enabled and exited:
            STAGES.add_marks(sent, marks_of(reply.trace if reply else None, _STEPS), exited,
                             "reply + exit + poll")
        # The case's time ends with the process or its deadline; the kill after it is ours.
        return RawRun(reply, problem, output.text(), timed_out, process.returncode,
                      (exited or time.monotonic()) - started, cpu_seconds=cpu)

    def discard(self) -> None:
        """Kill the process (and all it started) and release its pipes, once: closing a
        descriptor's number again would close whatever reused it."""
        terminate(self.process, self.isolation, self.tag)
        reply_read, self.reply_read = self.reply_read, -1
        for closer in ((lambda: os.close(reply_read)) if reply_read >= 0 else None,
                       self.process.stdout.close if self.process.stdout else None,
                       self.process.stdin.close if self.process.stdin else None):
            if closer is None:
                continue
            try:
                closer()
            except OSError:
                pass


def _exit_descriptor(pid: int) -> int | None:
    """A descriptor that becomes readable when ``pid`` (our child) ends (Linux 5.3+), so the
    grader learns of the end at once instead of at its next check (``capture.TICK``)."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


def parse_reply(buffer: BoundedBuffer) -> tuple[WorkerReply | None, str]:
    """The typed reply in ``buffer`` (see harness.wire.protocol), or None and why it broke the
    protocol ("" when nothing was sent)."""
    if buffer.overflowed:
        return None, f"reply too large or malformed: more than {REPLY_LIMIT} bytes"
    if not buffer.data:
        return None, ""
    try:
        return decode(bytes(buffer.data), WorkerReply), ""
    except ProtocolError as exc:
        return None, str(exc)
