"""Values on the wire: a flat list of nodes, rebuilt without recursion and within fixed bounds.

A value travels as a flat, pre-order list of nodes (see docs/architecture.md, "Wire format"):
JSON scalars stand for themselves, and ``[tag, body]`` pairs stand for containers (``body`` is
the number of child subtrees that follow) and for the scalars JSON cannot hold exactly. Because
the list is flat, decoding it never recurses, whatever the depth of the value: ``decode_value``
keeps its own stack and refuses more than ``MAX_DEPTH`` levels. Sets and dicts whose elements
share one ``hash()`` too often (which would make building them quadratic) are refused before
they are built.

``encode_value`` is used for arguments the trusted side sends to a call server; the worker
(``harness/worker/encode.py``) has its own stdlib encoder writing the same format. The bounds
are the worker's own (``harness/worker/bounds.py``), imported, so both sides keep the same.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from harness.worker.bounds import INT64, MAX_DEPTH, MAX_HEX, MAX_INT_DIGITS, MAX_NODES, MAX_STRING

MAX_EQUAL_HASHES = 16  # the reader's own bound: equal hashes would make building sets quadratic
CONTAINERS = ("list", "tuple", "set", "frozenset", "dict")
_FLOATS = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}


class MalformedValue(ValueError):
    """A value does not follow the wire format or exceeds its bounds (the sender's fault)."""


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


def _check_hashes(kind: str, keys: Iterable[Any]) -> None:
    """Refuse a set or dict whose keys share one hash more than MAX_EQUAL_HASHES times.

    Distinct values with equal hashes make every insertion compare against all the earlier
    ones (quadratic time); honest data practically never has more than two per hash.
    """
    try:
        counts = Counter(hash(key) for key in keys)
    except TypeError as exc:
        raise MalformedValue(f"unhashable element in a {kind}") from exc
    if counts and max(counts.values()) > MAX_EQUAL_HASHES:
        raise MalformedValue(f"a {kind} whose elements collide in hash() (more than "
                             f"{MAX_EQUAL_HASHES} with one hash)")


def _container(kind: str, items: list[Any]) -> Any:
    if kind == "list":
        return items
    if kind == "tuple":
        return tuple(items)
    if kind == "dict":
        keys = items[0::2]
        _check_hashes(kind, keys)
        return dict(zip(keys, items[1::2]))
    _check_hashes(kind, items)
    return set(items) if kind == "set" else frozenset(items)


def _scalar(tag: str, body: Any) -> Any:
    if tag == "float" and body in _FLOATS:
        return _FLOATS[body]
    if tag == "int" and type(body) is str and len(body) <= MAX_INT_DIGITS + 1:
        try:
            return int(body)
        except ValueError:
            pass
    if tag == "str" and type(body) is str and len(body) <= MAX_HEX:
        # A string no UTF-8 text can hold (lone surrogates): its UTF-8 bytes, hex-encoded.
        try:
            return bytes.fromhex(body).decode("utf-8", "surrogatepass")
        except ValueError:
            pass
    if tag == "opaque" and type(body) is str:
        return Opaque(body[:200])
    raise MalformedValue(f"malformed {tag!r} node")


def decode_value(nodes: Sequence[Any]) -> Any:
    """Rebuild one value from its flat node list.

    Nodes are JSON scalars or ``(tag, body)`` pairs (lists, tuples or objects with ``tag`` and
    ``body`` attributes, as decoded by ``harness.wire.protocol``).

    Raises:
        MalformedValue: the nodes do not form exactly one value within the bounds.
    """
    if len(nodes) > MAX_NODES:
        raise MalformedValue(f"more than {MAX_NODES} nodes")
    # Each frame: [container kind, children still expected, children so far].
    stack: list[list[Any]] = [["root", 1, []]]
    for node in nodes:
        if not stack:
            raise MalformedValue("nodes after the end of the value")
        tag, body = _split(node)
        if tag in CONTAINERS:
            if type(body) is not int or body < 0:
                raise MalformedValue(f"malformed {tag!r} node")
            expected = body * 2 if tag == "dict" else body
            if expected:
                if len(stack) > MAX_DEPTH:
                    raise MalformedValue(f"nested more than {MAX_DEPTH} levels deep")
                stack.append([tag, expected, []])
                continue
            value = _container(tag, [])
        elif tag is None:
            value = body
        else:
            value = _scalar(tag, body)
        while stack:  # add the value to its parent; close every container it completes
            frame = stack[-1]
            frame[2].append(value)
            frame[1] -= 1
            if frame[1]:
                break
            stack.pop()
            value = _container(frame[0], frame[2]) if frame[0] != "root" else frame[2][0]
    if stack:
        raise MalformedValue("the value ends early")
    return value


def _split(node: Any) -> tuple[str | None, Any]:
    """``(tag, body)`` of a node; tag None for a plain scalar."""
    kind = type(node)
    if node is None or kind in (bool, int, float, str):
        if kind is int and not INT64[0] <= node <= INT64[1]:
            raise MalformedValue("an integer out of the 64-bit range outside an 'int' node")
        if kind is str and len(node) > MAX_STRING:
            raise MalformedValue(f"a string longer than {MAX_STRING} characters")
        return None, node
    if kind in (list, tuple) and len(node) == 2 and type(node[0]) is str:
        return node[0], node[1]
    tag, body = getattr(node, "tag", None), getattr(node, "body", None)
    if type(tag) is str:
        return tag, body
    raise MalformedValue(f"unexpected {kind.__name__} node")


def encode_value(value: Any) -> list[Any]:
    """Encode trusted plain data (tuples, lists, dicts, sets, scalars) as a flat node list.

    Raises:
        TypeError: ``value`` holds something that is not plain data.
    """
    nodes: list[Any] = []
    pending = [value]
    while pending:
        item = pending.pop()
        kind = type(item)
        if item is None or kind is bool or (kind is int and INT64[0] <= item <= INT64[1]):
            nodes.append(item)
        elif kind is int:
            nodes.append(["int", str(item)])
        elif kind is float:
            finite = not (math.isnan(item) or math.isinf(item))
            nodes.append(item if finite else ["float", "nan" if math.isnan(item)
                                              else "inf" if item > 0 else "-inf"])
        elif kind is str:
            try:
                item.encode("utf-8")
                nodes.append(item)
            except UnicodeEncodeError:
                nodes.append(["str", item.encode("utf-8", "surrogatepass").hex()])
        elif kind in (list, tuple, set, frozenset):
            nodes.append([kind.__name__, len(item)])
            pending.extend(reversed(list(item)))
        elif kind is dict:
            nodes.append(["dict", len(item)])
            pending.extend(reversed([part for pair in item.items() for part in pair]))
        else:
            raise TypeError(f"{kind.__name__} is not plain data")
    return nodes
