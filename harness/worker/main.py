"""Sandboxed worker: imports the student module and runs one request, replying in plain JSON.

Usage (started only by ``harness.sandbox.launcher``)::

    python -I -S main.py REPLY_FD [REQUEST_FD]     # one request, read from stdin
    python -I -S main.py zygote CONTROL_FD         # fork server (see ``zygote``)

The request (a JSON object) arrives on stdin, which is then replaced by an empty stream, so student
code sees a closed stdin unless the request supplies ``stdin`` text. The reply goes to REPLY_FD.
Modes:

- ``run``: execute doctest examples in a copy of the module's globals; one observation each.
- ``preflight``: import the module and report the signatures of the names the spec lists.
- ``serve``: import once, then answer ``{"function", "args"}`` lines from REQUEST_FD until EOF.

Values are encoded with exact-type checks (see ``encode``): a subclass of a builtin, or any other
object, becomes ``{"opaque": type name}`` and its methods are never called.
"""
from __future__ import annotations

import importlib.util
import io
import json
import math
import os
import sys
import time
import traceback

MAX_TEXT = 8192
MAX_NODES = 200_000
MAX_DEPTH = 200


class _BoundedText(io.TextIOBase):
    """A text sink that keeps the first MAX_TEXT characters and counts the rest."""

    def __init__(self) -> None:
        self.parts: list = []
        self.kept = 0
        self.dropped = 0

    def writable(self) -> bool:
        return True

    def write(self, text) -> int:
        text = str(text) if type(text) is not str else text
        room = MAX_TEXT - self.kept
        if room > 0:
            self.parts.append(text[:room])
            self.kept += min(room, len(text))
        self.dropped += max(0, len(text) - max(room, 0))
        return len(text)

    def value(self) -> str:
        text = "".join(self.parts)
        if self.dropped:
            text += f"\n[... {self.dropped} more characters not kept]"
        return text


class _TranscriptText(_BoundedText):
    """Everything printed, plus apart what the transcript's own code printed.

    ``print`` is a builtin, so the frame that calls ``write`` is the one that called ``print``:
    an example's frame (file ``<example N>``) for the transcript's output, a student frame for
    debug lines. Graders judge the transcript's output; the student's prints are not answers.
    """

    def __init__(self) -> None:
        super().__init__()
        self.transcript = _BoundedText()

    def write(self, text) -> int:
        caller = _getframe(1).f_code.co_filename
        if type(caller) is str and caller.startswith(EXAMPLE_FILE_PREFIX):
            self.transcript.write(text)
        return super().write(text)


EXAMPLE_FILE_PREFIX = "<example "
_getframe = sys._getframe  # bound before student code runs, which may replace sys._getframe


class TooLarge(Exception):
    """Raised when a value has too many nodes or is nested too deeply to send back."""


def _type_name(value) -> str:
    cls = type(value)
    try:
        module = type.__getattribute__(cls, "__module__")
        name = type.__getattribute__(cls, "__qualname__")
        return name if module == "builtins" else f"{module}.{name}"
    except Exception:
        return "<unnamed type>"


def encode(value, budget=None, depth=0):
    """Encode ``value`` as type-tagged JSON data; see docs/architecture.md, "Wire format"."""
    if budget is None:
        budget = [MAX_NODES]
    budget[0] -= 1
    if budget[0] < 0 or depth > MAX_DEPTH:
        raise TooLarge("the value is too large or too deeply nested to compare")
    cls = type(value)
    if value is None or cls is bool or cls is int or cls is str:
        return value
    if cls is float:
        if math.isnan(value):
            return {"float": "nan"}
        if math.isinf(value):
            return {"float": "inf" if value > 0 else "-inf"}
        return value
    if cls is list:
        return [encode(item, budget, depth + 1) for item in list.__iter__(value)]
    if cls is tuple:
        return {"tuple": [encode(item, budget, depth + 1) for item in tuple.__iter__(value)]}
    if cls is set or cls is frozenset:
        return {cls.__name__: [encode(item, budget, depth + 1) for item in cls.__iter__(value)]}
    if cls is dict:
        return {"dict": [[encode(k, budget, depth + 1), encode(v, budget, depth + 1)]
                         for k, v in dict.items(value)]}
    return {"opaque": _type_name(value)}


