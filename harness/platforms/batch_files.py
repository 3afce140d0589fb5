"""``gamegrader batch --format NAME``: besides the batch's own results.json per submission, that
platform's file for each (``DIR/platform-NAME/<key>/<file>``) and a summary of them
(``DIR/platform-NAME/summary.csv``: key, score, maximum, the platform's 0-1 fraction, file, and
status: graded, ungradable or the grader's fault)."""
from __future__ import annotations

import csv
from pathlib import Path
from typing import Sequence

from harness.batch.store import Record
from harness.platforms.formats import FORMATS, write
from harness.platforms.outcome import from_document
from harness.platforms.submitted import submission_time
from harness.wire.safe_text import spreadsheet_cell

SUMMARY = "summary.csv"


def write_platform_files(out: Path, records: Sequence[Record], name: str,
                         assignment: str) -> Path:
    """Write format ``name``'s file for every record with a results document, and the
    summary; returns the summary's path."""
    folder = out / f"platform-{name}"
    rows: list[list[object]] = []
    for record in records:
        key = record.submission.key
        if record.document is None:
            rows.append([key, "", "", "", "", "no result"])
            continue
        outcome = from_document(record.document, assignment, record.submission.created_at
                                or submission_time(record.submission.path))
        target = folder / key / FORMATS[name].file_name
        write(name, outcome, target)
        status = ("fault: " + outcome.fault if outcome.fault else
                  "ungradable: " + outcome.ungradable if outcome.ungradable else "graded")
        rows.append([key, f"{outcome.score:g}", f"{outcome.max_score:g}",
                     f"{outcome.fraction:.6f}", target.relative_to(out).as_posix(), status])
    folder.mkdir(parents=True, exist_ok=True)
    summary = folder / SUMMARY
    with open(summary, "w", newline="", encoding="utf-8") as stream:
        table = csv.writer(stream)
        table.writerow(["submission", "score", "max_score", "fraction", "file", "status"])
        table.writerows([spreadsheet_cell(cell) for cell in row] for row in rows)
    return summary
