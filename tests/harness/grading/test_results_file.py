"""results.json: always valid, explicit statuses, atomic writes, a provisional file first."""
from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
from pathlib import Path

import jsonschema
import pytest

from harness.grading import results
from harness.records.spec import Case, Visibility
from harness.records.verdicts import CaseResult, Verdict
from harness.spec.doctests import parse_transcript

pytestmark = pytest.mark.slow

SCHEMA = json.loads(results.SCHEMA_PATH.read_text())


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


def test_student_text_with_surrogates_and_escapes_is_stored_safely(tmp_path):
    """A lone surrogate once made writing results.json fail (every test "not run"); terminal
    escapes passed through to --show and check."""
    hostile = "bad \ud800 text \x1b[2J\x1b]0;owned\x07 end \x9b31m" + "y" * 20_000
    document = results.build(
        [CaseResult(case("1.1", 1), Verdict.WRONG_ANSWER, 0, hostile, hostile)],
        output=hostile, execution_time=0)
    target = tmp_path / "results.json"
    results.write(target, document)
    text = target.read_text(encoding="utf-8")
    assert results.is_final(target)
    assert "\x1b" not in text and "\x9b" not in text and "owned" not in text
    assert "bad \ufffd text" in text and " end 31m" in text
    assert len(json.loads(text)["tests"][0]["output"]) < 10_000


def fill_disk(folder: Path) -> None:
    """Write a file until the file system refuses more."""
    with open(folder / "filler", "wb", buffering=0) as stream:
        try:
            while True:
                stream.write(b"\0" * 4096)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC


def big_document(cases: int = 40) -> dict:
    return results.build([CaseResult(case(f"1.{n}", 1), Verdict.WRONG_ANSWER, 0, "wrong " * 400)
                          for n in range(1, cases + 1)], output="done", execution_time=1)


def test_final_results_are_written_over_the_reserve_when_the_disk_is_full(tmp_path, monkeypatch):
    target = tmp_path / "results.json"
    results.write(target, results.provisional("starting"), reserve=results.RESERVE_BYTES)
    assert not results.is_final(target)  # padded with whitespace, still valid JSON

    def no_space(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(results, "_write_atomically", no_space)
    document = big_document()
    results.write(target, document)
    assert results.is_final(target)
    assert json.loads(target.read_text(encoding="utf-8")) == document


def test_a_document_larger_than_the_reserve_keeps_every_test_with_shorter_feedback(
        tmp_path, monkeypatch):
    target = tmp_path / "results.json"
    results.write(target, results.provisional("starting"), reserve=20_000)

    def no_space(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(results, "_write_atomically", no_space)
    document = big_document()
    results.write(target, document)
    written = json.loads(target.read_text(encoding="utf-8"))
    assert results.is_final(target)
    assert [t["score"] for t in written["tests"]] == [t["score"] for t in document["tests"]]
    assert written["score"] == document["score"]


def test_without_a_reserve_a_full_disk_is_reported(tmp_path, monkeypatch):
    def no_space(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(results, "_write_atomically", no_space)
    with pytest.raises(OSError):
        results.write(tmp_path / "results.json", big_document())


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("mount") is None,
                    reason="mounting a small tmpfs needs root")
def test_a_real_full_disk_still_gets_the_final_results(tmp_path):
    folder = tmp_path / "small"
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(folder)],
                             capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"tmpfs could not be mounted: {mounted.stderr.decode()[:200]}")
    try:
        target = folder / "results.json"
        results.write(target, results.provisional("starting"), reserve=results.RESERVE_BYTES)
        fill_disk(folder)
        document = big_document()
        results.write(target, document)
        assert json.loads(target.read_text(encoding="utf-8")) == document
        assert sorted(p.name for p in folder.iterdir()) == ["filler", "results.json"]
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def test_the_terminal_report_shows_no_control_sequences():
    """``check`` and ``grade --show`` print through report.render, whatever file they read."""
    from harness.grading.report import render
    nasty = "\x1b]0;title\x07\x1b[2J\x9b1m\ud800"
    text = render({"output": "summary" + nasty, "tests": [
        {"name": "case" + nasty, "number": "1.1", "score": 0, "max_score": 1,
         "status": "failed", "output": "Wrong answer\nexpected 1" + nasty}]})
    assert "\x1b" not in text and "\x9b" not in text and "title" not in text
    assert "\ufffd" in text and "expected 1" in text
