"""Sandboxed worker: imports the student module and runs one request, replying in plain JSON.

Usage (started only by ``harness.sandbox.launcher``)::

    python -I -S main.py REPLY_FD [REQUEST_FD]     # one request (a server's: on REQUEST_FD)
    python -I -S main.py zygote CONTROL_FD         # fork server (see ``zygote``)

The request (a JSON object) arrives on stdin, or for a call server as the first line of
REQUEST_FD; stdin is then replaced by an empty stream, so student code sees a closed stdin
unless the request supplies ``stdin`` text. The reply goes to REPLY_FD.
Modes:

- ``run``: execute doctest examples in a copy of the module's globals; one observation each.
- ``preflight``: import the module and report the signatures of the names the spec lists.
- ``serve``: import once, then answer ``{"function", "args"}`` lines from REQUEST_FD until EOF.

Messages follow ``harness/wire/protocol.py`` (docs/architecture.md, "Wire format"), written here
with stdlib ``json`` as one ASCII line each. Values are flat node lists encoded with exact-type
checks (see ``encode``): a subclass of a builtin, or any other object, becomes ``["opaque", type
name]`` and its methods are never called (a named tuple, which keeps tuple's equality, is sent as
the tuple it holds: ``named_tuple``). Every text is cut to the protocol's bounds before it is sent.
"""
from __future__ import annotations

import importlib.machinery
import importlib.util
import io
import json
import os
import sys
import time
import traceback

MAX_TEXT = 8192
MAX_WHERE = 4096
MAX_NAME = 512
MAX_NODES = 200_000
MAX_DEPTH = 200
MAX_STRING = 1 << 20
INT64 = (-(1 << 63), (1 << 63) - 1)


def plain_text(text, limit: int) -> str:
    """``text`` as a plain ``str`` JSON can carry (lone surrogates written as ``\\udXXX``), at
    most ``limit`` characters. A ``str`` subclass is read through ``str``'s own methods."""
    if not isinstance(text, str):
        return ""
    text = str.encode(text, "utf-8", "backslashreplace").decode("utf-8")
    return text[:limit]


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
        text = plain_text("".join(self.parts), MAX_TEXT)
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
_cpu_times = os.times  # likewise: the case's CPU seconds are read after its code ran


class TooLarge(Exception):
    """Raised when a value has too many nodes or is nested too deeply to send back."""


def _type_name(value) -> str:
    cls = type(value)
    try:
        module = type.__getattribute__(cls, "__module__")
        name = type.__getattribute__(cls, "__qualname__")
        name = name if module == "builtins" else f"{module}.{name}"
        return plain_text(name, MAX_NAME) or "<unnamed type>"
    except Exception:
        return "<unnamed type>"


def _scalar_node(value, cls):
    """The node of a scalar, or None if ``value`` is not an exact builtin scalar."""
    if cls is int:
        if INT64[0] <= value <= INT64[1]:
            return value
        try:
            return ["int", int.__repr__(value)]
        except ValueError:  # more digits than int -> str allows
            raise TooLarge("the value is too large or too deeply nested to compare")
    if cls is float:
        if value != value:
            return ["float", "nan"]
        if value in (float("inf"), float("-inf")):
            return ["float", "inf" if value > 0 else "-inf"]
        return value
    if len(value) > MAX_STRING:
        raise TooLarge("the value is too large or too deeply nested to compare")
    try:
        str.encode(value, "utf-8")
        return value
    except UnicodeEncodeError:  # lone surrogates: the exact code points, as hex UTF-8 bytes
        return ["str", str.encode(value, "utf-8", "surrogatepass").hex()]


