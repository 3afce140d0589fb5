"""A fork server ("zygote") that starts each case as a fork of a warm worker process.

Starting a fresh interpreter for every case costs tens of milliseconds; forking a worker that has
already started costs about one. The zygote runs inside the sandbox (same user, namespaces and
limits as any worker), imports no student code itself, and forks one child per case. When the
zygote is pid 1 of its own pid namespace it also kills everything the case left behind, and it
cannot be signalled by its children. On a timeout, or if the zygote misbehaves, the grader kills
the whole zygote and starts another for the next case.
"""
from __future__ import annotations

import os
import select
import signal
import socket
import subprocess
from pathlib import Path
from typing import IO, Any, Callable, Sequence

from msgspec.structs import replace

from harness.records.limits import Limits
from harness.sandbox.capture import BoundedBuffer, Feed, drain, pump
from harness.sandbox.cleanup import (
    TAG_VARIABLE,
    held_back_extension,
    kernel_children,
    kill_adopted_orphans,
    namespace_init,
    status_field,
    terminate,
    tree_cpu_seconds,
    tree_held_back_seconds,
)
from harness.sandbox.execution import OUTPUT_LIMIT, RawRun, parse_reply
from harness.sandbox.launcher import launch, python_command
from harness.sandbox.levels import Isolation
from harness.sandbox.limits import case_allowance
from harness.sandbox.process_times import process_times
from harness.sandbox.stages import STAGES, marks_of, now
from harness.wire.protocol import (
    REPLY_LIMIT,
    Exited,
    ForkRequest,
    ProgramStart,
    ProtocolError,
    Started,
    WorkerReply,
    WorkerRequest,
    ZygoteEvent,
    decode,
    encode,
)

# The steps a traced case reports (see harness.worker.main), in order, and the profile's stage
# each one ends.
_CASE_STEPS = (("received", "zygote wakes up"), ("forked", "precompile + fork"),
               ("read", "child reads request"), ("setup", "child setup"),
               ("imported", "import student file"), ("ran", "run examples + encode"))
_EXIT_STEPS = (("reaped", "reply + child exit"), ("swept", "zygote sweep"))


class ZygoteFailed(RuntimeError):
    """The zygote could not serve a request; the caller falls back to a fresh process."""


def _at_end(fd: int) -> bool:
    """Whether every writer of the non-blocking pipe ``fd`` is gone (and it holds nothing)."""
    try:
        return os.read(fd, 1) == b""
    except BlockingIOError:
        return False


