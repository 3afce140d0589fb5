"""Values and errors as plain data for the wire, read without calling any method of the student's.

Values are flat node lists (docs/architecture.md, "Wire format") encoded with exact-type checks:
a subclass of a builtin, or any other object, becomes ``["opaque", type name]`` and its methods
are never called (a named tuple, which keeps tuple's equality, is sent as the tuple it holds:
``named_tuple``). Every text is cut to the wire's bounds (``harness.worker.bounds``).
"""
from __future__ import annotations

import os
import sys
import traceback

from .bounds import (
    INT64,
    MAX_DEPTH,
    MAX_INT_DIGITS,
    MAX_NAME,
    MAX_NODES,
    MAX_STRING,
    MAX_TEXT,
    MAX_WHERE,
)

TYPE_CHECKING = False  # typing is not imported: a fresh worker would pay for it
if TYPE_CHECKING:
    from typing import Any, Callable

    Node = Any  # None, bool, int, float, str or [tag, body]

TOO_LARGE = "the value is too large or too deeply nested to compare"


def plain_text(text: object, limit: int) -> str:
    """``text`` as a plain ``str`` JSON can carry (lone surrogates written as ``\\udXXX``), at
    most ``limit`` characters. A ``str`` subclass is read through ``str``'s own methods."""
    if not isinstance(text, str):
        return ""
    text = str.encode(text, "utf-8", "backslashreplace").decode("utf-8")
    return text[:limit]


class TooLarge(Exception):
    """Raised when a value has too many nodes or is nested too deeply to send back."""


def type_name(value: object) -> str:
    """The qualified name of ``value``'s class, read through ``type``'s own slots."""
    cls = type(value)
    try:
        module = type.__getattribute__(cls, "__module__")
        name = type.__getattribute__(cls, "__qualname__")
        name = name if module == "builtins" else f"{module}.{name}"
        return plain_text(name, MAX_NAME) or "<unnamed type>"
    except Exception:
        return "<unnamed type>"


def _int_node(value: int) -> Node:
    if INT64[0] <= value <= INT64[1]:
        return value
    try:
        digits = int.__repr__(value)
    except ValueError:  # more digits than int -> str allows
        raise TooLarge(TOO_LARGE) from None
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:  # the student may have raised that limit
        raise TooLarge(TOO_LARGE)
    return ["int", digits]


def _float_node(value: float) -> Node:
    if value != value:
        return ["float", "nan"]
    if value in (float("inf"), float("-inf")):
        return ["float", "inf" if value > 0 else "-inf"]
    return value


def _str_node(value: str) -> Node:
    if str.__len__(value) > MAX_STRING:
        raise TooLarge(TOO_LARGE)
    try:
        str.encode(value, "utf-8")
        return value
    except UnicodeEncodeError:  # lone surrogates: the exact code points, as hex UTF-8 bytes
        return ["str", str.encode(value, "utf-8", "surrogatepass").hex()]


def encode(value: object) -> list[Node]:
    """Encode ``value`` as a flat, pre-order node list; see docs/architecture.md, "Wire format".

    Only exact builtin types are read (through the builtin's own methods); anything else is
    ``["opaque", type name]``. Iterative, so the student's recursion limit does not matter.
    """
    nodes: list[Node] = []
    pending: list[tuple[Any, int]] = [(value, 0)]
    while pending:
        item, depth = pending.pop()
        if len(nodes) >= MAX_NODES or depth > MAX_DEPTH:
            raise TooLarge(TOO_LARGE)
        cls = type(item)
        if item is None or cls is bool:
            nodes.append(item)
        elif cls is int:  # identity tests only: a student's metaclass may define __eq__
            nodes.append(_int_node(item))
        elif cls is float:
            nodes.append(_float_node(item))
        elif cls is str:
            nodes.append(_str_node(item))
        elif cls is list or cls is tuple or cls is set or cls is frozenset or cls is dict:
            size = cls.__len__(item)
            if len(nodes) + len(pending) + size * (2 if cls is dict else 1) > MAX_NODES:
                raise TooLarge(TOO_LARGE)
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
                nodes.append(["opaque", type_name(item)])
            else:
                pending.append((plain, depth))
    return nodes


_MRO_OF = type.__dict__["__mro__"].__get__  # bound before student code runs
_CLASS_DICT_OF = type.__dict__["__dict__"].__get__
_TUPLE_ITER = tuple.__iter__
_COMPARISONS = ("__eq__", "__ne__")


def named_tuple(value: Any, cls: type) -> Any:
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


def numpy_scalar(value: Any) -> Any:
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
        plain = generic.item(value)  # type: ignore[attr-defined]  # numpy's, found at run time
    except Exception:
        return value
    return plain if type(plain) in (bool, int, float, str) else value


_BUILDERS: dict[str, Callable[[Any], Any]] = {
    "list": list, "tuple": tuple, "set": set, "frozenset": frozenset}


def decode(nodes: list[Node]) -> Any:
    """Inverse of ``encode`` for arguments sent by the trusted side (trusted, never opaque, and
    shallow: plain recursion is enough here)."""
    position = iter(nodes)

    def build() -> Any:
        node = next(position)
        if type(node) is not list:
            return node
        tag, body = node
        if tag == "dict":
            return {build(): build() for _ in range(body)}
        if tag in _BUILDERS:
            return _BUILDERS[tag](build() for _ in range(body))
        if tag == "float":
            return float(body)
        if tag == "int":
            return int(body)
        return bytes.fromhex(body).decode("utf-8", "surrogatepass")

    return build()


def describe_error(exc: BaseException, student_file: str) -> dict[str, str]:
    """Plain-data description of an exception, with the traceback cut to the frames of files in
    the case folder (the student's files) and of the test code, and the case folder taken out of
    the message's paths (the student knows its files by their own names)."""
    folder = os.path.dirname(student_file) + os.sep
    if isinstance(exc, SystemExit):
        return {"type": "SystemExit", "where": "",
                "message": plain_text(f"called sys.exit({exc.code!r})", MAX_TEXT)}
    try:
        message = str(exc)
    except BaseException:
        message = "<the exception's message could not be read>"
    message = message.replace(folder, "")
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
    return {"type": type_name(exc), "message": plain_text(message, MAX_TEXT),
            "where": plain_text("\n".join(where[-8:]), MAX_WHERE)}