def encode(value) -> list:
    """Encode ``value`` as a flat, pre-order node list; see docs/architecture.md, "Wire format".

    Only exact builtin types are read (through the builtin's own methods); anything else is
    ``["opaque", type name]``. Iterative, so the student's recursion limit does not matter.
    """
    nodes: list = []
    pending = [(value, 0)]
    while pending:
        item, depth = pending.pop()
        if len(nodes) >= MAX_NODES or depth > MAX_DEPTH:
            raise TooLarge("the value is too large or too deeply nested to compare")
        cls = type(item)
        if item is None or cls is bool:
            nodes.append(item)
        elif cls is int or cls is float or cls is str:
            nodes.append(_scalar_node(item, cls))
        elif cls is list or cls is tuple or cls is set or cls is frozenset or cls is dict:
            size = cls.__len__(item)
            if len(nodes) + len(pending) + size * (2 if cls is dict else 1) > MAX_NODES:
                raise TooLarge("the value is too large or too deeply nested to compare")
            if cls is dict:
                children = [part for pair in dict.items(item) for part in pair]
            else:
                children = list(cls.__iter__(item))
            nodes.append([cls.__name__, size])
            pending.extend((child, depth + 1) for child in reversed(children))
        else:
            plain = named_tuple(item, cls)
            if plain is item:
                plain = numpy_scalar(item)
            if plain is item:
                nodes.append(["opaque", _type_name(item)])
            else:
                pending.append((plain, depth))
    return nodes


_MRO_OF = type.__dict__["__mro__"].__get__  # bound before student code runs
_CLASS_DICT_OF = type.__dict__["__dict__"].__get__
_TUPLE_ITER = tuple.__iter__
_COMPARISONS = ("__eq__", "__ne__")


def named_tuple(value, cls):
    """A subclass of ``tuple`` that keeps tuple's own equality (``collections.namedtuple``,
    ``typing.NamedTuple``) as the exact tuple it holds, else ``value`` itself. The handouts'
    moves and answers are tuples or lists, the course's tests compared with ``==``, and a
    named tuple equals the tuple of its items: ``Move(3, 4) == (3, 4)``. The items are read with
    ``tuple``'s own iterator and the classes only through ``type``'s slots, so no method of the
    student's is called. A class that defines its own ``__eq__`` or ``__ne__`` stays opaque."""
    try:
        mro = _MRO_OF(cls)
    except TypeError:
        return value
    for base in mro:
        if base is tuple:
            return (*_TUPLE_ITER(value),)
        names = _CLASS_DICT_OF(base)
        for name in _COMPARISONS:
            if name in names:
                return value
    return value


def numpy_scalar(value):
    """A numpy scalar (``np.int64``, ``np.float64``, ``np.bool_``, ``np.str_``) as the Python
    value it holds, else ``value`` itself. numpy is an allowed package, and its sums and counts
    return such scalars where the handout shows an int; the course's tests compared them with
    ``==`` and accepted them. ``numpy.generic.item`` reads the stored number itself, so no
    method of the object is called. Arrays stay opaque: no handout shows one."""
    numpy = sys.modules.get("numpy")
    generic = getattr(numpy, "generic", None)
    if not isinstance(generic, type) or not isinstance(value, generic):
        return value
    try:
        plain = generic.item(value)
    except Exception:
        return value
    return plain if type(plain) in (bool, int, float, str) else value


def numpy_scalars_print_plainly() -> None:
    """Make numpy 2 print its scalars inside containers as numpy 1 did: ``(0, 1)``, not
    ``(np.int64(0), np.int64(1))``. The courses' transcripts were written, and their tests run,
    with numpy 1, where a move built from numpy indexes printed exactly like one of ints; a
    transcript that prints such a value (``print(move, board)``) compares that text. Only when
    the student's code has imported numpy (never imported here); numpy 1 needs nothing."""
    numpy = sys.modules.get("numpy")
    if numpy is None:
        return
    try:
        major = str.split(numpy.__version__, ".")[0]
        if major.isdigit() and int(major) >= 2:
            numpy.set_printoptions(legacy="1.25")
    except Exception:  # an unusual numpy build: its own printing stays
        pass


