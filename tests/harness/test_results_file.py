"""results.json: always valid, explicit statuses, atomic writes, a provisional file first."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from harness import results
from harness.spec.doctests import parse_transcript
from harness.spec.model import Case, Visibility
from harness.verdicts import CaseResult, Verdict

SCHEMA = json.loads((Path(results.__file__).parent / "data/results_schema.json").read_text())


def case(number: str, points: float, visibility: Visibility = Visibility.VISIBLE) -> Case:
    return Case(id=f"g::{number}", number=number, group="g", name=f"case {number}",
                points=points, visibility=visibility, timeout=1, file=Path("x.yaml"),
                examples=parse_transcript(">>> 1\n1\n"))


def test_document_is_schema_valid_with_partial_credit_and_numeric_time():
    document = results.build([
        CaseResult(case("1.2", 3), Verdict.WRONG_ANSWER, 1.0, "move right"),
        CaseResult(case("1.1", 2, Visibility.AFTER_DUE_DATE), Verdict.PASSED, 2.0),
        CaseResult(case("1.10", 1), Verdict.TIMED_OUT, 0.0, "did not finish", "x" * 50_000),
    ], output="summary", execution_time=1.23456)
    jsonschema.validate(document, SCHEMA)
    assert document["score"] == 3.0 and isinstance(document["execution_time"], float)
    assert [t["number"] for t in document["tests"]] == ["1.1", "1.2", "1.10"]
    assert [t["status"] for t in document["tests"]] == ["passed", "failed", "failed"]
    assert document["tests"][0]["visibility"] == "after_due_date"
    assert "1/3 points" in document["tests"][1]["output"]
    assert len(document["tests"][2]["output"]) < 10_000


def test_not_run_cases_keep_their_max_score():
    document = results.build(results.not_run([case("1.1", 4)], "not run: budget"),
                             output="", execution_time=0)
    assert document["tests"][0]["max_score"] == 4 and document["tests"][0]["score"] == 0


def test_write_is_atomic_and_refuses_invalid_documents(tmp_path):
    target = tmp_path / "results.json"
    results.write(target, results.provisional("starting"))
    assert not results.is_final(target)
    with pytest.raises(jsonschema.ValidationError):
        results.write(target, {"score": "10", "execution_time": 1})
    assert json.loads(target.read_text())["output"] == "starting"  # the old file is intact
    results.write(target, results.build([], output="done", execution_time=0))
    assert results.is_final(target)
    assert [p.name for p in tmp_path.iterdir()] == ["results.json"]


def test_invalid_unicode_and_nul_bytes_in_feedback_still_validate():
    from harness.sandbox.capture import BoundedBuffer
    buffer = BoundedBuffer(100)
    buffer.add(b"\xff\xfe\x00bad\x00\x1b[2J")
    document = results.build([CaseResult(case("1.1", 1), Verdict.CRASHED, 0, "", buffer.text())],
                             output="", execution_time=0)
    text = json.dumps(document)
    assert "\\u0000" not in text and "\\u001b" not in text
    jsonschema.validate(document, SCHEMA)
