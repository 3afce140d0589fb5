"""The wire protocol between the trusted side and student processes, defined once, with bounds.

Every message a worker, a call server or a zygote sends is declared here as a typed msgspec
``Struct`` whose strings, lists and integers carry explicit bounds, and every trusted reader
decodes through ``decode``. msgspec's decoder is written in C, checks types and bounds while it
parses, and refuses unknown fields (skipping one would recurse into it), so no reply, whatever its
bytes, makes the trusted side recurse, allocate more than its size allows, or spend more than
linear time. Values inside replies are flat node lists (``harness.wire.codec``): they add no
nesting.

The worker (``harness/worker/main.py``) runs stdlib-only inside the sandbox; it writes the same
messages with ``json`` (documented in docs/architecture.md, "Wire format"). Messages from the
trusted side to the worker are encoded here with ``encode``.

A message that does not decode is the student's fault (the process answers for the student's
code): ``ProtocolError`` says why, and the case fails as a protocol violation.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal, Optional, Union

import msgspec

from harness.wire import codec
from harness.wire.safe_text import safe_text

# Bounds. The worker keeps its own texts below these (harness/worker/main.py), so an honest
# reply always fits; anything larger was forged by student code.
MAX_TEXT = 8192            # stdout of one example or call, an exception message
MAX_WHERE = 4096           # traceback lines in the student's files
MAX_NAME = 512             # type names, function and parameter names
MAX_EXAMPLES = 10_000      # examples in one case (one observation each)
MAX_API_NAMES = 1000
MAX_PARAMETERS = 256
REPLY_LIMIT = 4 * 1024 * 1024   # bytes of one reply (all of a case's observations)
LINE_LIMIT = 1024 * 1024        # bytes of one call-server reply line

Text = Annotated[str, msgspec.Meta(max_length=MAX_TEXT + 100)]
Where = Annotated[str, msgspec.Meta(max_length=MAX_WHERE + 100)]
Name = Annotated[str, msgspec.Meta(max_length=MAX_NAME)]
_Tag = Annotated[str, msgspec.Meta(max_length=16)]
_Body = Union[Annotated[int, msgspec.Meta(ge=0, le=codec.MAX_NODES)],
              Annotated[str, msgspec.Meta(max_length=8 * codec.MAX_STRING)]]


class TaggedNode(msgspec.Struct, array_like=True, frozen=True, forbid_unknown_fields=True):
    """``[tag, body]``: a container with ``body`` children, or a scalar JSON cannot hold."""

    tag: _Tag
    body: _Body


Node = Union[None, bool, Annotated[int, msgspec.Meta(ge=codec.INT64[0], le=codec.INT64[1])],
             float, Annotated[str, msgspec.Meta(max_length=codec.MAX_STRING)], TaggedNode]
Value = Annotated[list[Node], msgspec.Meta(max_length=codec.MAX_NODES)]


class _Message(msgspec.Struct, forbid_unknown_fields=True):
    """Base: unknown fields are refused (skipping them would recurse into their nesting)."""


# ---- trusted side -> worker -------------------------------------------------------------------

class WorkerRequest(_Message, omit_defaults=True):
    """One request to a worker (stdin of a fresh worker, or a pipe of a forked child)."""

    mode: Literal["run", "preflight", "serve"]
    module: str
    file: str
    cwd: str = ""
    cpu_seconds: int = 0
    examples: list[str] = []
    stdin: Optional[str] = None
    names: list[str] = []
    packages: Optional[str] = None   # the read-only folder of the course's allowed packages
    resolver: Optional[str] = None   # the assignment's name resolver (a probe module)
    trace: bool = False              # reply with step times (the overhead profile only)


class ProgramStart(_Message):
    """A program for the zygote to fork: ``python -u SCRIPT ARGS`` run in ``cwd``."""

    script: str
    cwd: str
    args: list[str] = []
    packages: Optional[str] = None


class ForkRequest(_Message):
    """To the zygote: fork a child for one case. Sent with three descriptors (the case's
    request pipe, its reply pipe, its output pipe); the request itself is read by the child
    only, so the zygote never holds a case's inputs. ``precompile`` names the student file: the
    zygote may compile it and the other Python files of its folder ahead (its own copy of the
    student's code, never a case input). With
    ``program`` the child runs that program instead, the descriptors being its stdin, stdout
    and stderr; with ``server`` it serves calls (descriptors: calls, replies, stderr)."""

    precompile: str = ""
    packages: Optional[str] = None
    preload: list[str] = []          # allowed packages the student's files import
    trace: bool = False              # report step times in ``Exited`` (the overhead profile)
    program: Optional[ProgramStart] = None
    server: bool = False             # a call server: its request is the calls pipe's first line


class Call(_Message):
    """One call to a call server: ``function(*args)`` with args as a flat node list."""

    function: str
    args: list[Any]


# ---- worker -> trusted side -------------------------------------------------------------------

class ErrorReport(_Message):
    """An exception raised by student code."""

    type: Name
    message: Text = ""
    where: Where = ""


class ObservationReport(_Message):
    """What one example did: printed text, value shown (flat nodes) and error."""

    stdout: Text = ""
    transcript_stdout: Optional[Text] = None   # what the transcript's own code printed
    has_value: bool = False
    value: Optional[Value] = None
    error: Optional[ErrorReport] = None


# Step name -> time (monotonic clock) a worker or zygote reports when asked to ``trace``. Shown
# in the overhead profile only (harness.sandbox.stages), never used to grade.
Trace = Optional[Annotated[dict[Name, float], msgspec.Meta(max_length=16)]]

Parameter = tuple[Name, Name, bool]   # name, inspect kind name, has a default


class NameReport(_Message):
    """Preflight: a name the spec lists, as found in the student module."""

    callable: bool
    parameters: Optional[Annotated[list[Parameter], msgspec.Meta(max_length=MAX_PARAMETERS)]]


class WorkerReply(_Message):
    """A worker's one reply to ``run`` or ``preflight``; for ``serve``, the first line (``ready``
    once the module is imported, or its ``import_error``)."""

    mode: Literal["run", "preflight", "serve"]
    ready: bool = False
    import_error: Optional[ErrorReport] = None
    observations: Optional[Annotated[list[ObservationReport],
                                     msgspec.Meta(max_length=MAX_EXAMPLES)]] = None
    names: Optional[Annotated[dict[Name, Optional[NameReport]],
                              msgspec.Meta(max_length=MAX_API_NAMES)]] = None
    resolver_notes: Annotated[list[Annotated[str, msgspec.Meta(max_length=600)]],
                              msgspec.Meta(max_length=20)] = []
    # Preflight: CPU seconds the import of the student's file took (its top-level code).
    import_cpu_seconds: Optional[Annotated[float, msgspec.Meta(ge=0, le=1e6)]] = None
    # Run: CPU seconds the case's process (and the children it waited for) used, for the time
    # budget's ledger (harness.timing.budget); the student's code could lower it, and only its own
    # group's share would gain, within the bounds ``case_charge`` sets.
    cpu_seconds: Optional[Annotated[float, msgspec.Meta(ge=0, le=1e6)]] = None
    trace: Trace = None


class CallReply(_Message):
    """A call server's answer to one ``Call``."""

    stdout: Text = ""
    value: Optional[Value] = None
    error: Optional[ErrorReport] = None


