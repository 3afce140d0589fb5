"""Warm processes: start-up paid once per worker, a fresh forked process for every job.

A batch grades each submission, and a tournament plays each game, in a process of its own, so
that nothing one job does in memory reaches the next and a job that hangs can be killed alone.
Starting that process as a fresh interpreter costs more than a small job itself: the interpreter
starts, imports the harness and its libraries, imports the assignment's comparators or the
game's rules, and finds the machine's isolation level (a probe process). On two cores that
start-up is what kept two workers from going twice as fast as one.

A :class:`WarmProcess` (``python -m harness.parallel.warm_process``) pays it once. It is sent jobs
as pickled ``(function, args)``: unpickling a job imports its modules in the warm process, a
``warm`` call (e.g. detecting the isolation level) runs there once, and then the job runs in a
child forked from it. The child runs ``function(*args)``, hands back what it returned, and
exits; the next job gets a new child of the same warm process. Should the warm process ever
hold a second thread, forking it would be unsafe: the child then runs the job in a fresh
interpreter instead (``--once``).

A job's child stops on Ctrl-C and SIGTERM as a command does (``harness.interrupts``: its
function sees a ``KeyboardInterrupt``); the warm process itself holds both blocked, and passes an
interrupt on to its job when asked (:meth:`WarmPool.interrupt`: ``SIGUSR1`` stops the job as
Ctrl-C would, ``SIGUSR2`` kills it). A warm process whose caller is gone (killed outright) kills
its job: nobody is left to record what it would return.

An interrupt is never lost to a job that is only starting, whatever the load: a job that has
been handed out but whose child is not forked yet gets the interrupt once it is (the caller
holds it until the warm process names the child), and a child gets a Ctrl-C that reaches it
before its handlers are in place once they are (it inherits the two signals blocked, not
ignored, and unblocks them first thing in its job). A run stopped while one of its threads was
only preparing a job (``harness.parallel.executors.run_local``) reaches that job as it starts.

Pickles travel only between trusted processes of the harness (as with ``multiprocessing``):
student code never runs in a warm process or its children, only in the sandboxes they start.
The warm process gets the caller's ``sys.path`` and, like ``multiprocessing``'s spawn, can
import the caller's main script, so functions and classes defined there can be sent.
"""
from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
import os
import pickle
import select
import signal
import subprocess
import sys
import threading
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Collection, Mapping, Optional, Sequence

from harness.interrupts import STOP_SIGNALS, stop_on_signals
from harness.parallel import affinity
from harness.quick_exit import exit_at_once

SERVER_MODULE = "harness.parallel.warm_process"
STARTUP_SECONDS = 60.0
"""Seconds a warm process may take to start a job's child (its own start and warm-up included)."""
ANSWER_LIMIT = 64 * 1024 * 1024
"""Bytes of one answer line (a job's pickled result): trusted, but never unbounded."""
INTERRUPT_JOB = signal.SIGUSR1
"""Sent to a warm process: stop its running job as Ctrl-C would (the job records that)."""
KILL_JOB = signal.SIGUSR2
"""Sent to a warm process: kill its running job (one that did not stop when interrupted)."""

Call = tuple[Callable[..., Any], Sequence[Any]]


@dataclass(frozen=True)
class JobEnd:
    """How one job ended.

    Attributes:
        status: the child's exit status (negative: killed by that signal); None when it was
            killed for overrunning its deadline.
        value: what the function returned (None when it raised, died or was killed).
        error: why there is no value ("" when there is one).
    """

    status: Optional[int]
    value: Any = None
    error: str = ""
    interrupted: bool = False
    """Whether :meth:`WarmPool.interrupt` asked this job to stop while it ran."""


class WarmProcessGone(RuntimeError):
    """The warm process ended or answered nonsense; it is not used again."""


def _pack(value: Any) -> str:
    return base64.b64encode(pickle.dumps(value)).decode("ascii")


def _unpack(text: str) -> Any:
    return pickle.loads(base64.b64decode(text))


PROJECT = Path(__file__).resolve().parents[2]
"""The folder holding the ``harness`` package this module belongs to."""


def _path_env(env: Mapping[str, str]) -> dict[str, str]:
    """``env`` with this harness and this process's ``sys.path`` in front of PYTHONPATH, so
    the warm process imports every module this one can, with any interpreter."""
    here = [str(PROJECT), *(p for p in sys.path if p)]
    return {**env, "PYTHONPATH": os.pathsep.join([*here, env.get("PYTHONPATH", "")]).rstrip(
        os.pathsep)}


