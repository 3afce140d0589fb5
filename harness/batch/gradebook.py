"""The CSV gradebook of a batch: one row per student (each member of a group submission gets
the group's score), one column per test's points."""
from __future__ import annotations

import csv
from pathlib import Path
from typing import Any, Iterable, Sequence

from harness.batch.discover import Student
from harness.batch.statuses import statuses
from harness.batch.store import Record
from harness.wire.safe_text import spreadsheet_cell

FIXED_COLUMNS = ("student", "email", "sid", "submission", "group", "score", "max_score", "status")


def number_key(number: str) -> tuple[int, ...]:
    """Sort key of a test number such as ``"2.10"`` (numerically, part by part)."""
    try:
        return tuple(int(part) for part in str(number).split("."))
    except ValueError:
        return (10**9,)


def test_columns(records: Sequence[Record]) -> list[tuple[str, str]]:
    """``(number, column title)`` of every test seen in any document, in test-number order."""
    seen: dict[str, str] = {}
    for record in records:
        for test in (record.document or {}).get("tests", []):
            number = str(test.get("number", ""))
            seen.setdefault(number, f"{number} {test.get('name', '')}".strip())
    return sorted(seen.items(), key=lambda item: number_key(item[0]))


def points(value: Any) -> str:
    """Points as the CSV files write them: up to four decimals, no trailing zeros."""
    return f"{float(value):.4f}".rstrip("0").rstrip(".") if value is not None else ""


def members(records: Sequence[Record]) -> list[tuple[Student, Record]]:
    """Every (student, submission) pair, sorted by student then submission: a group
    submission gives one pair per member."""
    pairs = [(student, record) for record in records for student in record.submission.students]
    return sorted(pairs, key=lambda pair: (pair[0].label.lower(), pair[1].submission.key))


def write_gradebook(path: Path, records: Sequence[Record]) -> None:
    """Write ``path`` (UTF-8 CSV, header row first, one row per student, sorted by student then
    submission).

    ``group`` names the other members of a group submission; ``score`` is empty for a
    submission without a final result; ``status`` is explained in ``harness.batch.statuses``;
    the per-test columns hold the points earned on each test.
    """
    columns = test_columns(records)
    status = statuses(records)
    rows = []
    for student, record in members(records):
        tests = {str(t.get("number", "")): t for t in (record.document or {}).get("tests", [])}
        others = [s.label for s in record.submission.students if s is not student]
        rows.append([
            student.label, student.email, student.sid, record.submission.key,
            "; ".join(others),
            points(record.score),
            points(record.max_score) if (record.document or {}).get("tests") else "",
            status[record.submission.key],
            *(points(tests[number].get("score")) if number in tests else ""
              for number, _ in columns),
        ])
    write_csv(path, [*FIXED_COLUMNS, *(title for _, title in columns)], rows)


def write_csv(path: Path, header: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """A UTF-8 CSV file with a header row (the folder is created if needed); no cell can run as
    a spreadsheet formula (``harness.wire.safe_text.spreadsheet_cell``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow([spreadsheet_cell(cell) for cell in header])
        writer.writerows([spreadsheet_cell(cell) for cell in row] for row in rows)
