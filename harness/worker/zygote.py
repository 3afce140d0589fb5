"""The fork server ("zygote"): one forked child per case, each on fresh pipes the grader passes.

Protocol (a SOCK_SEQPACKET socket): the grader sends a ``ForkRequest`` (JSON: at most the
path of the student file to compile ahead) with three descriptors: the case's request pipe,
reply pipe and output pipe (for a ``program``, its stdin, stdout and stderr, and a gate; for
a ``server``, its calls, replies and stderr, and a gate: see ``_pass_gate``). The zygote
forks at once and closes them all; only the child reads the request, so no case's inputs
ever enter the zygote, and a later case forked from it cannot find them. The zygote answers
``{"event": "started", "pid"}``, waits for the child, sweeps its leftovers, and answers
``{"event": "exited", "status"}``. Student code only ever runs in the children.
"""
from __future__ import annotations

import io
import json
import os
import socket
import sys
import time
import traceback

from .handle import Trace, handle, mark, server_request
from .imports import import_from_case_folder, precompile, preload_allowed_packages
from .requests import ForkOrder, Program, RequestError, fork_order_of, request_of

TYPE_CHECKING = False  # typing is not imported: a fresh worker would pay for it
if TYPE_CHECKING:
    from typing import NoReturn


def _sweep(child: int) -> None:
    """Kill whatever the case left behind, and reap it.

    As pid 1 of a pid namespace, ``kill(-1)`` reaches every other process in the namespace
    (orphans included); otherwise only the case's own session can be killed.
    """
    import signal
    try:
        if os.getpid() == 1:
            os.kill(-1, signal.SIGKILL)
        else:
            os.killpg(child, signal.SIGKILL)
    except OSError:
        pass
    while True:
        try:
            pid, _ = os.waitpid(-1, 0 if os.getpid() == 1 else os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _case_child(control: socket.socket, fds: list[int]) -> None:
    """In the forked child: become the case (own session, output pipe), read its request
    (whole, from its pipe: in the child, never the zygote)."""
    forked = time.monotonic()
    request_fd, reply_fd, output_fd = fds
    control.close()
    os.setsid()
    os.dup2(output_fd, 1)
    os.dup2(output_fd, 2)
    os.close(output_fd)
    with os.fdopen(request_fd, "rb") as stream:
        request = request_of(stream.read())
    handle(request, reply_fd, trace={"forked": forked, "read": time.monotonic()})


def _pass_gate(gate: int) -> None:
    """A long-lived child waits until the grader holds a handle on it (a pidfd: signals then
    never reach another process that reused its pid); the gate closing unopened ends it."""
    opened = os.read(gate, 1)
    os.close(gate)
    if not opened:
        os._exit(0)


def _server_child(control: socket.socket, fds: list[int]) -> None:
    """In the forked child: become a call server, as a fresh one started with ``main.py
    REPLY_FD REQUEST_FD`` is: own session, stdout going nowhere, stderr to the third pipe."""
    calls_fd, reply_fd, stderr_fd = fds
    control.close()
    os.setsid()
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(stderr_fd, 2)
    os.close(devnull)
    os.close(stderr_fd)
    handle(server_request(calls_fd), reply_fd, calls_fd)


def _program_child(control: socket.socket, fds: list[int], program: Program) -> NoReturn:
    """In the forked child: become ``python -u SCRIPT ARGS`` run in ``cwd`` (own session, the
    three pipes as stdin, stdout and stderr), and end as that interpreter would: exit handlers
    and non-daemon threads run, the status is the script's."""
    control.close()
    os.setsid()
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(program.cwd)
    # As -u makes them: stdin buffered, stdout and stderr written through at once.
    sys.stdin = open(0, encoding="utf-8", closefd=False)
    sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8",
                                  write_through=True)
    sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8",
                                  errors="backslashreplace", write_through=True)
    for name in ("stdin", "stdout", "stderr"):  # sys.__stdout__ is sys.stdout, as at start-up
        setattr(sys, f"__{name}__", getattr(sys, name))
    script = os.path.join(os.getcwd(), program.script)
    sys.argv = [program.script, *program.args]
    import_from_case_folder(program.packages)
    status: object = None
    try:
        import builtins
        import importlib.machinery
        import types
        main = types.ModuleType("__main__")  # what the interpreter makes of a script
        main.__dict__.update(__file__=script, __cached__=None, __builtins__=builtins,
                             __loader__=importlib.machinery.SourceFileLoader("__main__", script))
        sys.modules["__main__"] = main
        with open(script, "rb") as source:
            code = compile(source.read(), script, "exec", dont_inherit=True)
        exec(code, main.__dict__)
    except SystemExit as exc:
        status = exc.code
    except BaseException as exc:  # shown as the interpreter would: from the script's frame on
        where = exc.__traceback__
        while where is not None and where.tb_frame.f_code.co_filename != script:
            where = where.tb_next
        traceback.print_exception(type(exc), exc, where)
        status = 1
    raise SystemExit(status)  # out through the zygote's frames: the interpreter's own exit


