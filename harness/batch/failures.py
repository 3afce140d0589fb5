"""Why the class fails a test: each test's failure messages, grouped, with how many hit each.

A test that most students fail with one message is probably a hard concept or a wrong test;
read which. Messages are grouped by their shape: the verdict and the first line of the feedback,
with the numbers and quoted values of the particular case taken out, so "leaf count differs
(yours: 0), lower than the reference's" and "(yours: 12)" count together.
"""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from harness.batch.gradebook import number_key, write_csv
from harness.batch.store import Record
from harness.grading.feedback import output_text

PATTERN_LENGTH = 160
_POINTS = re.compile(r"\s*\([-\d.]+/[-\d.]+ points?\)")
_YOURS = re.compile(r"\(yours: [^)]*\)")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
_NUMBER = re.compile(r"-?\b\d+(?:\.\d+)?(?:e[-+]?\d+)?\b")
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class FailureGroup:
    """Students who failed one test with feedback of one shape."""

    number: str
    test: str
    pattern: str
    students: tuple[str, ...]

    @property
    def count(self) -> int:
        return len(self.students)


def pattern_of(output: str) -> str:
    """The shape of a test's feedback: verdict, then the first line of the message, with the
    case's own numbers and values replaced by placeholders."""
    lines = [line.strip() for line in str(output).splitlines() if line.strip()]
    if not lines:
        return "(no feedback)"
    verdict = _POINTS.sub("", lines[0])
    detail = lines[1] if len(lines) > 1 and not lines[1].startswith("Your code printed") else ""
    text = f"{verdict}: {detail}" if detail else verdict
    text = _YOURS.sub("(yours: …)", text)
    text = _QUOTED.sub("'…'", text)
    text = _NUMBER.sub("N", text)
    text = _SPACES.sub(" ", text).strip()
    return text[:PATTERN_LENGTH] + ("…" if len(text) > PATTERN_LENGTH else "")


def failure_groups(records: Sequence[Record]) -> list[FailureGroup]:
    """Every (test, message shape) with the students who hit it, by test number, most common
    shape first within a test. Submissions without a final result are left out."""
    grouped: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    for record in records:
        if record.score is None:
            continue
        for test in (record.document or {}).get("tests", []):
            if test.get("status") == "passed":
                continue
            key = (str(test.get("number", "")), str(test.get("name", "")),
                   pattern_of(output_text(test)))
            grouped[key].append(record.submission.student_label)
    groups = [FailureGroup(number, name, pattern, tuple(students))
              for (number, name, pattern), students in grouped.items()]
    groups.sort(key=lambda g: (number_key(g.number), -g.count, g.pattern))
    return groups


def write_failures_csv(path: Path, groups: Sequence[FailureGroup]) -> None:
    """``failures.csv``: test number, test, message shape, students, and who (";"-separated)."""
    write_csv(path, ["number", "test", "failure", "students", "who"],
              ([g.number, g.test, g.pattern, g.count, "; ".join(g.students)] for g in groups))


def as_rows(groups: Sequence[FailureGroup], per_test: int = 3) -> list[dict[str, Any]]:
    """The ``per_test`` most common shapes of each test, for the report."""
    seen: dict[str, int] = defaultdict(int)
    rows = []
    for group in groups:
        seen[group.number] += 1
        if seen[group.number] <= per_test:
            rows.append({"number": group.number, "test": group.test, "pattern": group.pattern,
                         "count": group.count})
    return rows
