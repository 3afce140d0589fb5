"""The wire's bounds tie the two sides: what the worker sends at each bound the trusted side
reads, and one past it both refuse (the worker before sending, the reader a forged reply).

The worker's own encoders run here in the test process (they are plain functions); the trusted
side is ``harness.wire.protocol`` with the codec, as every reply is read.
"""
from __future__ import annotations

import inspect
import json
from typing import Any

import msgspec
import pytest

from harness.wire import protocol
from harness.wire.protocol import ProtocolError, WorkerReply, decode, value_of
from harness.worker import bounds
from harness.worker.encode import TooLarge, describe_error, encode, type_name
from harness.worker.preflight import parameters
from harness.worker.requests import CallRequest, ForkOrder, Program, Request
from harness.worker.run import BoundedText


def read_value(nodes: list[Any]) -> Any:
    """The trusted side's reading of a value the worker (or a forger) sent."""
    data = json.dumps({"mode": "run", "observations": [{"has_value": True, "value": nodes}]})
    reply = decode(data.encode(), WorkerReply)
    return value_of(reply.observations[0].value)


def read_reply(**fields: Any) -> WorkerReply:
    return decode(json.dumps({"mode": "run", **fields}).encode(), WorkerReply)


def nested(levels: int) -> Any:
    value: Any = 0
    for _ in range(levels):
        value = [value]
    return value


def test_the_trusted_side_uses_the_worker_s_numbers():
    from harness.wire import codec
    for name in ("MAX_NODES", "MAX_DEPTH", "MAX_STRING", "MAX_INT_DIGITS", "INT64"):
        assert getattr(codec, name) == getattr(bounds, name)
    for name in ("MAX_TEXT", "MAX_WHERE", "MAX_NAME", "MAX_EXAMPLES", "REPLY_LIMIT"):
        assert getattr(protocol, name) == getattr(bounds, name)


@pytest.mark.parametrize("at_bound, past_bound, forged", [
    # node count: MAX_NODES - 1 items and their list make MAX_NODES nodes
    (list(range(bounds.MAX_NODES - 1)), list(range(bounds.MAX_NODES)),
     [["list", bounds.MAX_NODES]] + [1] * bounds.MAX_NODES),
    # depth: non-empty containers nested in one another
    (nested(bounds.MAX_DEPTH), nested(bounds.MAX_DEPTH + 1),
     [["list", 1]] * (bounds.MAX_DEPTH + 1) + [0]),
    # string length
    ("x" * bounds.MAX_STRING, "x" * (bounds.MAX_STRING + 1), ["x" * (bounds.MAX_STRING + 1)]),
    # digits of an integer beyond 64 bits
    (10 ** bounds.MAX_INT_DIGITS - 1, 10 ** bounds.MAX_INT_DIGITS,
     [["int", "1" + "0" * bounds.MAX_INT_DIGITS]]),
], ids=["nodes", "depth", "string", "int digits"])
def test_a_value_at_each_bound_passes_both_sides_and_one_past_it_neither(
        at_bound, past_bound, forged):
    assert read_value(encode(at_bound)) == at_bound
    with pytest.raises(TooLarge):
        encode(past_bound)
    with pytest.raises(ProtocolError, match="too large or malformed"):
        read_value(forged)


def test_the_worker_refuses_digits_past_the_bound_even_where_the_student_allows_them():
    import sys
    if not hasattr(sys, "set_int_max_str_digits"):
        pytest.skip("Python before 3.11 has no int digit limit to raise")
    old = sys.get_int_max_str_digits()  # novermin (3.11+, checked above)
    sys.set_int_max_str_digits(0)  # novermin
    try:
        with pytest.raises(TooLarge):
            encode(10 ** bounds.MAX_INT_DIGITS)
    finally:
        sys.set_int_max_str_digits(old)  # novermin


def test_64_bit_integers_travel_plain_and_larger_ones_as_int_nodes():
    low, high = bounds.INT64
    assert encode([low, high]) == [["list", 2], low, high]
    assert encode(high + 1) == [["int", str(high + 1)]]
    assert read_value(encode(high + 1)) == high + 1
    with pytest.raises(ProtocolError):
        read_value([high + 1])  # plain, out of range: forged