def decode(nodes: list):
    """Inverse of ``encode`` for arguments sent by the trusted side (trusted, never opaque, and
    shallow: plain recursion is enough here)."""
    position = iter(nodes)

    def build():
        node = next(position)
        if type(node) is not list:
            return node
        tag, body = node
        if tag == "dict":
            return {build(): build() for _ in range(body)}
        if tag in ("list", "tuple", "set", "frozenset"):
            return {"list": list, "tuple": tuple, "set": set,
                    "frozenset": frozenset}[tag](build() for _ in range(body))
        if tag == "float":
            return float(body)
        if tag == "int":
            return int(body)
        return bytes.fromhex(body).decode("utf-8", "surrogatepass")

    return build()


def describe_error(exc: BaseException, student_file: str) -> dict:
    """Plain-data description of an exception, with the traceback cut to the frames of files in
    the case folder (the student's files) and of the test code."""
    folder = os.path.dirname(student_file) + os.sep
    if isinstance(exc, SystemExit):
        return {"type": "SystemExit", "where": "",
                "message": plain_text(f"called sys.exit({exc.code!r})", MAX_TEXT)}
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
    return {"type": _type_name(exc), "message": plain_text(message, MAX_TEXT),
            "where": plain_text("\n".join(where[-8:]), MAX_WHERE)}


_COMPILED: dict = {}  # path: (hash of its bytes, code), made by the zygote
MAX_PRECOMPILED_FILES = 64
MAX_PRECOMPILED_BYTES = 1 << 20


def _plain_file_bytes(path: str, limit: int):
    """The bytes of a regular file of at most ``limit`` bytes; None for anything else (never
    follows a link, never blocks on a FIFO)."""
    import stat
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        with os.fdopen(fd, "rb", closefd=False) as source:
            data = source.read(limit + 1)
        return data if len(data) <= limit else None  # grown since fstat
    except OSError:
        return None
    finally:
        os.close(fd)


def precompile(path: str) -> None:
    """Compile (never run) the student's file and the other Python files of its folder ahead,
    each keyed by path and content (zygote only): every case imports them afresh, and a helper
    module compiled in each case (Othello's othello_shared.py: about a millisecond) is work
    the zygote does once. Anything odd is left to the child, which imports it normally."""
    folder = os.path.dirname(path)
    try:
        names = sorted(name for name in os.listdir(folder) if name.endswith(".py"))
    except OSError:
        return
    wanted = [os.path.join(folder, name) for name in names[:MAX_PRECOMPILED_FILES]]
    compiled = {}
    for file in wanted:
        data = _plain_file_bytes(file, MAX_PRECOMPILED_BYTES)
        if data is None:
            continue
        known = _COMPILED.get(file)
        if known is not None and known[0] == hash(data):
            compiled[file] = known
            continue
        try:
            compiled[file] = (hash(data), compile(data, file, "exec", dont_inherit=True))
        except Exception:  # the child will import it normally and report the problem itself
            pass
    _COMPILED.clear()
    _COMPILED.update(compiled)


class PrecompiledLoader(importlib.machinery.SourceFileLoader):
    """The standard source loader, except that a file the zygote compiled, unchanged since,
    is not compiled again (same code: same source, same path, same flags)."""

    def get_code(self, fullname):
        known = _COMPILED.get(self.path)
        if known is not None and hash(self.get_data(self.path)) == known[0]:
            return known[1]
        return super().get_code(fullname)


def use_precompiled(folder: str) -> None:
    """Imports from ``folder`` (the case folder) go through ``PrecompiledLoader``."""
    if _COMPILED:
        machinery = importlib.machinery
        sys.path_importer_cache[folder] = machinery.FileFinder(
            folder, (machinery.ExtensionFileLoader, machinery.EXTENSION_SUFFIXES),
            (PrecompiledLoader, machinery.SOURCE_SUFFIXES),
            (machinery.SourcelessFileLoader, machinery.BYTECODE_SUFFIXES))


def import_student(module_name: str, path: str):
    """Import the student's file as ``module_name`` (the name the handout gives it)."""
    loader = PrecompiledLoader(module_name, path)
    spec = importlib.util.spec_from_file_location(module_name, path, loader=loader)
    if spec is None:  # not with a loader given; typed Optional all the same
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    loader.exec_module(module)
    return module


