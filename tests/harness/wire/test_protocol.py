"""The wire protocol: every message typed and bounded, whatever bytes a student process sends."""
from __future__ import annotations

import json

import pytest

from harness.wire import codec
from harness.wire.protocol import (
    CallReply,
    Exited,
    ProtocolError,
    Started,
    WorkerReply,
    WorkerRequest,
    ZygoteEvent,
    decode,
    encode,
    value_of,
)
from harness.wire.safe_text import safe_bytes, safe_text
from harness.worker.encode import decode as worker_decode
from harness.worker.encode import encode as worker_encode

pytestmark = pytest.mark.slow


def reply_with_value(nodes_json: str) -> bytes:
    return ('{"mode": "run", "observations": [{"has_value": true, "value": ' + nodes_json
            + "}]}").encode()


def test_an_honest_reply_decodes_to_typed_messages_and_values():
    value = {"k": [(1, 2.5), frozenset({None, True})], 2 ** 100: "\ud800 lone", -3: float("inf")}
    data = json.dumps({"mode": "run", "observations": [
        {"stdout": "hi\n", "has_value": True, "value": worker_encode(value)},
        {"stdout": "", "error": {"type": "ValueError", "message": "bad", "where": "x.py"}}]})
    reply = decode(data.encode(), WorkerReply)
    assert reply.observations is not None and len(reply.observations) == 2
    decoded = value_of(reply.observations[0].value)
    assert decoded == value and type(decoded[-3]) is float
    assert reply.observations[1].error is not None
    assert reply.observations[1].error.type == "ValueError"


@pytest.mark.parametrize("data", [
    b"[" * 20000 + b"]" * 20000,                                           # deep, not an object
    reply_with_value("[" * 20000 + "]" * 20000),                           # deep value
    reply_with_value("[" + '["list", 1], ' * 20000 + "1]"),                # deep flat value
    b'{"mode": "run", "extra": ' + b"[" * 20000 + b"]" * 20000 + b"}",     # deep unknown field
    b'{"mode": "run", "import_error": {"type": "E", "message": ' + b"[" * 20000 + b"}}",
])
def test_deep_nesting_is_malformed_not_a_recursion_error(data):
    with pytest.raises(ProtocolError, match="reply too large or malformed"):
        value_of(decode(data, WorkerReply).observations[0].value)


def test_colliding_hashes_are_refused_before_a_set_or_dict_is_built():
    colliding = [["int", str(k * (2 ** 61 - 1))] for k in range(1, 20001)]
    assert len({hash(int(body)) for _, body in colliding}) == 1
    for head in (["set", 20000], ["frozenset", 20000], ["dict", 10000]):
        with pytest.raises(ProtocolError, match="collide in hash"):
            value_of(decode(reply_with_value(json.dumps([head, *colliding])),
                            WorkerReply).observations[0].value)
    # Honest values with a few equal hashes (hash(-1) == hash(-2)) are fine.
    assert value_of([["set", 2], -1, -2]) == {-1, -2}


@pytest.mark.parametrize("data, why", [
    (reply_with_value('[["list", 1000000000], 1]'), "container count"),
    (reply_with_value('["' + "x" * (codec.MAX_STRING + 1) + '"]'), "string length"),
    (reply_with_value('[["int", "' + "9" * 6000 + '"]]'), "integer digits"),
    (reply_with_value("[99999999999999999999999]"), "plain integer beyond 64 bits"),
    (reply_with_value("[" + ", ".join(["1"] * (codec.MAX_NODES + 1)) + "]"), "node count"),
    (b'{"mode": "run", "observations": [{"stdout": "' + b"x" * 20000 + b'"}]}', "text length"),
    (b'{"mode": "run", "observations": [' + b", ".join([b"{}"] * 10001) + b"]}", "observations"),
    (b'{"mode": "run", "observations": [{"stdout": "\\ud800"}]}', "lone surrogate escape"),
    (b'{"mode": "run", "observations": [{"stdout": "\xff"}]}', "invalid UTF-8"),
    (b'{"mode": "run", "score": 999}', "unknown field"),
    (b'{"mode": "won"}', "unknown mode"),
    (b"x" * (5 << 20), "reply size"),
])
def test_every_bound_is_enforced(data, why):
    with pytest.raises(ProtocolError, match="reply too large or malformed"):
        reply = decode(data, WorkerReply)
        for observation in reply.observations or []:
            value_of(observation.value)