def test_texts_the_worker_cuts_fit_the_reader_and_one_more_character_does_not():
    sink = BoundedText()
    sink.write("x" * (bounds.MAX_TEXT * 50))
    text = sink.value()
    error = describe_error(ValueError("m" * 10 * bounds.MAX_TEXT), "/case/student.py")
    reply = read_reply(observations=[{"stdout": text, "error": error}])
    assert reply.observations[0].stdout == text and len(text) > bounds.MAX_TEXT
    longest = "x" * (bounds.MAX_TEXT + bounds.CUT_NOTE_ROOM)
    assert read_reply(observations=[{"stdout": longest}]).observations[0].stdout == longest
    with pytest.raises(ProtocolError):
        read_reply(observations=[{"stdout": longest + "x"}])


def test_names_and_parameters_the_worker_reports_fit_and_one_more_does_not():
    long_name = type("N" * (3 * bounds.MAX_NAME), (), {})()
    name = type_name(long_name)
    assert len(name) <= bounds.MAX_NAME
    many = eval("lambda " + ", ".join(f"a{i}" for i in range(2 * bounds.MAX_PARAMETERS)) + ": 0")
    found = parameters(many)
    assert found is not None and len(found) == bounds.MAX_PARAMETERS
    report = read_reply(mode="preflight", import_error={"type": name},
                        names={"f": {"callable": True, "parameters": found}})
    assert report.names is not None and report.import_error is not None
    with pytest.raises(ProtocolError):
        read_reply(import_error={"type": "N" * (bounds.MAX_NAME + 1)})
    with pytest.raises(ProtocolError):
        read_reply(names={"f": {"callable": True, "parameters": found + [["b", "KEYWORD_ONLY",
                                                                          False]]}})


def test_resolver_notes_the_worker_keeps_fit_and_one_more_does_not(tmp_path, monkeypatch):
    from harness.worker.imports import resolve_names
    (tmp_path / "chatty_resolver.py").write_text(
        f"def resolve(module):\n    return ['n' * {3 * bounds.MAX_NOTE}] * 100\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    notes = resolve_names("chatty_resolver", inspect)
    assert len(notes) == bounds.MAX_NOTES and read_reply(resolver_notes=notes)
    with pytest.raises(ProtocolError):
        read_reply(resolver_notes=notes + ["one more"])


@pytest.mark.parametrize("worker, trusted", [
    (Request, protocol.WorkerRequest), (ForkOrder, protocol.ForkRequest),
    (Program, protocol.ProgramStart), (CallRequest, protocol.Call)])
def test_the_worker_s_requests_have_the_protocol_s_fields(worker, trusted):
    assert list(worker.__slots__) == [field.name for field in msgspec.structs.fields(trusted)]


def test_requests_the_trusted_side_encodes_decode_to_the_same_values_in_the_worker():
    from harness.worker.requests import RequestError, call_of, fork_order_of, request_of
    sent = protocol.WorkerRequest(mode="run", module="m", file="m.py", cwd="/c", cpu_seconds=3,
                                  examples=["1"], stdin="in", names=["f"], packages="/p",
                                  resolver="r", trace=True)
    got = request_of(protocol.encode(sent))
    assert [getattr(got, name) for name in got.__slots__] == [
        tuple(v) if isinstance(v, list) else v for v in msgspec.structs.astuple(sent)]
    assert request_of(protocol.encode(protocol.WorkerRequest("serve", "m", "m.py"))) == Request(
        "serve", "m", "m.py")
    order = fork_order_of(protocol.encode(protocol.ForkRequest(
        precompile="/c/m.py", preload=["numpy"],
        program=protocol.ProgramStart("a.py", "/c", ["x"]))))
    assert order.program == Program("a.py", "/c", ("x",)) and order.descriptors == 4
    assert fork_order_of(protocol.encode(protocol.ForkRequest())).descriptors == 3
    assert call_of(protocol.encode(protocol.Call("f", [1])).decode()) == CallRequest("f", [1])
    with pytest.raises(RequestError, match="'cpu_seconds' must be int"):
        request_of(b'{"mode": "run", "module": "m", "file": "m.py", "cpu_seconds": "3"}')
    with pytest.raises(RequestError, match="unknown mode"):
        request_of(b'{"mode": "grade"}')