def decode(data):
    """Inverse of ``encode`` for arguments sent by the trusted side (never opaque)."""
    if isinstance(data, list):
        return [decode(item) for item in data]
    if isinstance(data, dict):
        (tag, body), = data.items()
        if tag == "tuple":
            return tuple(decode(item) for item in body)
        if tag in ("set", "frozenset"):
            return (set if tag == "set" else frozenset)(decode(item) for item in body)
        if tag == "dict":
            return {decode(k): decode(v) for k, v in body}
        if tag == "float":
            return float(body)
        raise ValueError(f"unknown tag {tag!r}")
    return data


def describe_error(exc: BaseException, student_file: str) -> dict:
    """Plain-data description of an exception, with the traceback cut to the frames of files in
    the case folder (the student's files) and of the test code."""
    folder = os.path.dirname(student_file) + os.sep
    if isinstance(exc, SystemExit):
        return {"type": "SystemExit", "message": f"called sys.exit({exc.code!r})", "where": ""}
    try:
        message = str(exc)
    except BaseException:
        message = "<the exception's message could not be read>"
    where = []
    if isinstance(exc, SyntaxError) and (exc.filename or "").startswith(folder):
        where.append(f"{os.path.basename(exc.filename or '')}, line {exc.lineno}: "
                     f"{(exc.text or '').strip()}")
    else:
        for frame in traceback.extract_tb(exc.__traceback__):
            if frame.filename.startswith(folder) or frame.filename.startswith("<example"):
                label = os.path.basename(frame.filename) if frame.filename.startswith(folder) \
                    else "test code"
                where.append(f"{label}, line {frame.lineno}, in {frame.name}: {frame.line or ''}")
    return {"type": _type_name(exc), "message": message[:MAX_TEXT], "where": "\n".join(where[-8:])}


_COMPILED: dict = {}


def precompile(path: str) -> None:
    """Compile (never run) a source file ahead, keyed by path and content (zygote only)."""
    try:
        with open(path, "rb") as source:
            data = source.read()
        key = (path, hash(data))
        if key not in _COMPILED:
            _COMPILED.clear()
            _COMPILED[key] = compile(data, path, "exec", dont_inherit=True)
    except Exception:  # the child will import normally and report the problem itself
        pass


def import_student(module_name: str, path: str):
    """Import the student's file as ``module_name`` (the name the handout gives it)."""
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    code = None
    if _COMPILED:
        with open(path, "rb") as source:
            code = _COMPILED.get((path, hash(source.read())))
    if code is None:
        spec.loader.exec_module(module)
    else:
        exec(code, module.__dict__)
    return module


def run_examples(module, request, path) -> list:
    """Execute each example like the interactive prompt; stop at the first error."""
    namespace = dict(vars(module))
    namespace["__name__"] = "__gamegrader__"
    shown = []
    # Like the interactive prompt and doctest: an expression whose value is None shows nothing.
    sys.displayhook = lambda value: None if value is None else shown.append(value)
    observations = []
    for index, source in enumerate(request["examples"]):
        shown.clear()
        capture = _TranscriptText()
        sys.stdout = capture
        observation = {"stdout": "", "has_value": False}
        try:
            code = compile(source, f"{EXAMPLE_FILE_PREFIX}{index + 1}>", "single")
            exec(code, namespace)
        except BaseException as exc:  # student code may raise anything, SystemExit included
            observation["error"] = describe_error(exc, path)
        finally:
            sys.stdout = sys.__stdout__
        observation["stdout"] = capture.value()
        observation["transcript_stdout"] = capture.transcript.value()
        if shown and "error" not in observation:
            try:
                observation["value"] = encode(shown[-1])
                observation["has_value"] = True
            except TooLarge as exc:
                observation["error"] = {"type": "ValueTooLarge", "message": str(exc), "where": ""}
        observations.append(observation)
        if "error" in observation:
            break
    return observations


def _parameters(obj):
    import inspect
    try:
        signature = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    return [[p.name, p.kind.name, p.default is not inspect.Parameter.empty]
            for p in signature.parameters.values()]


def preflight(module, request) -> dict:
    """Report, for each dotted name the spec lists, whether it exists and its parameters."""
    found: dict = {}
    for dotted in request["names"]:
        obj = module
        try:
            for part in dotted.split("."):
                obj = getattr(obj, part)
        except BaseException:
            found[dotted] = None
            continue
        found[dotted] = {"callable": callable(obj), "parameters": _parameters(obj)}
    return found