def test_a_surrogate_string_value_travels_as_its_exact_code_points():
    nodes = worker_encode(["a\ud800b", "plain"])
    assert nodes[1][0] == "str"
    assert value_of(decode(reply_with_value(json.dumps(nodes)), WorkerReply)
                    .observations[0].value) == ["a\ud800b", "plain"]


def test_the_worker_refuses_values_over_its_bounds_without_recursing():
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    with pytest.raises(Exception, match="too large or too deeply nested"):
        worker_encode(deep)
    with pytest.raises(Exception, match="too large or too deeply nested"):
        worker_encode(list(range(codec.MAX_NODES + 1)))


def test_trusted_arguments_round_trip_through_the_worker_decoder():
    args = [(1, 2), {"a": frozenset({3})}, [float("-inf"), 2 ** 70, "\udc80"], set()]
    assert worker_decode(json.loads(encode(codec.encode_value(args)))) == args


def test_requests_and_zygote_events_are_typed():
    request = json.loads(encode(WorkerRequest(mode="run", module="m", file="m.py",
                                              examples=["1"])))
    assert request == {"mode": "run", "module": "m", "file": "m.py", "examples": ["1"]}
    assert decode(b'{"event": "started", "pid": 12}', ZygoteEvent) == Started(12)
    assert decode(b'{"event": "exited", "status": -9}', ZygoteEvent) == Exited(-9)
    with pytest.raises(ProtocolError):
        decode(b'{"event": "exited", "status": "0"}', ZygoteEvent)
    assert decode(b'{"stdout": "", "value": [1]}', CallReply).value == [1]


def test_safe_text_replaces_surrogates_and_strips_terminal_sequences():
    text = "a\ud800b \x1b[1;31mred\x1b[0m \x1b]0;title\x07 \x1b]8;;http://x\x1b\\link \x9b2J" \
           "\x00\x07\r\x7f ok\tend\n"
    assert safe_text(text) == "a\ufffdb red  link 2J ok\tend\n"
    assert safe_text("x" * 50, 10).startswith("x" * 10 + "\n[... 40 more characters")
    assert safe_bytes(b"\xff\x1b[2Jok") == "\ufffdok"


def test_safe_text_is_linear_on_hostile_patterns():
    # Unterminated sequences of every kind, repeated: each pattern is matched in one pass.
    for unit in ("\x1b[", "\x1b]", "\x1bP", "\x1b[0;", "\x1b"):
        assert "\x1b" not in safe_text(unit * 200_000)


def test_a_request_with_no_examples_or_names_still_reaches_the_worker(tmp_path):
    """Fields left at their defaults are omitted on the wire; the worker must not need them."""
    from harness.sandbox import Sandbox
    source = tmp_path / "student.py"
    source.write_text("X = 1\n")
    with Sandbox("student", {"student.py": source}) as box:
        run = box.run_examples([], timeout=5)
        assert run.reply is not None and run.reply.observations == []
        checked = box.preflight([], timeout=5)
        assert checked.reply is not None and checked.reply.names == {}


@pytest.mark.parametrize("line", [
    b"[" * 20000 + b"]" * 20000,
    b'{"stdout": "", "value": [["set", 20000], ' + b", ".join(
        b'["int", "%d"]' % (k * (2 ** 61 - 1)) for k in range(1, 20001)) + b"]}",
    b'{"stdout": "", "value": [1], "passed": true}',
])
def test_a_call_server_forging_its_reply_line_breaks_only_that_call(tmp_path, line):
    from harness.sandbox import Sandbox
    source = tmp_path / "student.py"
    source.write_text("import os, sys\n"
                      "def forge():\n"
                      f"    os.write(int(sys.argv[1]), {line!r} + b'\\n')\n"
                      "    return 1\n")
    with Sandbox("student", {"student.py": source}) as box, box.start_server() as server:
        assert server.import_error == ""
        result = server.call("forge", [], timeout=10)
        assert not result.ok and result.crashed
        assert "reply too large or malformed" in result.error