def main_module() -> tuple[str, ...]:
    """How a warm process can import the caller's main module, so that what is defined there
    can be sent to it (multiprocessing's spawn does the same): ``("--main-name", NAME)`` for a
    module run with ``-m``, ``("--main-path", FILE)`` for a script, ``()`` when there is nothing
    to import (``-c``, interactive, or a package's ``__main__``, which is a program that would
    run again)."""
    main = sys.modules.get("__main__")
    name = getattr(getattr(main, "__spec__", None), "name", None)
    if isinstance(name, str):
        return () if name == "__main__" or name.endswith(".__main__") else ("--main-name", name)
    path = getattr(main, "__file__", None)
    if isinstance(path, str) and os.path.isfile(path):
        return ("--main-path", os.path.abspath(path))
    return ()


class WarmProcess:
    """One warm process and its request pipe; used by one thread at a time."""

    def __init__(self, python: str, env: Mapping[str, str], main: Sequence[str] = ()) -> None:
        # A caller that ignores Ctrl-C (a script's background job) has jobs that ignore it too:
        # else a Ctrl-C to the script's group stops each grading while the batch goes on.
        ignoring = [CTRL_C_IGNORED] if signal.getsignal(signal.SIGINT) is signal.SIG_IGN else []
        command = [python, "-m", SERVER_MODULE, *ignoring, *main]
        self.process = subprocess.Popen(
            command, env=_path_env(env), stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert self.process.stdin is not None and self.process.stdout is not None
        self._requests = self.process.stdin
        self._fd = self.process.stdout.fileno()
        self._pending = bytearray()
        self._signals = threading.Lock()
        self.busy = False
        """Whether a job was handed to this process and has not ended (see :meth:`signal_job`)."""
        self._child_named = False
        self._held: list[int] = []

    def begin_job(self) -> None:
        """Mark this process busy with a job about to be sent: from now on :meth:`signal_job`
        reaches that job, even before its child exists."""
        with self._signals:
            self.busy, self._child_named, self._held = True, False, []

    def _end_job(self) -> None:
        with self._signals:
            self.busy, self._child_named, self._held = False, False, []

    def signal_job(self, signum: int) -> None:
        """Ask the warm process to pass ``signum`` (:data:`INTERRUPT_JOB` or :data:`KILL_JOB`)
        on to its job (it knows whether its child still lives, so no other process can be hit).
        Until the warm process has named the job's child, the signal is held and sent then: sent
        earlier, it would find no child to pass it to."""
        with self._signals:
            if not self.busy:
                return
            if not self._child_named:
                self._held.append(signum)
                return
        self._send_signal(signum)

    def _send_signal(self, signum: int) -> None:
        if self.alive:
            try:
                os.kill(self.process.pid, signum)
            except (ProcessLookupError, PermissionError):
                pass

    def _child_started(self) -> None:
        """The warm process named the job's child: send what was held for it."""
        with self._signals:
            self._child_named, held, self._held = True, self._held, []
        for signum in held:
            self._send_signal(signum)

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def _answer(self, deadline: Optional[float]) -> Optional[dict[str, Any]]:
        """The next answer line; None when ``deadline`` (monotonic) passed first.

        Raises:
            WarmProcessGone: the process closed its output or sent something unreadable.
        """
        while b"\n" not in self._pending:
            if len(self._pending) > ANSWER_LIMIT:
                raise WarmProcessGone("the warm process sent an over-long answer")
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([self._fd], [], [], wait)
            if not ready:
                return None
            chunk = os.read(self._fd, 1 << 16)
            if not chunk:
                raise WarmProcessGone("the warm process ended")
            self._pending += chunk
        line, _, rest = bytes(self._pending).partition(b"\n")
        self._pending = bytearray(rest)
        try:
            answer = json.loads(line)
        except ValueError as exc:
            raise WarmProcessGone(f"the warm process sent {line[:80]!r}") from exc
        if not isinstance(answer, dict):
            raise WarmProcessGone(f"the warm process sent {line[:80]!r}")
        return answer

    def call(self, function: Callable[..., Any], args: Sequence[Any], timeout: float, *,
             warm: Optional[Call] = None, own_group: bool = False) -> JobEnd:
        """``function(*args)`` in a child forked from the warm process.

        Args:
            timeout: seconds the child may run (counted from its start); then it is killed.
            warm: ``(function, args)`` run in the warm process before its first job that
                names it (later jobs naming the same call skip it); its errors are ignored.
            own_group: the child leads a process group of its own, and a kill after the
                deadline reaches the whole group; otherwise it stays in the caller's group (so
                Ctrl-C reaches it) and only the child is killed.

        Raises:
            WarmProcessGone: the warm process died or could not start the child.
        """
        request = {"call": _pack((function, tuple(args))), "own_group": own_group,
                   "warm": _pack(warm) if warm is not None else None}
        if not self.busy:  # (a pool marks it busy as it hands the process the job)
            self.begin_job()
        try:
            return self._call(request, timeout, own_group)
        finally:
            self._end_job()

    def _call(self, request: dict[str, Any], timeout: float, own_group: bool) -> JobEnd:
        try:
            self._requests.write(json.dumps(request).encode() + b"\n")
            self._requests.flush()
        except OSError as exc:
            raise WarmProcessGone(f"the warm process stopped reading: {exc}") from exc
        started = self._answer(time.monotonic() + STARTUP_SECONDS)
        if started is None or not isinstance(started.get("pid"), int):
            self.close()
            raise WarmProcessGone("the warm process did not start the job")
        pid = started["pid"]
        self._child_started()
        finished = self._answer(time.monotonic() + timeout)
        if finished is None:
            try:  # still the warm process's unreaped child, so the pid cannot have been reused
                os.killpg(pid, signal.SIGKILL) if own_group else os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self._answer(None)  # the killed child's status; the warm process stays usable
            return JobEnd(None, error=f"it ran longer than {timeout:g} s and was killed")
        status = finished.get("status")
        if not isinstance(status, int):
            raise WarmProcessGone(f"the warm process sent {str(finished)[:80]!r}")
        if isinstance(finished.get("value"), str):
            return JobEnd(status, _unpack(finished["value"]))
        return JobEnd(status, error=str(finished.get("error") or
                                         f"the process ended with status {status}"))

    def close(self) -> None:
        """End the warm process (it exits when its request pipe closes)."""
        try:
            self._requests.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()


def _sweep_after_killed_job() -> None:
    """A job that was killed (its deadline, a signal) or died never closed its sandboxes, and
    without a pid namespace what its students started runs on as their users: kill it now,
    rather than when another job next leases those users (``cleanup.sweep_free_users``)."""
    from harness.sandbox.cleanup import sweep_free_users
    sweep_free_users()


class WarmPool:
    """Idle warm processes, by interpreter, environment and main script. A thread takes one for
    a job and gives it back, so there are as many as jobs ran at once."""

    def __init__(self) -> None:
        self._idle: dict[str, list[WarmProcess]] = {}
        # -> the thread that waits for its job, and the job's own token (a process runs many)
        self._running: dict[WarmProcess, tuple[int, object]] = {}
        self._interrupted: dict[WarmProcess, object] = {}  # -> the job token it was asked for
        self._lock = threading.Lock()

    def interrupt(self, grace: float, threads: Optional[Collection[int]] = None) -> None:
        """Stop every running job as Ctrl-C would (each records that it was cut short and hands
        that back), and kill those still running ``grace`` seconds later. With ``threads``, only
        the jobs called from those threads (``threading.get_ident``): a dask worker's tasks of
        one run, while another run's go on. A job already asked is not asked again, so a caller
        may repeat this to reach jobs that started since."""
        with self._lock:  # signalled under the lock: no job that starts later is reached
            running = [(process, job) for process, (thread, job) in self._running.items()
                       if (threads is None or thread in threads)
                       and self._interrupted.get(process) is not job]
            for process, job in running:
                self._interrupted[process] = job
                process.signal_job(INTERRUPT_JOB)
        if not running:
            return

        def kill_the_rest() -> None:
            # the jobs interrupted, not their processes: a process that went back to the pool
            # may run another job (a dask worker's next run) by now
            with self._lock:
                for process, job in running:
                    if self._running.get(process, (0, None))[1] is job:
                        process.signal_job(KILL_JOB)
        timer = threading.Timer(grace, kill_the_rest)
        timer.daemon = True
        timer.start()

    def call(self, function: Callable[..., Any], args: Sequence[Any], timeout: float, *,
             python: Optional[str] = None, env: Optional[Mapping[str, str]] = None,
             main: Sequence[str] = (), warm: Optional[Call] = None,
             own_group: bool = False) -> JobEnd:
        """:meth:`WarmProcess.call` on an idle warm process for ``python`` (default: this
        interpreter), ``env`` (default: this environment) and ``main`` (see :func:`main_module`); a
        new one if none
        is idle. A warm process that died is replaced: the job gets a JobEnd saying so."""
        python = python or sys.executable
        env = dict(os.environ if env is None else env)
        key = hashlib.sha256(json.dumps([python, list(main), sorted(env.items())]).encode()
                             ).hexdigest()
        with self._lock:
            idle = self._idle.setdefault(key, [])
            process = idle.pop() if idle else None
        if process is None or not process.alive:
            if process is not None:
                process.close()
            process = WarmProcess(python, env, main)
        affinity.pin(process.process.pid)  # the job's child and its sandboxes inherit it
        with self._lock:
            self._running[process] = (threading.get_ident(), object())
            process.begin_job()  # an interrupt from now on reaches this job
        try:
            outcome = process.call(function, args, timeout, warm=warm, own_group=own_group)
        except WarmProcessGone as exc:
            process.close()
            _sweep_after_killed_job()
            outcome = JobEnd(1, error=str(exc))
            return self._noting_interrupt(process, outcome)
        finally:
            with self._lock:
                self._running.pop(process, None)
        outcome = self._noting_interrupt(process, outcome)
        with self._lock:
            self._idle.setdefault(key, []).append(process)
        if outcome.status != 0:
            _sweep_after_killed_job()
        return outcome

    def _noting_interrupt(self, process: WarmProcess, outcome: JobEnd) -> JobEnd:
        """``outcome``, saying whether :meth:`interrupt` reached its job."""
        with self._lock:
            if self._interrupted.pop(process, None) is None:
                return outcome
        return dataclasses.replace(outcome, interrupted=True)

    def close(self) -> None:
        """End every idle warm process (call once no job runs)."""
        with self._lock:
            idle, self._idle = self._idle, {}
        for processes in idle.values():
            for process in processes:
                process.close()


# --- the warm process -----------------------------------------------------------------------

def _run_job(request: dict[str, Any], result_fd: int) -> int:
    """In the job's process: run it, write the answer's value or error to ``result_fd``."""
    try:
        # the handlers are in place: a Ctrl-C held since the fork is raised here
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
        function, args = _unpack(request["call"])
        answer = {"value": _pack(function(*args))}
    except BaseException as exc:  # reported to the caller, never lost
        if not isinstance(exc, KeyboardInterrupt):  # an interrupt is no error to trace
            traceback.print_exc()
        answer = {"error": f"{type(exc).__name__}: {exc}"[:2000]}
    data = json.dumps(answer).encode()
    with os.fdopen(result_fd, "wb") as stream:
        stream.write(data)
    return 0


def _child(request: dict[str, Any], result_fd: int, threaded: bool) -> int:
    """Right after the fork: detach from the warm process's pipes, then run the job (in a fresh
    interpreter when the warm process held other threads at the fork)."""
    for each in (INTERRUPT_JOB, KILL_JOB):
        signal.signal(each, signal.SIG_DFL)
    stop_on_signals(keep_ignored=False)  # Ctrl-C and SIGTERM stop a job as they stop a command
    if _CTRL_C_IGNORED:  # ... unless its caller ignores Ctrl-C
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    if request.get("own_group"):
        os.setsid()
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)  # the answer pipe to the caller is the warm process's alone
    os.close(null)
    if threaded:  # a lock another thread held may have been copied locked: start afresh
        os.set_inheritable(result_fd, True)
        line = json.dumps(request)
        os.execv(sys.executable, [sys.executable, "-m", SERVER_MODULE, "--once", line,
                                  str(result_fd)])
    return _run_job(request, result_fd)


