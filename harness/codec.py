"""The trusted side of the wire format (see docs/architecture.md, "Wire format").

``decode_value`` turns a worker's type-tagged JSON back into builtins: tuples, sets and dicts are
rebuilt exactly, and anything the worker could not encode arrives as an ``Opaque`` that equals
nothing. ``encode_value`` is used for arguments the trusted side sends to a call server.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

_FLOATS = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}


@dataclass(frozen=True, eq=False)
class Opaque:
    """A value the student returned that is not plain data; it compares equal to nothing."""

    type_name: str

    def __eq__(self, other: object) -> bool:
        return False

    def __ne__(self, other: object) -> bool:
        return True

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        # The name comes from the student's process (a class can call itself "tuple"), so the
        # text never looks like a real builtin value.
        return f"<object of class {self.type_name!r}, not plain data>"


def decode_value(data: Any, depth: int = 0) -> Any:
    """Rebuild a value from the wire format.

    Raises:
        ValueError: the data does not follow the format (a malformed or malicious reply).
    """
    if depth > 250:
        raise ValueError("value nested too deeply")
    kind = type(data)
    if data is None or kind in (bool, int, float, str):
        return data
    if kind is list:
        return [decode_value(item, depth + 1) for item in data]
    if kind is not dict or len(data) != 1:
        raise ValueError(f"unexpected {kind.__name__} in the wire format")
    (tag, body), = data.items()
    if tag == "opaque" and isinstance(body, str):
        return Opaque(body[:200])
    if tag == "float" and body in _FLOATS:
        return _FLOATS[body]
    if not isinstance(body, list):
        raise ValueError(f"malformed {tag!r} value")
    items = [decode_value(item, depth + 1) for item in body] if tag != "dict" else None
    if tag == "tuple":
        return tuple(items or [])
    if tag in ("set", "frozenset"):
        try:
            return (set if tag == "set" else frozenset)(items or [])
        except TypeError as exc:
            raise ValueError(f"unhashable element in a {tag}") from exc
    if tag == "dict":
        try:
            return {decode_value(k, depth + 1): decode_value(v, depth + 1) for k, v in body}
        except (TypeError, ValueError) as exc:
            raise ValueError("malformed dict value") from exc
    raise ValueError(f"unknown tag {tag!r}")


def encode_value(value: Any) -> Any:
    """Encode trusted plain data (tuples, lists, dicts, sets, scalars) for the wire.

    Raises:
        TypeError: ``value`` holds something that is not plain data.
    """
    kind = type(value)
    if value is None or kind in (bool, int, str):
        return value
    if kind is float:
        if math.isnan(value):
            return {"float": "nan"}
        if math.isinf(value):
            return {"float": "inf" if value > 0 else "-inf"}
        return value
    if kind is list:
        return [encode_value(item) for item in value]
    if kind is tuple:
        return {"tuple": [encode_value(item) for item in value]}
    if kind in (set, frozenset):
        return {kind.__name__: [encode_value(item) for item in value]}
    if kind is dict:
        return {"dict": [[encode_value(k), encode_value(v)] for k, v in value.items()]}
    raise TypeError(f"{kind.__name__} is not plain data")
