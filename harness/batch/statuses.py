"""Each batch submission's status for the gradebook and the report.

``graded``; ``ungradable: why`` when no case could run (a syntax error and its line, a missing
main file, a submission over the intake caps); ``interrupted: ...`` when the batch was stopped
(Ctrl-C, SIGTERM) while it was graded (no grade; the next run grades it); ``error: why`` when
grading itself failed. A
student found in more than one submission is marked on each of them, so an instructor sees which
score to keep.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Sequence

from harness.batch.discover import Student
from harness.batch.jobs import INTERRUPTED, UNGRADABLE
from harness.batch.store import NOT_GRADED, Record
from harness.compare.mirror_images import RIGHT_ONLY_WHERE_SHOWN
from harness.intake.python_version import NEWER_PYTHON


def base_status(record: Record) -> str:
    """The status of one record, without duplicate marks."""
    if record.problem:
        return record.problem if record.problem.startswith((UNGRADABLE, INTERRUPTED, NOT_GRADED)) \
            else f"error: {record.problem}"
    extra = (record.document or {}).get("extra_data", {})
    extra = extra if isinstance(extra, dict) else {}
    if extra.get("ungradable"):
        return f"{UNGRADABLE} {extra['ungradable']}"
    newer = extra.get(NEWER_PYTHON)  # a score earned on a newer Python than Gradescope's
    mirrored = extra.get(RIGHT_ONLY_WHERE_SHOWN)  # shown answers kept rather than searched?
    notes = [str(newer)] if newer else []
    if isinstance(mirrored, list) and mirrored:
        notes.append(f"right only where it was shown (wrong on {len(mirrored)} mirror "
                     f"image{'s' if len(mirrored) > 1 else ''} of visible positions)")
    return "; ".join(["graded", *notes])


def is_ungradable(record: Record) -> bool:
    """Whether no case of the submission could run (the student's fault, counted apart)."""
    return base_status(record).startswith(UNGRADABLE)


def identities(record: Record) -> set[str]:
    """Who submitted it: each submitter's email, else id, else name (lower case)."""
    return {identity(s) for s in record.submission.students if s.email or s.sid or s.name}


def identity(student: Student) -> str:
    """What tells one student from another across submissions: email, else id, else name."""
    return (student.email or student.sid or student.name).strip().lower()


def statuses(records: Sequence[Record]) -> dict[str, str]:
    """Submission key -> status, with "; also in KEY" for a student in several submissions."""
    keys_of: dict[str, list[str]] = defaultdict(list)
    for record in records:
        for who in identities(record):
            keys_of[who].append(record.submission.key)
    result = {}
    for record in records:
        others = sorted({k for who in identities(record) for k in keys_of[who]
                         if k != record.submission.key})
        status = base_status(record)
        result[record.submission.key] = status + (
            f"; same student also in {', '.join(others)}" if others else "")
    return result