def run_examples(module, request, path) -> list:
    """Execute each example like the interactive prompt; stop at the first error."""
    namespace = dict(vars(module))
    namespace["__name__"] = "__gamegrader__"
    shown = []
    # Like the interactive prompt and doctest: an expression whose value is None shows nothing.
    sys.displayhook = lambda value: None if value is None else shown.append(value)
    observations = []
    for index, source in enumerate(request.get("examples", [])):
        shown.clear()
        numpy_scalars_print_plainly()  # before each example: an example may import numpy
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
    return [[plain_text(p.name, MAX_NAME), p.kind.name, p.default is not inspect.Parameter.empty]
            for p in list(signature.parameters.values())[:256]]


def preflight(module, request) -> dict:
    """Report, for each dotted name the spec lists, whether it exists and its parameters."""
    found: dict = {}
    for dotted in request.get("names", []):
        obj = module
        try:
            for part in dotted.split("."):
                obj = getattr(obj, part)
        except BaseException:
            found[dotted] = None
            continue
        found[dotted] = {"callable": callable(obj), "parameters": _parameters(obj)}
    return found


def send(reply, message: dict) -> None:
    """Write one message as a JSON line (ASCII only: every text was made plain first)."""
    reply.write(json.dumps(message, allow_nan=False) + "\n")
    reply.flush()


def serve(module, request_fd: int, reply) -> None:
    """Answer one call per line (``{"function", "args"}``) until the trusted side closes the
    request pipe; each answer is one ``CallReply`` line."""
    with os.fdopen(request_fd, "r", encoding="utf-8") as requests:
        for line in requests:
            call = json.loads(line)
            answer: dict = {}
            capture = _BoundedText()
            sys.stdout = capture
            try:
                function = getattr(module, call["function"])
                answer["value"] = encode(function(*decode(call["args"])))
            except BaseException as exc:
                answer.pop("value", None)
                answer["error"] = describe_error(exc, module.__file__)
            finally:
                sys.stdout = sys.__stdout__
            answer["stdout"] = capture.value()
            send(reply, answer)


def resolve_names(resolver: str, module) -> list:
    """Let the assignment's resolver (a probe module of the case folder) bind handout names the
    student's module lacks, e.g. through a registry the starter has students fill in. Returns its
    notes for the feedback; a resolver that fails leaves the module as it was."""
    try:
        notes = importlib.import_module(resolver).resolve(module)
        return [plain_text(str(note), 500) for note in list(notes)[:20]]
    except BaseException:  # student code it touched may raise anything
        return []


def use_allowed_packages(request: dict) -> None:
    """Make the course's allowed third-party packages importable: the grader names a read-only
    folder holding only them. Appended last, so it can never shadow the standard library or the
    student's own files; numpy and the like are imported only by code that asks for them."""
    folder = request.get("packages")
    if isinstance(folder, str) and folder and folder not in sys.path:
        sys.path.append(folder)


def import_from_case_folder(request: dict) -> None:
    """Imports find the case folder (the working directory) first, then the standard library,
    then the allowed packages; never site-packages, and no bytecode is written."""
    sys.path[:] = [os.getcwd()] + [p for p in sys.path if "site-packages" not in p]
    use_allowed_packages(request)
    sys.dont_write_bytecode = True
    use_precompiled(os.getcwd())


def preload_allowed_packages(order: dict) -> None:
    """Zygote only: import the allowed packages and the standard-library modules the student's
    files use, once, before forking (trusted code from the standard library and the read-only
    folder; student code never runs here: the zygote's ``sys.path`` holds no case folder). Each
    case then finds them imported instead of paying the import (numpy: about 0.2 s) inside its
    own time limit. The names come from the fork order (what the student's files import), never
    from a case's inputs."""
    names = order.get("preload")
    if not isinstance(names, list) or not names:
        return
    use_allowed_packages(order)
    for name in names:
        if isinstance(name, str) and name.isidentifier() and name not in sys.modules:
            try:
                __import__(name)
            except Exception:  # the case imports it again and reports the problem itself
                pass


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


