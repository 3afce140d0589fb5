"""results.json: built from case results, validated against Gradescope's schema, written atomically.

Only this module writes the file. A provisional document is written first, so a run killed midway
still leaves valid JSON; the final document replaces it once, at the end.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Iterable

import jsonschema

from harness.spec.model import Case
from harness.verdicts import CaseResult, Verdict

SCHEMA_PATH = Path(__file__).resolve().parent / "data" / "results_schema.json"
OUTPUT_LIMIT = 8000


def _schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def validate(document: dict[str, Any]) -> None:
    """Raise ``jsonschema.ValidationError`` if the document breaks Gradescope's format."""
    jsonschema.Draft202012Validator(_schema()).validate(document)


def _cap(text: str, limit: int = OUTPUT_LIMIT) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n[... {len(text) - limit} more characters cut by the grader]"


def test_entry(result: CaseResult) -> dict[str, Any]:
    """One Gradescope test object; ``status`` is set explicitly (partial credit shows as failed
    only because it is not full credit, and the output says how much was earned)."""
    case = result.case
    return {
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


def not_run(cases: Iterable[Case], why: str) -> list[CaseResult]:
    """Results for cases that never ran: they keep their max score, and say why."""
    return [CaseResult(case, Verdict.NOT_RUN, 0.0, why) for case in cases]


def build(results: list[CaseResult], *, output: str, execution_time: float,
          extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The final document: tests in spec order, a top-level score, numeric execution time."""
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
    validate(document)
    return document


def provisional(message: str) -> dict[str, Any]:
    """What stays on disk if the run is killed before the end."""
    return {"score": 0, "execution_time": 0, "output": message, "output_format": "text",
            "tests": [], "extra_data": {"final": False}}


def write(path: Path, document: dict[str, Any]) -> None:
    """Validate, then write atomically (temporary file in the same folder, then replace)."""
    validate(document)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".results-", suffix=".json")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            json.dump(document, stream, indent=2, ensure_ascii=False)
            stream.write("\n")
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


def is_final(path: Path) -> bool:
    """Whether ``path`` holds a final (not provisional) valid results document."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        validate(document)
    except (OSError, ValueError, jsonschema.ValidationError):
        return False
    return bool(document.get("extra_data", {}).get("final"))
