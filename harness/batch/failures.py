"""Why the class fails: failure messages grouped by their reason, per test and across tests.

A test that most students fail with one message is probably a hard concept or a wrong test;
read which. A message's reason is its diagnosis ("Likely mistake: ...") when the grader named
one, else its verdict and the first line that says what was wrong (the call that was made is
passed over), with the numbers and quoted values of the particular case taken out, so "leaf
count differs (yours: 0), lower than the reference's" and "(yours: 12)" count together.
Ungradable submissions (no case could run) are counted apart, by the report, not here: their
blocked cases would otherwise repeat one syntax error under every test.
"""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from harness.batch.gradebook import number_key, write_csv
from harness.batch.statuses import is_ungradable
from harness.batch.store import Record
from harness.grading.feedback import output_text

PATTERN_LENGTH = 160
_POINTS = re.compile(r"\s*\([-\d.]+/[-\d.]+ points?\)")
_YOURS = re.compile(r"\(yours: [^)]*\)")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
_NUMBER = re.compile(r"-?\b\d+(?:\.\d+)?(?:e[-+]?\d+)?\b")
_SPACES = re.compile(r"\s+")
_DIAGNOSIS = "Likely mistake:"
_NOT_A_REASON = (">>>", "...", "```")
_PRINTED = "Your code printed"  # what follows is the student's output, not the grader's words


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


def _lines(output: str) -> list[str]:
    """The feedback's non-empty lines, up to what the student's code printed."""
    lines = []
    for line in str(output).splitlines():
        if line.strip().startswith(_PRINTED):
            break
        if line.strip():
            lines.append(line.strip())
    return lines


def _shape(text: str) -> str:
    text = _YOURS.sub("(yours: …)", text)
    text = _QUOTED.sub("'…'", text)
    text = _NUMBER.sub("N", text)
    text = _SPACES.sub(" ", text).strip()
    return text[:PATTERN_LENGTH] + ("…" if len(text) > PATTERN_LENGTH else "")


def pattern_of(output: str) -> str:
    """The shape of a test's feedback: verdict, then the first line that says what was wrong
    (not the call made, nor what the code printed), with the case's own numbers and values
    replaced by placeholders."""
    lines = _lines(output)
    if not lines:
        return "(no feedback)"
    verdict = _POINTS.sub("", lines[0])
    detail = next((line for line in lines[1:] if not line.startswith(_NOT_A_REASON)), "")
    if detail.startswith(_DIAGNOSIS):
        detail = ""
    if detail.lower().startswith(verdict.lower().strip() + ":"):  # "not run: ..." said once
        detail = detail[len(verdict.strip()) + 1:].strip()
    return _shape(f"{verdict}: {detail}" if detail else verdict)


def reason_of(output: str) -> str:
    """Why a test failed, in words shared by every student who failed for the same reason:
    the diagnosis when the grader named the likely mistake, else :func:`pattern_of`."""
    diagnosis = next((line for line in _lines(output) if line.startswith(_DIAGNOSIS)), "")
    return _shape(diagnosis) if diagnosis else pattern_of(output)


@dataclass(frozen=True)
class ReasonGroup:
    """One reason for failing, with the tests it failed and the students it failed.

    ``submissions`` holds the key of each of ``students``' submissions (in the same order), for
    links to their feedback pages."""

    reason: str
    tests: tuple[tuple[str, str], ...]
    students: tuple[str, ...]
    failures: int
    submissions: tuple[str, ...] = ()


def _failed_tests(records: Sequence[Record]) -> list[tuple[Record, dict[str, Any]]]:
    """(record, test) of every failed test of the submissions graded (neither ungradable nor
    without a final result)."""
    return [(record, test) for record in records
            if record.score is not None and not is_ungradable(record)
            for test in (record.document or {}).get("tests", [])
            if test.get("status") != "passed"]


def reason_groups(records: Sequence[Record]) -> list[ReasonGroup]:
    """The class's failures grouped by reason, the reason most students hit first (then the one
    failing most tests). Submissions without a final result or ungradable are left out."""
    tests: dict[str, dict[str, str]] = defaultdict(dict)
    students: dict[str, dict[str, str]] = defaultdict(dict)
    failures: dict[str, int] = defaultdict(int)
    for record, test in _failed_tests(records):
        reason = reason_of(output_text(test))
        tests[reason][str(test.get("number", ""))] = str(test.get("name", ""))
        students[reason].setdefault(record.submission.student_label, record.submission.key)
        failures[reason] += 1
    groups = [ReasonGroup(reason, tuple(sorted(tests[reason].items(),
                                               key=lambda item: number_key(item[0]))),
                          tuple(students[reason]), failures[reason],
                          tuple(students[reason].values())) for reason in tests]
    groups.sort(key=lambda g: (-len(g.students), -len(g.tests), g.reason))
    return groups


def failure_groups(records: Sequence[Record]) -> list[FailureGroup]:
    """Every (test, message shape) with the students who hit it, by test number, most common
    shape first within a test. Submissions without a final result or ungradable are left
    out."""
    grouped: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    for record, test in _failed_tests(records):
        key = (str(test.get("number", "")), str(test.get("name", "")),
               reason_of(output_text(test)))
        grouped[key].append(record.submission.student_label)
    groups = [FailureGroup(number, name, pattern, tuple(students))
              for (number, name, pattern), students in grouped.items()]
    groups.sort(key=lambda g: (number_key(g.number), -g.count, g.pattern))
    return groups


def write_failures_csv(path: Path, groups: Sequence[FailureGroup]) -> None:
    """``failures.csv``: test number, test, message shape, students, and who (";"-separated)."""
    write_csv(path, ["number", "test", "failure", "students", "who"],
              ([g.number, g.test, g.pattern, g.count, "; ".join(g.students)] for g in groups))