def handle(request: dict, reply_fd: int, request_fd: int | None = None,
           trace: dict | None = None) -> None:
    """Serve one request in this process, reply on ``reply_fd``, and exit without cleanup.

    With ``"trace": true`` in the request the reply carries the times (monotonic clock) at which
    each step ended, for the overhead profile (``harness.sandbox.stages``); ``trace`` holds the
    steps already done before the request was read."""
    trace = dict(trace or {}) if request.get("trace") else None
    reply = os.fdopen(reply_fd, "w", encoding="utf-8")
    if request.get("cwd"):
        os.chdir(request["cwd"])
    if request.get("cpu_seconds"):
        set_cpu_limit(int(request["cpu_seconds"]))
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    sys.stdin = io.StringIO(request.get("stdin") or "")
    import_from_case_folder(request)
    path = os.path.join(os.getcwd(), request["file"])
    answer = {"mode": request["mode"]}
    _mark(trace, "setup")
    started = time.process_time()
    try:
        module = import_student(request["module"], path)
    except BaseException as exc:
        answer["import_error"] = describe_error(exc, path)
        module = None
    if request["mode"] == "preflight":
        answer["import_cpu_seconds"] = max(0.0, time.process_time() - started)
    _mark(trace, "imported")
    if module is not None and request.get("resolver"):
        answer["resolver_notes"] = resolve_names(request["resolver"], module)
    if module is not None:
        if request["mode"] == "run":
            answer["observations"] = run_examples(module, request, path)
        elif request["mode"] == "preflight":
            answer["names"] = preflight(module, request)
        elif request["mode"] == "serve" and request_fd is not None:
            send(reply, {"mode": "serve", "ready": True})
            serve(module, request_fd, reply)
            os._exit(0)
    _mark(trace, "ran")
    if request["mode"] == "run":
        used = _cpu_times()  # since the fork or the interpreter's start (a fork starts at 0)
        answer["cpu_seconds"] = max(0.0, used[0] + used[1] + used[2] + used[3])
    if trace is not None:
        answer["trace"] = trace
    send(reply, answer)
    # Skip interpreter shutdown: no student atexit handler or non-daemon thread gets to run.
    os._exit(0)


def _mark(trace: dict | None, step: str) -> None:
    if trace is not None:
        trace[step] = time.monotonic()


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


def _read_request(fd: int) -> dict:
    """The case's request, read whole from its pipe (in the forked child, never the zygote)."""
    with os.fdopen(fd, "rb") as stream:
        return json.loads(stream.read())


def _case_child(control, fds: list) -> None:
    """In the forked child: become the case (own session, output pipe), read its request."""
    forked = time.monotonic()
    request_fd, reply_fd, output_fd = fds
    control.close()
    os.setsid()
    os.dup2(output_fd, 1)
    os.dup2(output_fd, 2)
    os.close(output_fd)
    request = _read_request(request_fd)
    handle(request, reply_fd, trace={"forked": forked, "read": time.monotonic()})


def _pass_gate(gate: int) -> None:
    """A long-lived child waits until the grader holds a handle on it (a pidfd: signals then
    never reach another process that reused its pid); the gate closing unopened ends it."""
    opened = os.read(gate, 1)
    os.close(gate)
    if not opened:
        os._exit(0)


def _server_child(control, fds: list) -> None:
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
    handle(_server_request(calls_fd), reply_fd, calls_fd)


def _server_request(calls_fd: int) -> dict:
    """A call server's request: the first line of its calls pipe, read byte by byte (the
    calls follow it, and must stay in the pipe for ``serve``)."""
    line = bytearray()
    while not line.endswith(b"\n") and len(line) < MAX_STRING:
        byte = os.read(calls_fd, 1)
        if not byte:
            os._exit(0)
        line += byte
    return json.loads(line)