def serve(module, request_fd: int, reply) -> None:
    """Answer one JSON call per line until the trusted side closes the request pipe."""
    with os.fdopen(request_fd, "r", encoding="utf-8") as requests:
        for line in requests:
            call = json.loads(line)
            answer = {}
            capture = _BoundedText()
            sys.stdout = capture
            try:
                function = getattr(module, call["function"])
                answer["value"] = encode(function(*decode(call["args"])))
            except BaseException as exc:
                answer["error"] = describe_error(exc, module.__file__)
            finally:
                sys.stdout = sys.__stdout__
            answer["stdout"] = capture.value()
            reply.write(json.dumps(answer) + "\n")
            reply.flush()


def handle(request: dict, reply_fd: int, request_fd: int | None = None) -> None:
    """Serve one request in this process, reply on ``reply_fd``, and exit without cleanup."""
    reply = os.fdopen(reply_fd, "w", encoding="utf-8")
    if request.get("cwd"):
        os.chdir(request["cwd"])
    if request.get("cpu_seconds"):
        import resource
        _, hard = resource.getrlimit(resource.RLIMIT_CPU)
        wanted = int(request["cpu_seconds"]) + int(time.process_time()) + 1
        if hard == resource.RLIM_INFINITY or wanted <= hard:
            resource.setrlimit(resource.RLIMIT_CPU, (wanted, hard))
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    sys.stdin = io.StringIO(request.get("stdin") or "")
    sys.path[:] = [os.getcwd()] + [p for p in sys.path if "site-packages" not in p]
    sys.dont_write_bytecode = True
    path = os.path.join(os.getcwd(), request["file"])
    answer = {"mode": request["mode"]}
    try:
        module = import_student(request["module"], path)
    except BaseException as exc:
        answer["import_error"] = describe_error(exc, path)
        module = None
    if module is not None:
        if request["mode"] == "run":
            answer["observations"] = run_examples(module, request, path)
        elif request["mode"] == "preflight":
            answer["names"] = preflight(module, request)
        elif request["mode"] == "serve" and request_fd is not None:
            reply.write(json.dumps({"ready": True}) + "\n")
            reply.flush()
            serve(module, request_fd, reply)
            os._exit(0)
    reply.write(json.dumps(answer))
    reply.flush()
    # Skip interpreter shutdown: no student atexit handler or non-daemon thread gets to run.
    os._exit(0)


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


def zygote(control_fd: int) -> None:
    """Fork server: one forked child per request, each on fresh pipes passed by the grader.

    Protocol (a SOCK_SEQPACKET socket): the grader sends a JSON request with two descriptors
    (reply pipe, output pipe); the zygote answers ``{"started": pid}``, waits for the child,
    sweeps its leftovers, and answers ``{"exited": status}``. Student code only ever runs in
    the children, never in the zygote.
    """
    import socket
    control = socket.socket(fileno=control_fd)
    for name in ("inspect", "traceback", "importlib.util", "resource", "signal"):
        __import__(name)
    while True:
        try:
            data, fds, _, _ = socket.recv_fds(control, 1 << 22, 2)
        except OSError:
            os._exit(0)
        if not data or len(fds) != 2:
            os._exit(0)
        request = json.loads(data)
        reply_fd, output_fd = fds
        if request.get("cwd") and request.get("file"):
            precompile(os.path.join(request["cwd"], request["file"]))
        sys.stdout.flush()
        child = os.fork()
        if child == 0:
            control.close()
            os.setsid()
            os.dup2(output_fd, 1)
            os.dup2(output_fd, 2)
            os.close(output_fd)
            handle(request, reply_fd)
        os.close(reply_fd)
        os.close(output_fd)
        control.send(json.dumps({"started": child}).encode())
        status = 0
        try:
            _, status = os.waitpid(child, 0)
        except ChildProcessError:
            pass
        _sweep(child)
        control.send(json.dumps({"exited": os.waitstatus_to_exitcode(status)}).encode())


def main() -> None:
    if sys.argv[1] == "zygote":
        devnull = os.open(os.devnull, os.O_RDWR)
        os.dup2(devnull, 0)
        zygote(int(sys.argv[2]))
        return
    request = json.loads(sys.stdin.read())
    handle(request, int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else None)


if __name__ == "__main__":
    main()