PR_SET_DUMPABLE = 4


def _set_dumpable(dumpable: bool) -> None:
    """Whether processes of our own user may trace this one, read its memory or take its
    descriptors (``pidfd_getfd``). The zygote is not: a case it forked, running as the same
    user, could otherwise take the zygote's control socket and send the grader false "exited"
    events that cost later cases their points. Each case turns it back on for itself, so it
    runs as a fresh process would (its ``/proc/self`` owned by its user)."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, int(dumpable), 0, 0, 0)
    except (OSError, AttributeError):  # no prctl: nothing stronger to be had here
        pass


# keyctl's system call number (harness.sandbox.keyrings.KEYCTL_NUMBERS; the worker imports no
# harness module).
_KEYCTL = {"x86_64": 250, "aarch64": 219}


def _own_session_keyring() -> None:
    """Join a new session keyring: cases forked from one zygote would otherwise share its
    session keyring, and (where no system-call filter refuses keyctl and add_key) a key one
    case filed there would be found by the next. Refused under the filter, which is fine."""
    try:
        import ctypes
        # os.uname, not platform.machine (the same name): no import in the child (prepare_zygote)
        number = _KEYCTL.get(os.uname().machine)
        if number is not None:
            ctypes.CDLL(None, use_errno=True).syscall(number, 1, None)  # JOIN_SESSION_KEYRING
    except (OSError, AttributeError):
        pass


def prepare_zygote() -> None:
    """The zygote's own set-up, with the modules every case needs imported here once: a module
    a case's child imports, every case imports again (``platform`` was 2.3 ms of a 3.3 ms fork).
    """
    import gc
    gc.disable()  # no freed holes in the pages the children share (enabled in each child)
    _set_dumpable(False)
    for name in ("inspect", "traceback", "importlib.util", "resource", "signal"):
        __import__(name)


def become_case_process() -> None:
    """In each forked child first: what sets a case's process apart from the zygote (imports
    nothing the zygote has not: tests/harness/sandbox/test_sandbox_overhead.py)."""
    import gc
    gc.enable()
    _set_dumpable(True)
    _own_session_keyring()


def _child(control: socket.socket, fds: list[int], order: ForkOrder) -> None:
    """In the forked child: become what the order asks for (never returns to the loop)."""
    become_case_process()
    if order.program is not None or order.server:
        _pass_gate(fds.pop())
    if order.program is not None:
        _program_child(control, fds, order.program)
    if order.server:
        _server_child(control, fds)
    _case_child(control, fds)


def zygote(control_fd: int) -> None:
    """Fork server: one forked child per case; see the module docstring."""
    import gc
    prepare_zygote()
    control = socket.socket(fileno=control_fd)
    while True:
        try:
            data, fds, _, _ = socket.recv_fds(control, 1 << 16, 4)
        except OSError:
            os._exit(0)
        if not data:
            os._exit(0)
        received = time.monotonic()
        try:
            order = fork_order_of(data)
        except RequestError:
            os._exit(0)
        if len(fds) != order.descriptors:
            os._exit(0)
        trace: Trace | None = {"received": received} if order.trace else None
        if order.precompile:
            precompile(order.precompile)
        preload_allowed_packages(order.packages, order.preload)
        sys.stdout.flush()
        gc.freeze()  # the zygote's objects: a child's collections must not touch (copy) them
        child = os.fork()
        if child == 0:
            _child(control, fds, order)
        for fd in fds:
            os.close(fd)
        control.send(json.dumps({"event": "started", "pid": child}).encode())
        status = 0
        try:
            _, status = os.waitpid(child, 0)
        except ChildProcessError:
            pass
        mark(trace, "reaped")
        _sweep(child)
        mark(trace, "swept")
        exited: dict[str, object] = {"event": "exited",
                                     "status": os.waitstatus_to_exitcode(status)}
        if trace is not None:
            exited["trace"] = trace
        control.send(json.dumps(exited).encode())