def _program_child(control, fds: list, program: dict) -> None:
    """In the forked child: become ``python -u SCRIPT ARGS`` run in ``cwd`` (own session, the
    three pipes as stdin, stdout and stderr), and end as that interpreter would: exit handlers
    and non-daemon threads run, the status is the script's."""
    control.close()
    os.setsid()
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(program["cwd"])
    # As -u makes them: stdin buffered, stdout and stderr written through at once.
    sys.stdin = open(0, encoding="utf-8", closefd=False)
    sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8",
                                  write_through=True)
    sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8",
                                  errors="backslashreplace", write_through=True)
    for name in ("stdin", "stdout", "stderr"):  # sys.__stdout__ is sys.stdout, as at start-up
        setattr(sys, f"__{name}__", getattr(sys, name))
    script = os.path.join(os.getcwd(), program["script"])
    sys.argv = [program["script"], *program.get("args", [])]
    import_from_case_folder(program)
    status = None
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
        import platform
        number = _KEYCTL.get(platform.machine())
        if number is not None:
            ctypes.CDLL(None, use_errno=True).syscall(number, 1, None)  # JOIN_SESSION_KEYRING
    except (OSError, AttributeError):
        pass


def zygote(control_fd: int) -> None:
    """Fork server: one forked child per case, each on fresh pipes passed by the grader.

    Protocol (a SOCK_SEQPACKET socket): the grader sends a ``ForkRequest`` (JSON: at most the
    path of the student file to compile ahead) with three descriptors: the case's request pipe,
    reply pipe and output pipe (for a ``program``, its stdin, stdout and stderr, and a gate; for
    a ``server``, its calls, replies and stderr, and a gate: see ``_pass_gate``). The zygote
    forks at once and closes them all; only the child reads the request, so no case's inputs
    ever enter the zygote, and a later case forked from it cannot find them. The zygote answers
    ``{"event": "started", "pid"}``, waits for the child, sweeps its leftovers, and answers
    ``{"event": "exited", "status"}``. Student code only ever runs in the children.
    """
    import gc
    import socket
    gc.disable()  # no freed holes in the pages the children share (enabled in each child)
    _set_dumpable(False)
    control = socket.socket(fileno=control_fd)
    for name in ("inspect", "traceback", "importlib.util", "resource", "signal"):
        __import__(name)
    while True:
        try:
            data, fds, _, _ = socket.recv_fds(control, 1 << 16, 4)
        except OSError:
            os._exit(0)
        if not data:
            os._exit(0)
        received = time.monotonic()
        order = json.loads(data)
        if len(fds) != (4 if order.get("program") or order.get("server") else 3):
            os._exit(0)
        trace = {"received": received} if order.get("trace") else None
        if order.get("precompile"):
            precompile(order["precompile"])
        preload_allowed_packages(order)
        sys.stdout.flush()
        gc.freeze()  # the zygote's objects: a child's collections must not touch (copy) them
        child = os.fork()
        if child == 0:
            gc.enable()
            _set_dumpable(True)
            _own_session_keyring()
            if order.get("program") or order.get("server"):
                _pass_gate(fds.pop())
            if order.get("program"):
                _program_child(control, fds, order["program"])
            if order.get("server"):
                _server_child(control, fds)
            _case_child(control, fds)
        for fd in fds:
            os.close(fd)
        control.send(json.dumps({"event": "started", "pid": child}).encode())
        status = 0
        try:
            _, status = os.waitpid(child, 0)
        except ChildProcessError:
            pass
        _mark(trace, "reaped")
        _sweep(child)
        _mark(trace, "swept")
        exited = {"event": "exited", "status": os.waitstatus_to_exitcode(status)}
        if trace is not None:
            exited["trace"] = trace
        control.send(json.dumps(exited).encode())


def main() -> None:
    if sys.argv[1] == "zygote":
        devnull = os.open(os.devnull, os.O_RDWR)
        os.dup2(devnull, 0)
        zygote(int(sys.argv[2]))
        return
    request_fd = int(sys.argv[2]) if len(sys.argv) > 2 else None
    request = json.loads(sys.stdin.read()) if request_fd is None else _server_request(request_fd)
    handle(request, int(sys.argv[1]), request_fd, trace={"read": time.monotonic()})


if __name__ == "__main__":
    main()
