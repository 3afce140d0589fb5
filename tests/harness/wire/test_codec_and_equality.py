"""The wire codec and type-strict equality: what crosses the boundary, and how it compares."""
from __future__ import annotations

import math

import pytest

from harness.compare import strict_equal
from harness.wire.codec import Opaque, decode_value, encode_value
from harness.worker.encode import encode


@pytest.mark.parametrize("value", [
    None, True, 0, -7, 2.5, "text", [1, [2]], (1, (2, 3)), {"a": (1,)}, {1, 2}, frozenset({3}),
    ((0, 1), 3, 10), [], (), {}, math.inf,
])
def test_worker_encoding_round_trips_exact_types(value):
    decoded = decode_value(encode(value))
    assert strict_equal(value, decoded)
    assert type(decoded) is type(value)


def test_nan_round_trips():
    assert math.isnan(decode_value(encode(float("nan"))))


def test_subclasses_of_builtins_become_opaque():
    class Liar(tuple):
        def __eq__(self, other):
            return True

    class Seven(int):
        pass

    decoded = decode_value(encode([Liar((1,)), Seven(7), object()]))
    assert all(isinstance(item, Opaque) for item in decoded)
    assert "Liar" in repr(decoded[0])
    assert decoded[0] != (1,) and not strict_equal((1,), decoded[0])


def test_opaque_values_equal_nothing_not_even_themselves():
    opaque = Opaque("x.Thing")
    assert opaque != opaque
    assert not strict_equal(opaque, opaque)


@pytest.mark.parametrize("nodes", [
    [["tuple", 3], 1], [["nope", 1], 1], [{"a": 1}], [["dict", 1], 1], [["set", 1], ["list", 0]],
    [["float", "big"]], [1, 2], [], [["int", "12x"]], [["list", -1]], [2 ** 64],
])
def test_malformed_wire_data_is_rejected(nodes):
    with pytest.raises(ValueError):
        decode_value(nodes)


def test_trusted_encoding_refuses_objects():
    assert decode_value(encode_value({(1, 2): [frozenset({1})]})) == {(1, 2): [frozenset({1})]}
    with pytest.raises(TypeError):
        encode_value(object())


@pytest.mark.parametrize("expected, actual", [
    ((1, 2), [1, 2]), (1, True), (1, 1.0), ([True], [1]), ({1: 2}, {True: 2}), ({1}, {True}),
    ((0, 1), (0, 1, 2)), ("a", b"a"),
])
def test_strict_equality_tells_types_apart(expected, actual):
    assert not strict_equal(expected, actual)


def test_strict_equality_accepts_equal_values_and_float_tolerance():
    assert strict_equal({"k": [(1, 2.0)]}, {"k": [(1, 2.0)]})
    assert not strict_equal(1.0, 1.0 + 1e-9)
    assert strict_equal(1.0, 1.0 + 1e-9, tolerance=1e-6)


def test_named_tuples_arrive_as_the_tuples_they_hold():
    """A move written as a named tuple equals the tuple in the course's ``==``; before, it arrived
    opaque and an Isolation player returning ``Move(row, col)`` forfeited every game (0/60)."""
    from collections import namedtuple
    from typing import NamedTuple

    Move = namedtuple("Move", "row col")

    class Square(NamedTuple):
        row: int
        col: int

    class Liar(Move):
        def __ne__(self, other):
            return False

    class Shown(Move):  # an override of reading methods changes nothing: the items are read
        def __iter__(self):
            return iter((9, 9))

    decoded = decode_value(encode([Move(3, 4), Square(1, 2), Move(None, None), Shown(5, 6),
                                   Liar(1, 2)]))
    assert decoded[:4] == [(3, 4), (1, 2), (None, None), (5, 6)]
    assert all(type(item) is tuple for item in decoded[:4])
    assert isinstance(decoded[4], Opaque)
