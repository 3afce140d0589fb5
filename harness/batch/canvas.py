"""A Canvas-importable grades file: ``canvas.csv`` beside the gradebook.

Canvas's gradebook import reads a CSV whose header starts ``Student, ID, SIS User ID, SIS Login
ID, Section`` and continues with one column per assignment; a row whose Student cell holds
``Points Possible`` gives each assignment's maximum, as Canvas's own export writes it. Canvas
matches a row to a student by its IDs, and by the name when a row has none. Names are the
students' own (Gradescope lets them choose one), so:

- a name Canvas would read as a control row (``Points Possible``, and the ``Muted``, ``Manual
  Posting`` and ``Read Only`` rows of its exports) is withheld from the Student cell;
- a row goes out only with an identifier Canvas matches on, and one no other student of the
  batch claims: a row with none would be matched by name, so a second account named like
  another student would set that student's grade. The identifiers come from the roster
  (``--roster``, ``harness.batch.roster``), else the export's student id (``SIS User ID``),
  else, when asked (``--folder-logins``), a plain folder's name as the ``SIS Login ID``;
- a student left out is returned with the reason, and the batch lists them at its end.

A score stays empty where writing one could be wrong: a submission without a final result, and
a student found in several submissions (the gradebook marks them; an instructor picks which).
An empty cell leaves Canvas's grade as it was.
"""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from harness.batch.discover import Student
from harness.batch.gradebook import members, points, write_csv
from harness.batch.roster import CanvasIds, Roster
from harness.batch.statuses import identity
from harness.batch.store import Record
from harness.wire.safe_text import spreadsheet_cell

HEADER = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
POINTS_POSSIBLE = "Points Possible"
CONTROL_ROWS = re.compile(r"points\s*possible|muted|manual\s*posting|read\s*only", re.I)
"""What Canvas's importer (or its own export's extra rows) reads in a Student cell as a row of
its own rather than a student's."""
WITHHELD = "(name withheld: Canvas reads it as a control row)"


@dataclass(frozen=True)
class Unmatched:
    """A student the Canvas file leaves out, and why."""

    student: str
    submission: str
    reason: str

    def describe(self) -> str:
        return f"{self.student} (submission {self.submission}): {self.reason}"


@dataclass(frozen=True)
class CanvasOptions:
    """Where the Canvas rows take their identifiers from (``gamegrader batch`` options)."""

    roster: Roster | None = None
    folder_logins: bool = False


def _ids(student: Student, submission: str, options: CanvasOptions) -> tuple[CanvasIds, str]:
    """The student's identifiers, or empty ones and why there are none."""
    if options.roster is not None:
        found, why = options.roster.find(student, submission)
        return found or CanvasIds(), why
    if student.sid:
        return CanvasIds(sis_user_id=student.sid), ""
    if options.folder_logins and not student.email:
        return CanvasIds(sis_login_id=student.name), ""
    return CanvasIds(), ("no identifier Canvas matches on (a plain folder: give --roster, or "
                         "--folder-logins if the folders are named after Canvas logins)")


def _unsafe(ids: CanvasIds) -> str:
    """Why an identifier cannot be written as it is (a cell a spreadsheet would run), or ""."""
    for title, value in [*_identifiers(ids), ("Section", ids.section)]:
        if spreadsheet_cell(value) != value:
            return f"its {title} {value[:40]!r} starts like a spreadsheet formula"
    return ""


def write_canvas(path: Path, records: Sequence[Record], assignment: str,
                 options: CanvasOptions = CanvasOptions()) -> list[Unmatched]:
    """Write ``path``: the Canvas header with ``assignment`` as the grade column, the points
    possible, then one row per student Canvas can match (sorted by name); return the students
    left out, with the reason."""
    pairs = members(records)
    submissions: dict[str, set[str]] = defaultdict(set)
    for student, record in pairs:
        submissions[identity(student)].add(record.submission.key)
    maximum = max((r.max_score for r in records if r.document), default=0.0)
    candidates: list[tuple[Student, Record, CanvasIds]] = []
    unmatched: list[Unmatched] = []
    written: set[str] = set()
    for student, record in pairs:
        who = identity(student)
        if who in written:
            continue
        written.add(who)
        ids, why = _ids(student, record.submission.path.name, options)
        why = why or _unsafe(ids)
        if why or not ids.any:
            unmatched.append(Unmatched(student.label, record.submission.key, why))
            continue
        candidates.append((student, record, ids))
    claimed: dict[tuple[str, str], list[int]] = defaultdict(list)
    for index, (_, _, ids) in enumerate(candidates):
        for title, value in _identifiers(ids):
            claimed[(title, value.lower())].append(index)
    rows: list[list[str]] = [[POINTS_POSSIBLE, "", "", "", "", points(maximum)]]
    for index, (student, record, ids) in enumerate(candidates):
        shared = [(title, others) for title, value in _identifiers(ids)
                  if len(others := claimed[(title, value.lower())]) > 1]
        if shared:
            title, others = shared[0]
            names = ", ".join(candidates[i][0].label for i in others if i != index)
            unmatched.append(Unmatched(student.label, record.submission.key,
                                       f"its {title} is also given for {names}; neither row "
                                       "is written"))
            continue
        name = WITHHELD if CONTROL_ROWS.search(student.label) else student.label
        score = "" if len(submissions[identity(student)]) > 1 else points(record.score)
        rows.append([name, ids.canvas_id, ids.sis_user_id, ids.sis_login_id, ids.section,
                     score])
    write_csv(path, [*HEADER, assignment], rows)
    return unmatched


def _identifiers(ids: CanvasIds) -> list[tuple[str, str]]:
    """The identifiers Canvas matches on that ``ids`` holds, as (column title, value)."""
    return [(title, value) for title, value in zip(HEADER[1:4], (
        ids.canvas_id, ids.sis_user_id, ids.sis_login_id)) if value]


__all__ = ["CONTROL_ROWS", "CanvasOptions", "HEADER", "POINTS_POSSIBLE", "Unmatched",
           "WITHHELD", "write_canvas"]