def _exit_now(status: int) -> None:
    """End a job's process once the job has returned: flush what it printed, then exit at once.
    A normal interpreter shutdown would tear down every module the warm process imported (about
    0.2 s on a loaded machine, more than a fast game); what a job opens, it closes itself
    (``with`` blocks, ``close()``), as every harness job does."""
    exit_at_once(status, exit_handlers=False)


def _send(answer: dict[str, Any]) -> None:
    data = json.dumps(answer).encode() + b"\n"
    while data:
        data = data[os.write(1, data):]


CTRL_C_IGNORED = "--ctrl-c-ignored"
"""First argument of a warm process whose caller ignores SIGINT: its jobs ignore it too (and
:data:`INTERRUPT_JOB` reaches them as SIGTERM)."""
_CTRL_C_IGNORED = False

_JOB: list[tuple[int, bool]] = []
"""The warm process's running job: its pid and whether it leads its own group (while it is
unreaped, so the pid is nobody else's)."""


def _pass_on(signum: int, frame: Any) -> None:
    """In the warm process: :data:`INTERRUPT_JOB` becomes SIGINT to the running job,
    :data:`KILL_JOB` SIGKILL (to its whole group when it leads one)."""
    stop = signal.SIGTERM if _CTRL_C_IGNORED else signal.SIGINT  # what the job heeds
    for pid, own_group in _JOB:
        sent = stop if signum == INTERRUPT_JOB else signal.SIGKILL
        try:
            os.killpg(pid, sent) if own_group else os.kill(pid, sent)
        except (ProcessLookupError, PermissionError):
            pass


