"""The messages the trusted side sends the worker, as typed records decoded in this one place.

They mirror ``harness.wire.protocol`` (``WorkerRequest``, ``ForkRequest``, ``ProgramStart``,
``Call``; a test keeps the field names equal). The trusted side wrote them, so a field of the
wrong type is a bug there: ``RequestError`` says which field, and the worker stops.
"""
from __future__ import annotations

import json

TYPE_CHECKING = False  # neither typing nor dataclasses: a fresh worker would pay ~10 ms for them
if TYPE_CHECKING:
    from typing import Any, Literal

    Mode = Literal["run", "preflight", "serve"]

MODES = ("run", "preflight", "serve")


class RequestError(ValueError):
    """A message from the trusted side does not have the shape this module expects."""


class _Record:
    """Named fields (``__slots__``, in the protocol's order), equal when they all are."""

    __slots__: tuple[str, ...] = ()

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and all(
            getattr(self, name) == getattr(other, name) for name in self.__slots__)

    __hash__ = None  # type: ignore[assignment]  # mutable records, as dataclasses make them

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__name__}({fields})"


class Request(_Record):
    """One request: import ``file`` as ``module`` in ``cwd`` and ``run``, ``preflight`` or
    ``serve`` (see ``harness.worker.handle``)."""

    __slots__ = ("mode", "module", "file", "cwd", "cpu_seconds", "examples", "stdin", "names",
                 "packages", "resolver", "trace")

    def __init__(self, mode: Mode, module: str, file: str, cwd: str = "", cpu_seconds: int = 0,
                 examples: tuple[str, ...] = (), stdin: str | None = None,
                 names: tuple[str, ...] = (), packages: str | None = None,
                 resolver: str | None = None, trace: bool = False) -> None:
        self.mode = mode
        self.module = module
        self.file = file
        self.cwd = cwd
        self.cpu_seconds = cpu_seconds
        self.examples = examples
        self.stdin = stdin
        self.names = names
        self.packages = packages
        self.resolver = resolver
        self.trace = trace


class Program(_Record):
    """A program for the zygote to fork: ``python -u SCRIPT ARGS`` run in ``cwd``."""

    __slots__ = ("script", "cwd", "args", "packages")

    def __init__(self, script: str, cwd: str, args: tuple[str, ...] = (),
                 packages: str | None = None) -> None:
        self.script = script
        self.cwd = cwd
        self.args = args
        self.packages = packages


class ForkOrder(_Record):
    """The zygote's order to fork one child (``harness.worker.zygote``)."""

    __slots__ = ("precompile", "packages", "preload", "trace", "program", "server")

    def __init__(self, precompile: str = "", packages: str | None = None,
                 preload: tuple[str, ...] = (), trace: bool = False,
                 program: Program | None = None, server: bool = False) -> None:
        self.precompile = precompile
        self.packages = packages
        self.preload = preload
        self.trace = trace
        self.program = program
        self.server = server

    @property
    def descriptors(self) -> int:
        """How many descriptors come with the order: a gate besides the three pipes for a
        program or a call server."""
        return 4 if self.program is not None or self.server else 3


class CallRequest(_Record):
    """One call to a call server: ``function(*args)``, ``args`` a flat node list."""

    __slots__ = ("function", "args")

    def __init__(self, function: str, args: list[Any]) -> None:
        self.function = function
        self.args = args


def _object(data: str | bytes | bytearray) -> dict[str, Any]:
    try:
        message = json.loads(data)
    except ValueError as exc:
        raise RequestError(f"not JSON: {exc}") from None
    if not isinstance(message, dict):
        raise RequestError("not a JSON object")
    return message


def _field(message: dict[str, Any], name: str, kind: type, default: Any) -> Any:
    value = message.get(name, default)
    if value is None and default is None:
        return None
    if type(value) is not kind and not (kind is int and type(value) is bool):
        raise RequestError(f"{name!r} must be {kind.__name__}, not {type(value).__name__}")
    return value


def _texts(message: dict[str, Any], name: str) -> tuple[str, ...]:
    values = _field(message, name, list, [])
    if not all(type(value) is str for value in values):
        raise RequestError(f"{name!r} must be a list of strings")
    return tuple(values)


def _optional_text(message: dict[str, Any], name: str) -> str | None:
    text: str | None = _field(message, name, str, None)
    return text


def request_of(data: str | bytes | bytearray) -> Request:
    """The request in ``data`` (one JSON object)."""
    message = _object(data)
    mode = message.get("mode")
    if mode not in MODES:
        raise RequestError(f"unknown mode {mode!r}")
    return Request(
        mode=mode, module=_field(message, "module", str, ""),
        file=_field(message, "file", str, ""), cwd=_field(message, "cwd", str, ""),
        cpu_seconds=_field(message, "cpu_seconds", int, 0),
        examples=_texts(message, "examples"), stdin=_optional_text(message, "stdin"),
        names=_texts(message, "names"), packages=_optional_text(message, "packages"),
        resolver=_optional_text(message, "resolver"),
        trace=bool(_field(message, "trace", bool, False)))


def _program_of(message: dict[str, Any]) -> Program:
    return Program(script=_field(message, "script", str, ""), cwd=_field(message, "cwd", str, ""),
                   args=_texts(message, "args"), packages=_optional_text(message, "packages"))


def fork_order_of(data: bytes) -> ForkOrder:
    """The zygote's fork order in ``data`` (one JSON object)."""
    message = _object(data)
    program = _field(message, "program", dict, None)
    return ForkOrder(
        precompile=_field(message, "precompile", str, ""),
        packages=_optional_text(message, "packages"), preload=_texts(message, "preload"),
        trace=bool(_field(message, "trace", bool, False)),
        program=_program_of(program) if program is not None else None,
        server=bool(_field(message, "server", bool, False)))


def call_of(line: str) -> CallRequest:
    """One call in ``line`` (one JSON object)."""
    message = _object(line)
    return CallRequest(function=_field(message, "function", str, ""),
                       args=_field(message, "args", list, []))
