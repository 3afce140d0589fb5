"""The output folder of a batch: one folder per submission holding its results.json and an
``input.json`` that records what was graded (the fingerprint that makes a rerun skip it).

Layout::

    DIR/gradebook.csv  DIR/canvas.csv  DIR/failures.csv  DIR/report.html
    DIR/submissions/<key>/results.json   (what ``gamegrader grade`` wrote, unchanged)
    DIR/submissions/<key>/input.json     (fingerprint, submitters, source path, seconds)
    DIR/submissions/<key>/feedback.html  (every test's feedback, for instructors)

results.json is written before input.json, so a batch stopped between the two regrades that
submission next time rather than trusting a half-written record.
"""
from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.batch.discover import Submission
from harness.batch.jobs import JobResult
from harness.grading import results as results_file

SUBMISSIONS = "submissions"
NOT_GRADED = "not graded yet"
"""The problem of a submission the output folder holds nothing for (a new one, after a batch
that stopped before it)."""


@dataclass(frozen=True)
class Record:
    """A submission with what the output folder holds for it.

    Attributes:
        submission: the submission.
        document: its results document (None if never graded).
        seconds: the wall-clock time of its grading process (0 if unknown).
        problem: "" if the document is final; otherwise what went wrong.
    """

    submission: Submission
    document: dict[str, Any] | None
    seconds: float
    problem: str

    @property
    def score(self) -> float | None:
        if self.document is None or self.problem:
            return None
        return float(self.document.get("score", 0.0))

    @property
    def max_score(self) -> float:
        tests = (self.document or {}).get("tests", [])
        return float(sum(t.get("max_score", 0) for t in tests))

    def folder(self, out: Path) -> Path:
        return submission_folder(out, self.submission.key)


def submission_folder(out: Path, key: str) -> Path:
    return out / SUBMISSIONS / key


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".input-", suffix=".json")
    with os.fdopen(handle, "w", encoding="utf-8") as stream:
        json.dump(data, stream, indent=2, ensure_ascii=False)
        stream.write("\n")
    os.replace(temporary, path)


def is_current(out: Path, key: str, fingerprint: str) -> bool:
    """Whether the output already holds a final result for exactly this input."""
    folder = submission_folder(out, key)
    recorded = _read_json(folder / "input.json")
    return (isinstance(recorded, dict) and recorded.get("fingerprint") == fingerprint
            and not recorded.get("problem") and results_file.is_final(folder / "results.json"))


def save(out: Path, submission: Submission, outcome: JobResult, fingerprint: str) -> Record:
    """Store one outcome. A grading run that left no final document still gets a results.json
    (a provisional one saying what went wrong), and no fingerprint, so a rerun retries it."""
    folder = submission_folder(out, submission.key)
    document = outcome.document
    if document is None or not outcome.is_final:
        document = results_file.provisional(
            f"Batch grading did not finish for this submission: {outcome.problem}")
    results_file.write(folder / "results.json", document)
    _write_json(folder / "input.json", {
        "fingerprint": fingerprint if outcome.is_final else None,
        "source": str(submission.path),
        "students": [vars(s) for s in submission.students],
        "created_at": submission.created_at,
        "seconds": round(outcome.seconds, 3),
        "problem": outcome.problem,
        "stderr_tail": outcome.stderr_tail if outcome.problem else "",
    })
    return Record(submission, document, outcome.seconds, outcome.problem)


def load(out: Path, submission: Submission) -> Record:
    """What the output folder holds for ``submission`` (never raises for missing files)."""
    folder = submission_folder(out, submission.key)
    document = _read_json(folder / "results.json")
    recorded = _read_json(folder / "input.json")
    recorded = recorded if isinstance(recorded, dict) else {}
    if not isinstance(document, dict):
        return Record(submission, None, 0.0, NOT_GRADED)
    problem = str(recorded.get("problem") or "")
    if not problem and not results_file.is_final(folder / "results.json"):
        problem = "its results.json is not final"
    return Record(submission, document, float(recorded.get("seconds") or 0.0), problem)