class ForkServer:
    """A running zygote; ``run`` grades one request in a forked child."""

    def __init__(self, *, worker: Path, isolation: Isolation, limits: Limits, tag: str = "",
                 packages: str | None = None, preload: Sequence[str] = ()) -> None:
        self.isolation = isolation
        self.tag = tag
        # The allowed packages' folder, and those the student's files import: the zygote
        # imports them once, so cases do not pay for it (see worker.preload_allowed_packages).
        self.packages = packages
        self.preload = tuple(preload)
        self.namespaced = isolation.has_pid_namespace
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.process = launch(
                python_command(isolation, str(worker), "zygote", str(theirs.fileno())),
                cwd=str(worker.parent), isolation=isolation, limits=limits,
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                pass_fds=[theirs.fileno()], extra_env={TAG_VARIABLE: tag})
        finally:
            theirs.close()
        self.control = ours
        self.alive = True
        self._exit_trace: dict[str, float] | None = None  # the last case's, if traced
        self._exit_seen = 0.0  # when its exit was reported
        self._timed_out_cpu: float | None = None  # the last case's CPU seconds, if timed out

    def run(self, request: WorkerRequest, timeout: float, patience: float = 1.0) -> RawRun:
        """Run one request in a fresh fork. Raises ZygoteFailed if nothing was started, or if
        the zygote's report of the case's end cannot be its own (see ``_collect``);
        ``patience``: see ``cleanup.held_back_extension``.

        The zygote gets only the three pipes; the request goes down the first one, read by the
        forked child alone (the zygote never holds a case's inputs).
        """
        started = now()
        allowance = case_allowance(timeout, forked=True)
        data = encode(replace(request, cpu_seconds=allowance.cpu_seconds))
        if not self.alive:
            raise ZygoteFailed("zygote gone")
        order = encode(ForkRequest(precompile=os.path.join(request.cwd, request.file)
                                   if request.cwd else "", packages=self.packages,
                                   preload=list(self.preload), trace=request.trace))
        request_read, request_write = os.pipe()
        reply_read, reply_write = os.pipe()
        output_read, output_write = os.pipe()
        feed = Feed(request_write, data)  # written ahead, as far as the pipe takes it
        sending = STAGES.add("request encode", started)
        try:
            try:
                socket.send_fds(self.control, [order], [request_read, reply_write, output_write])
            except OSError as exc:
                feed.close()
                self.close()
                raise ZygoteFailed(str(exc)) from exc
        finally:
            for fd in (request_read, reply_write, output_write):
                os.close(fd)
        sent = STAGES.add("send to zygote", sending)
        output, reply_bytes = BoundedBuffer(OUTPUT_LIMIT), BoundedBuffer(REPLY_LIMIT)
        try:
            extend = held_back_extension(started, allowance.wall_seconds, patience,
                                         self._held_back)
            status, timed_out, ended = self._collect(feed, reply_read, output_read, reply_bytes,
                                                     output, started + allowance.wall_seconds,
                                                     extend)
        finally:
            os.close(reply_read)
            os.close(output_read)
        collected = now()
        if not self.namespaced:  # orphans that left the case's session were adopted by us
            kill_adopted_orphans(self.isolation.uid if self.isolation.uid is not None
                                 else os.getuid())
        orphans_killed = STAGES.add("orphan sweep", collected)
        if status is None and not timed_out and reply_bytes.data == b"" and not output.data:
            raise ZygoteFailed("the zygote stopped before starting the case")
        reply, problem = parse_reply(reply_bytes)
        STAGES.add("reply decode", orphans_killed)
        if STAGES.enabled:
            self._profile(sent, reply, collected)
        return RawRun(reply, problem, output.text(), timed_out, status, ended - started,
                      cpu_seconds=self._timed_out_cpu if timed_out else None)

    def _profile(self, sent: float, reply: WorkerReply | None, collected: float) -> None:
        """Split the wait for the case into the steps the child and the zygote reported."""
        exited = self._exit_trace or {}
        case = (reply.trace if reply is not None else None) or {}
        STAGES.add_marks(sent, marks_of({**case, "received": exited.get("received")},
                                        _CASE_STEPS) + marks_of(exited, _EXIT_STEPS),
                         self._exit_seen or collected, "exit event to grader")
        if self._exit_seen:
            STAGES.add("drain pipes", self._exit_seen, collected)

    def _held_back(self) -> float:
        """Seconds the running case's processes waited for a CPU others held."""
        zygote = namespace_init(self.process) if self.namespaced else self.process.pid
        return tree_held_back_seconds(zygote, with_top=False) if zygote is not None else 0.0

    def _collect(self, feed: Feed, reply_fd: int, output_fd: int, reply: BoundedBuffer,
                 output: BoundedBuffer, deadline: float,
                 extend: Callable[[float], float] | None = None
                 ) -> tuple[int | None, bool, float]:
        """Feed the request, collect the case's reply and output until the zygote reports its
        exit.

        Returns ``(exit status or None, timed_out, when the case ended)``: its end or its
        deadline, not the cleanup after it, which is the grader's time (on a loaded machine,
        killing a namespace can take a second). On a timeout or a protocol breach the zygote
        (and with it, in a pid namespace, every process of the case) is killed.

        Raises:
            ZygoteFailed: an "exited" came before this case's "started", or while (in a pid
                namespace, where the zygote reports an end only once the case's processes are
                all gone) the case's pipes were still open: not the zygote's word, but a case's
                that got hold of its socket. The zygote has been killed; the caller runs the
                case again in a fresh process.
        """
        sinks = {reply_fd: reply, output_fd: output}
        child: list[int] = []
        status: list[int | None] = [None]
        self._exit_trace, self._exit_seen, self._timed_out_cpu = None, 0.0, None
        forged = [False]

        def on_event() -> bool:
            event = self._receive()
            if isinstance(event, Started):
                child.append(event.pid)
                return False
            if isinstance(event, Exited):
                self._exit_seen, self._exit_trace = now(), event.trace
                for fd, sink in sinks.items():
                    drain(fd, sink)
                if not child or (self.namespaced and not all(map(_at_end, sinks))):
                    forged[0] = True
                    self._kill_case(child[-1] if child else None)
                status[0] = event.status
            else:
                self._kill_case(child[-1] if child else None)
            return True

        timed_out = pump(sinks, deadline, feed=feed, events=self.control, on_event=on_event,
                         extend=extend)
        ended = now()
        if forged[0]:
            raise ZygoteFailed("the zygote reported an end its case had not reached")
        if timed_out:
            zygote = namespace_init(self.process) if self.namespaced else self.process.pid
            self._timed_out_cpu = tree_cpu_seconds(zygote) if zygote is not None else None
            self._kill_case(child[-1] if child else None)
            return None, True, ended
        return status[0], False, ended

    def start_program(self, program: ProgramStart) -> ForkedProgram:
        """Fork ``program``, a student's file run as a program whose stdin, stdout and stderr
        are pipes to us (see ``_fork_process``)."""
        (stdin, to_stdin), (from_stdout, stdout), (from_stderr, stderr) = \
            os.pipe(), os.pipe(), os.pipe()
        try:
            forked = self._fork_process(ForkRequest(packages=program.packages,
                                                    preload=list(self.preload),
                                                    program=program), [stdin, stdout, stderr])
        except ZygoteFailed:
            for fd in (to_stdin, from_stdout, from_stderr):
                os.close(fd)
            raise
        finally:
            for fd in (stdin, stdout, stderr):
                os.close(fd)
        forked.stdin = os.fdopen(to_stdin, "wb")
        forked.stdout = os.fdopen(from_stdout, "rb")
        forked.stderr = os.fdopen(from_stderr, "rb")
        return forked

    def start_server(self, packages: str | None, calls: int, replies: int) -> ForkedProgram:
        """Fork a call server (``mode="serve"``; see ``_fork_process``): its request is the
        first line the caller writes into the ``calls`` pipe (whose read end is given), its
        replies go to ``replies`` (a write end), its stderr to a pipe to us, its stdout nowhere,
        as for a fresh server. The caller closes the two ends it gave."""
        from_stderr, stderr = os.pipe()
        try:
            forked = self._fork_process(ForkRequest(packages=packages, preload=list(self.preload),
                                                    server=True), [calls, replies, stderr])
        except ZygoteFailed:
            os.close(from_stderr)
            raise
        finally:
            os.close(stderr)
        forked.stderr = os.fdopen(from_stderr, "rb")
        return forked

    def _fork_process(self, order: ForkRequest, fds: list[int]) -> ForkedProgram:
        """Fork a long-lived child (a program, a call server) with the descriptors ``fds``.
        Only from a zygote that is the first process of its pid namespace: it is the child's
        parent, reaps it and kills whatever it left before reporting its end. The caller owns
        the child (``terminate`` it) and must not use the zygote until it has ended.

        Raises:
            ZygoteFailed: nothing was started (the caller starts a fresh process).
        """
        gate_read, gate_write = os.pipe()
        pid = init = handle = None
        try:
            if self.alive and self.namespaced:
                socket.send_fds(self.control, [encode(order)], [*fds, gate_read])
                ready, _, _ = select.select([self.control], [], [], PROGRAM_START_SECONDS)
                event = self._receive() if ready else None
                init = namespace_init(self.process)  # the zygote itself, running by now
                if isinstance(event, Started) and init is not None:
                    pid = _host_pid(init, event.pid)  # waiting at its gate: it cannot end yet
                if pid is not None:
                    handle = os.pidfd_open(pid)
                    os.write(gate_write, b"g")
        except OSError:
            pass
        finally:
            os.close(gate_read)
            os.close(gate_write)
        if pid is None or init is None or handle is None:
            self.close()
            raise ZygoteFailed("the zygote did not start the process")
        return ForkedProgram(self, pid, handle, init)

    def _receive(self) -> Started | Exited | None:
        try:
            return decode(self.control.recv(4096), ZygoteEvent, limit=4096)  # type: ignore[no-any-return]
        except (OSError, ProtocolError):
            return None

    def _kill_case(self, child: Any) -> None:
        """Stop the case: the whole zygote goes (it is replaced for the next case)."""
        if not self.namespaced and type(child) is int and _is_child_of(child, self.process.pid):
            try:
                os.killpg(child, 9)
            except OSError:
                pass
        self.close()

    def close(self) -> None:
        if self.alive:
            self.alive = False
            self.control.close()
            terminate(self.process, self.isolation, self.tag)


