"""One request served in this process, whichever way it was started (a fresh interpreter, or a
child the zygote forked): the case's limits set, the student's module imported, the mode run,
one reply sent, and the process ended without cleanup."""
from __future__ import annotations

import io
import os
import sys
import time

from .bounds import REQUEST_LINE_LIMIT
from .encode import describe_error
from .imports import import_from_case_folder, import_student, resolve_names
from .preflight import preflight
from .requests import Request, request_of
from .run import run_examples
from .serve import send, serve

TYPE_CHECKING = False  # typing is not imported: a fresh worker would pay for it
if TYPE_CHECKING:
    from typing import Any

Trace = dict[str, float]
_cpu_times = os.times  # bound before student code runs: the case's CPU is read after it ran


def set_cpu_limit(seconds: int) -> None:
    """Lower the CPU-time limit to this case's (the kernel stops code that ignores signals);
    where the system has no rlimits (Windows) the grader's wall clock is the only limit."""
    try:
        import resource
    except ImportError:
        return
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    wanted = seconds + int(time.process_time()) + 1
    if hard == resource.RLIM_INFINITY or wanted <= hard:
        resource.setrlimit(resource.RLIMIT_CPU, (wanted, hard))


def mark(trace: Trace | None, step: str) -> None:
    """Note when ``step`` ended, if the request is traced."""
    if trace is not None:
        trace[step] = time.monotonic()


def handle(request: Request, reply_fd: int, request_fd: int | None = None,
           trace: Trace | None = None) -> None:
    """Serve one request in this process, reply on ``reply_fd``, and exit without cleanup.

    With ``trace`` set in the request the reply carries the times (monotonic clock) at which
    each step ended, for the overhead profile (``harness.sandbox.stages``); ``trace`` holds the
    steps already done before the request was read."""
    trace = dict(trace or {}) if request.trace else None
    reply = os.fdopen(reply_fd, "w", encoding="utf-8")
    if request.cwd:
        os.chdir(request.cwd)
    if request.cpu_seconds:
        set_cpu_limit(request.cpu_seconds)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    sys.stdin = io.StringIO(request.stdin or "")
    import_from_case_folder(request.packages)
    path = os.path.join(os.getcwd(), request.file)
    answer: dict[str, Any] = {"mode": request.mode}
    mark(trace, "setup")
    started = time.process_time()
    try:
        module = import_student(request.module, path)
    except BaseException as exc:
        answer["import_error"] = describe_error(exc, path)
        module = None
    if request.mode == "preflight":
        answer["import_cpu_seconds"] = max(0.0, time.process_time() - started)
    mark(trace, "imported")
    if module is not None and request.resolver:
        answer["resolver_notes"] = resolve_names(request.resolver, module)
    if module is not None:
        if request.mode == "run":
            answer["observations"] = run_examples(module, request.examples, path)
        elif request.mode == "preflight":
            answer["names"] = preflight(module, request.names)
        elif request.mode == "serve" and request_fd is not None:
            send(reply, {"mode": "serve", "ready": True})
            serve(module, request_fd, reply)
            os._exit(0)
    mark(trace, "ran")
    if request.mode == "run":
        used = _cpu_times()  # since the fork or the interpreter's start (a fork starts at 0)
        answer["cpu_seconds"] = max(0.0, used[0] + used[1] + used[2] + used[3])
    if trace is not None:
        answer["trace"] = trace
    send(reply, answer)
    # Skip interpreter shutdown: no student atexit handler or non-daemon thread gets to run.
    os._exit(0)


def server_request(calls_fd: int) -> Request:
    """A call server's request: the first line of its calls pipe, read byte by byte (the
    calls follow it, and must stay in the pipe for ``serve``)."""
    line = bytearray()
    while not line.endswith(b"\n") and len(line) < REQUEST_LINE_LIMIT:
        byte = os.read(calls_fd, 1)
        if not byte:
            os._exit(0)
        line += byte
    return request_of(line)