class Started(_Message, tag="started", tag_field="event"):
    """Zygote: the case's child was forked."""

    pid: Annotated[int, msgspec.Meta(ge=1, le=1 << 22)]


class Exited(_Message, tag="exited", tag_field="event"):
    """Zygote: the case's child ended with this status (negative: killed by that signal)."""

    status: Annotated[int, msgspec.Meta(ge=-255, le=255)]
    trace: Trace = None


ZygoteEvent = Union[Started, Exited]


class ProtocolError(ValueError):
    """A student process sent something the protocol does not allow: too large or malformed."""


_DECODERS: dict[Any, msgspec.json.Decoder[Any]] = {}


def decode(data: bytes, kind: Any, limit: int = REPLY_LIMIT) -> Any:
    """Decode one message of type ``kind`` from untrusted bytes.

    Raises:
        ProtocolError: over ``limit`` bytes, not valid JSON/UTF-8, or not the declared shape.
    """
    if len(data) > limit:
        raise ProtocolError(f"reply too large or malformed: more than {limit} bytes")
    decoder = _DECODERS.get(kind)
    if decoder is None:
        decoder = _DECODERS[kind] = msgspec.json.Decoder(kind)
    try:
        return decoder.decode(data)
    except (msgspec.MsgspecError, ValueError, RecursionError) as exc:
        raise ProtocolError(f"reply too large or malformed: {safe_text(str(exc), 300)}"
                            ) from None


def encode(message: Any) -> bytes:
    """Encode a trusted message (a Struct of this module) as JSON bytes."""
    return msgspec.json.encode(message)


def value_of(nodes: Optional[list[Any]]) -> Any:
    """The value carried by a node list (None when there is none).

    Raises:
        ProtocolError: the nodes do not form one value within the bounds.
    """
    if nodes is None:
        return None
    try:
        return codec.decode_value(nodes)
    except codec.MalformedValue as exc:
        raise ProtocolError(f"reply too large or malformed: {exc}") from None
