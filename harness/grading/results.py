"""results.json: built from case results, validated against Gradescope's schema, written atomically.

Only this module writes the file. A provisional document is written first, so a run killed midway
still leaves valid JSON; the final document replaces it once, at the end. Every string written
passes through ``safe_text`` (student text can hold lone surrogates and terminal escapes).

A full disk at the end must not cost the results: the provisional file is written with
``reserve`` bytes of trailing whitespace (still valid JSON), and if the atomic write of the final
document fails for lack of space, the final document is written over those already-allocated
bytes instead (with its feedback texts shortened if it would not fit).
"""
from __future__ import annotations

import errno
import functools
import json
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

from harness import schema_checks
from harness.grading import feedback
from harness.records.spec import Case
from harness.records.verdicts import CaseResult, Verdict
from harness.wire.safe_text import safe_text

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "data" / "results_schema.json"
OUTPUT_LIMIT = 8000
# Room kept on disk for the final document (about 250 cases with 2,000 characters of feedback
# each fit; a larger document is shortened to fit, see ``_fit``).
RESERVE_BYTES = 2 * 1024 * 1024
_NO_SPACE = (errno.ENOSPC, errno.EDQUOT)

if TYPE_CHECKING:
    import jsonschema


@functools.lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    """Built once per process (a batch saves a document per submission), and only for a
    document the generated check refuses: jsonschema is slow to import."""
    import jsonschema
    return jsonschema.Draft202012Validator(json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))


def validate(document: dict[str, Any]) -> None:
    """Raise ``jsonschema.ValidationError`` if the document breaks Gradescope's format."""
    if not schema_checks.passes("results", document):
        _validator().validate(document)


def _cap(text: str, limit: int = OUTPUT_LIMIT) -> str:
    return safe_text(text, limit)


def _clean(data: Any) -> Any:
    """The document with every string made safe (a document is a few levels deep)."""
    if isinstance(data, str):
        return safe_text(data)
    if isinstance(data, dict):
        return {safe_text(key) if isinstance(key, str) else key: _clean(value)
                for key, value in data.items()}
    if isinstance(data, list):
        return [_clean(item) for item in data]
    return data


def test_entry(result: CaseResult) -> dict[str, Any]:
    """One Gradescope test object; ``status`` is set explicitly (partial credit shows as failed
    only because it is not full credit, and the output says how much was earned). A case
    with a picture is written in Markdown (``harness.grading.feedback``), any other as text."""
    case = result.case
    entry = {
        "name": case.title,
        "number": case.number,
        "score": round(result.score, 6),
        "max_score": case.points,
        "status": "passed" if result.passed else "failed",
        "output": _cap(result.feedback()),
        "visibility": case.visibility.value,
        "extra_data": {"verdict": result.verdict.name, "seconds": round(result.seconds, 3),
                       "case_id": case.id},
    }
    if result.picture:
        entry.update(output=_cap(feedback.markdown(result)), output_format=feedback.MARKDOWN)
    return entry


def not_run(cases: Iterable[Case], why: str) -> list[CaseResult]:
    """Results for cases that never ran: they keep their max score, and say why."""
    return [CaseResult(case, Verdict.NOT_RUN, 0.0, why) for case in cases]


