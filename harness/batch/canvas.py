"""A Canvas-importable grades file: ``canvas.csv`` beside the gradebook.

Canvas's gradebook import reads a CSV whose header starts ``Student, ID, SIS User ID, SIS Login
ID, Section`` and continues with one column per assignment; a second row whose Student cell is
``Points Possible`` gives each assignment's maximum, as Canvas's own export writes it. Canvas
matches a row to a student by its IDs, so each student of the batch gets a row: the name and
the student id (``SIS User ID``) come from the export's metadata, and what the export does not
know (Canvas's own ``ID``, the login, the section) stays empty.

A score stays empty where writing one could be wrong: a submission without a final result, and
a student found in several submissions (the gradebook marks them; an instructor picks which).
An empty cell leaves Canvas's grade as it was.
"""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Sequence

from harness.batch.gradebook import members, points, write_csv
from harness.batch.statuses import identity
from harness.batch.store import Record

HEADER = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
POINTS_POSSIBLE = "Points Possible"


def write_canvas(path: Path, records: Sequence[Record], assignment: str) -> None:
    """Write ``path``: the Canvas header with ``assignment`` as the grade column, the points
    possible, then one row per student (sorted by name)."""
    pairs = members(records)
    submissions: dict[str, set[str]] = defaultdict(set)
    for student, record in pairs:
        submissions[identity(student)].add(record.submission.key)
    maximum = max((r.max_score for r in records if r.document), default=0.0)
    rows: list[list[str]] = [[POINTS_POSSIBLE, "", "", "", "", points(maximum)]]
    written: set[str] = set()
    for student, record in pairs:
        who = identity(student)
        if who in written:
            continue
        written.add(who)
        score = "" if len(submissions[who]) > 1 else points(record.score)
        rows.append([student.label, "", student.sid, "", "", score])
    write_csv(path, [*HEADER, assignment], rows)


__all__ = ["HEADER", "POINTS_POSSIBLE", "write_canvas"]