def _read_all(fd: int) -> bytes:
    """The job's answer, read until the job closes its end. Should the caller go (its end of
    the request pipe closes: it was killed outright), the job is killed: nobody would read it."""
    chunks: list[bytes] = []
    watched = [fd, sys.stdin.fileno()]
    while True:
        ready, _, _ = select.select(watched, [], [])
        if fd not in ready:  # no request comes while a job runs: the caller's end closed
            _pass_on(KILL_JOB, None)
            watched = [fd]
            continue
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            os.close(fd)
            return b"".join(chunks)
        chunks.append(chunk)


def serve() -> int:
    """Answer requests from stdin until it closes (a job's forked child never returns), or
    until the caller is gone."""
    try:
        return _serve()
    except BrokenPipeError:  # the caller was killed: its job was killed too (``_read_all``)
        return 0


def _serve() -> int:
    warmed: set[str] = set()
    for line in sys.stdin.buffer:
        request = json.loads(line)
        warm = request.get("warm")
        if warm and warm not in warmed:
            warmed.add(warm)
            try:
                function, args = _unpack(warm)
                function(*args)
            except Exception:  # only an optimisation; the job meets the error
                pass
        try:
            _unpack(request["call"])  # imports the job's modules here, once for every child
        except Exception:  # the child meets the same error and reports it
            pass
        sys.stdout.flush()
        sys.stderr.flush()
        read_end, write_end = os.pipe()
        threaded = threading.active_count() > 1  # in the child, Python forgets the others
        pid = os.fork()
        if pid == 0:
            os.close(read_end)
            _exit_now(_child(request, write_end, threaded))
        os.close(write_end)
        _JOB.append((pid, bool(request.get("own_group"))))
        _send({"pid": pid})
        data = _read_all(read_end)
        if request.get("own_group"):
            # Whatever the job left running in its group dies with it. The child is waited
            # for but not reaped first, so its pid (the group's id) cannot be anyone else's.
            os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
            try:
                os.killpg(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        _JOB.clear()  # before it is reaped: from now on its pid may be anyone's
        _, status = os.waitpid(pid, 0)
        try:
            answer = json.loads(data) if data else {}
        except ValueError:
            answer = {}
        answer = answer if isinstance(answer, dict) else {}
        _send({**answer, "status": os.waitstatus_to_exitcode(status)})
    return 0


def main(argv: Sequence[str]) -> int:
    """The warm process (``--main-name NAME`` or ``--main-path FILE`` first imports the
    caller's main module as ``__main__``'s stand-in), or with ``--once REQUEST FD`` one job in
    a fresh interpreter."""
    if argv[:1] == ["--once"]:  # the fork's handlers (ignored Ctrl-C included) came along
        stop_on_signals(keep_ignored=True)
        return _run_job(json.loads(argv[1]), int(argv[2]))
    if argv[:1] == [CTRL_C_IGNORED]:
        global _CTRL_C_IGNORED
        _CTRL_C_IGNORED, argv = True, argv[1:]
    # Ctrl-C and SIGTERM are for the jobs, which record that they stopped. The warm process
    # holds them blocked rather than ignored: a child inherits both, and one that reaches it
    # before its handlers are in place waits for them (an ignored one would be lost).
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    for each in STOP_SIGNALS:
        signal.signal(each, signal.SIG_DFL)
    for each in (INTERRUPT_JOB, KILL_JOB):
        signal.signal(each, _pass_on)
    try:  # jobs that need the main module fail without it, and say why
        if argv[:1] == ["--main-name"]:
            import importlib
            sys.modules["__main__"] = importlib.import_module(argv[1])
        elif argv[:1] == ["--main-path"]:
            from multiprocessing.spawn import import_main_path
            import_main_path(argv[1])
    except Exception:
        pass
    return serve()