def build(results: list[CaseResult], *, output: str, execution_time: float,
          extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The final document: tests in spec order, a top-level score, numeric execution time
    (checked against the schema by ``write``)."""
    ordered = sorted(results, key=lambda r: tuple(int(x) for x in r.case.number.split(".")))
    document = {
        "score": round(sum(r.score for r in ordered), 4),  # from unrounded case scores
        "execution_time": round(max(execution_time, 0.0), 3),
        "output": _cap(output, 20000),
        "output_format": "text",
        "test_output_format": "text",
        "tests": [test_entry(r) for r in ordered],
        "extra_data": {"final": True, **(extra or {})},
    }
    leaderboard = [dict(entry) for r in ordered for entry in r.leaderboard]
    if leaderboard:
        document["leaderboard"] = leaderboard
    cleaned: dict[str, Any] = _clean(document)
    return cleaned  # validated where it is written (``write``), once


def provisional(message: str, **extra: Any) -> dict[str, Any]:
    """What stays on disk if the run is killed before the end (never final: no grade)."""
    return {"score": 0, "execution_time": 0, "output": message, "output_format": "text",
            "tests": [], "extra_data": {**extra, "final": False}}


MISCONFIGURED = "spec_error"
"""``extra_data`` key of a document written instead of a grading because the spec is broken."""


def misconfigured(problem: str) -> dict[str, Any]:
    """The document a grading refused for a broken spec leaves: no grade (never final), and a
    message a student reads as what it is, with the instructor's details after it."""
    return provisional("The autograder is misconfigured; your submission was not graded. "
                       "Please tell your instructor, who will find the cause here: "
                       f"{problem}", **{MISCONFIGURED: problem})


INTERRUPTED = "interrupted"
"""``extra_data`` key of a document whose grading was stopped (Ctrl-C, SIGTERM) before it
finished: not a grade; the next run grades the submission again."""


def interrupted(how: str) -> dict[str, Any]:
    """The document a grading stopped by ``how`` (e.g. "SIGINT") leaves."""
    return provisional(f"Grading was interrupted ({how}) before it finished, so this "
                       "submission has no grade yet: it must be graded again.",
                       **{INTERRUPTED: how})


def serialize(document: dict[str, Any]) -> bytes:
    """The bytes ``write`` puts on disk for ``document`` (already checked)."""
    return (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def checked(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` with every string made safe, validated (``jsonschema.ValidationError``
    if it breaks Gradescope's format)."""
    cleaned: dict[str, Any] = _clean(document)
    validate(cleaned)
    return cleaned


def write(path: Path, document: dict[str, Any], *, reserve: int = 0) -> None:
    """Validate, then write atomically (temporary file in the same folder, then replace).

    ``reserve``: bytes of trailing whitespace to keep allocated after the document (for the
    provisional file), which a later write reuses when the disk is full.
    """
    document = checked(document)
    data = serialize(document)
    try:
        _write_atomically(path, data, reserve)
    except OSError as exc:
        if exc.errno not in _NO_SPACE or not _write_in_place(path, document, data):
            raise


def _write_atomically(path: Path, data: bytes, reserve: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".results-", suffix=".json")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            padding = b" " * 65536
            while reserve > 0:
                reserve -= stream.write(padding[:reserve])
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def _write_in_place(path: Path, document: dict[str, Any], data: bytes) -> bool:
    """The disk is full: overwrite the existing (provisional, padded) file's own bytes, which
    needs no new space. False if there is no such file or the document cannot fit in it."""
    try:
        room = os.lstat(path).st_size
    except OSError:
        return False
    fitted = data if len(data) <= room else _fit(document, room)
    if fitted is None:
        return False
    with open(path, "r+b") as stream:
        stream.write(fitted)
        stream.truncate(len(fitted))
        stream.flush()
        os.fsync(stream.fileno())
    return True


def _fit(document: dict[str, Any], room: int) -> bytes | None:
    """The document with its feedback texts shortened until it takes at most ``room`` bytes."""
    for limit in (2000, 500, 100, 0):
        shorter = dict(document, output=safe_text(document.get("output", ""), limit * 4),
                       tests=[dict(test, output=safe_text(test.get("output", ""), limit))
                              for test in document.get("tests", [])])
        data = serialize(shorter)
        if len(data) <= room:
            return data
    return None


def is_final(path: Path) -> bool:
    """Whether ``path`` holds a final (not provisional) valid results document."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if not (schema_checks.passes("results", document) or _validator().is_valid(document)):
        return False
    return bool(document.get("extra_data", {}).get("final"))