PROGRAM_START_SECONDS = 5.0
"""How long a zygote may take to report a forked program (it forks at once)."""


class ForkedProgram:
    """A program forked by a zygote, as the ``subprocess.Popen`` the sandbox's programs and
    ``cleanup.terminate`` use: host pid, pipes, ``poll``, ``wait``, ``kill``. Its end is
    reported by the zygote once it has reaped the program and killed everything else in the
    namespace, so an ended program has left nothing running.

    ``namespace_root`` is the first process of the namespace (the zygote), whose descendants
    are every process there: what a fair clock freezes, since an orphan of the program is
    adopted by the zygote, not by the program (a fresh program is that first process itself).
    ``root_cpu`` is the zygote's CPU seconds (its own and its reaped children's) at the fork:
    what the namespace used before the program, which is not the program's (a game charges
    the program's work before its first move to its clock)."""

    def __init__(self, zygote: ForkServer, pid: int, handle: int, namespace_root: int) -> None:
        self.zygote = zygote
        self.pid = pid
        self.handle = handle  # a pidfd: the zygote reaps the program, so its pid may be reused
        self.namespace_root = namespace_root
        times = process_times(namespace_root)
        self.root_cpu: float | None = None if times is None else sum(times)
        self.stdin: IO[bytes] | None = None  # our ends of its pipes, as ``start_*`` made them
        self.stdout: IO[bytes] | None = None
        self.stderr: IO[bytes] | None = None
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self._await_end(0)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None and not self._await_end(timeout):
            raise subprocess.TimeoutExpired(f"program {self.pid}", timeout or 0)
        assert self.returncode is not None
        return self.returncode

    def kill(self) -> None:
        """Kill the program (through its pidfd), and let the zygote go on (a fair clock may
        have stopped it) so that it reaps the program, sweeps the namespace and reports."""
        if self.returncode is not None:  # reported ended: the handle is closed
            return
        try:
            signal.pidfd_send_signal(self.handle, signal.SIGKILL)
        except OSError:  # it has ended
            pass
        if self.zygote.alive:
            try:
                os.kill(self.namespace_root, signal.SIGCONT)
            except (ProcessLookupError, PermissionError):
                pass

    def kill_group(self) -> None:
        """What ``cleanup.terminate`` does for a process group: the rest of the program's
        group is in the zygote's namespace, killed by the zygote's sweep once the program has
        ended (its pid, so its group id, may be another process's by then)."""
        self.kill()

    def _await_end(self, timeout: float | None) -> bool:
        """Wait for the zygote's report of the end; a zygote that breaks the protocol or dies
        is killed (with its namespace, so with the program)."""
        zygote = self.zygote
        if zygote.alive:
            try:
                ready, _, _ = select.select([zygote.control], [], [], timeout)
            except (OSError, ValueError):
                ready = [zygote.control]
            if not ready:
                return False
            event = zygote._receive()
            if isinstance(event, Exited):
                self._ended(event.status)
                return True
            zygote.close()
        self._ended(-signal.SIGKILL)
        return True

    def _ended(self, status: int) -> None:
        self.returncode = status
        try:
            os.close(self.handle)
        except OSError:
            pass


def _host_pid(init: int, namespace_pid: int) -> int | None:
    """The host pid of the child of ``init`` whose pid in its namespace is ``namespace_pid``
    (a reported pid is never trusted blindly)."""
    for child in kernel_children(init) or []:
        pids = (status_field(child, "NSpid") or "").split()  # host pid ... innermost pid
        if pids and pids[-1] == str(namespace_pid):
            return child
    return None


def _is_child_of(pid: int, parent: int) -> bool:
    """Whether ``pid`` is a direct child of ``parent`` (a reported pid is never trusted blindly)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return int(fields[1]) == parent
    except (OSError, IndexError, ValueError):
        return False
