"""Whose grade moved: two batch output folders compared submission by submission.

After fixing a spec and regrading, an instructor uploads only with confidence once they have
seen exactly which students' scores or per-test outcomes changed, and in which tests.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from harness.batch.gradebook import number_key, write_csv
from harness.batch.store import SUBMISSIONS
from harness.grading import results as results_file
from harness.grading.feedback import output_text, points_text


class NotABatchFolder(ValueError):
    """The folder holds no batch output (no ``submissions/`` folder)."""


@dataclass(frozen=True)
class CaseOutcome:
    """One test's result: points, status, and the verdict its feedback opens with (a wrong
    answer that becomes a timeout is a change even at the same points)."""

    score: float
    status: str
    verdict: str = ""

    def describe(self, exact: bool = False) -> str:
        """Points and verdict, e.g. ``"2.67 (wrong answer)"`` (``exact``: as results.json has
        them, for the CSV file)."""
        return f"{_score(self.score, exact)} ({self.verdict or self.status})"


def _verdict(output: object) -> str:
    first = str(output).strip().split("\n", 1)[0]
    return first.split(" (", 1)[0].strip().lower()[:60]


@dataclass(frozen=True)
class TestChange:
    number: str
    name: str
    old: CaseOutcome | None
    new: CaseOutcome | None


NEW, REMOVED = "new", "removed"


@dataclass(frozen=True)
class StudentChange:
    """A submission whose score or some test's outcome differs, or that exists on one side
    only (``presence`` ``new`` or ``removed``: said in one line, without its tests)."""

    key: str
    label: str
    old_score: float | None
    new_score: float | None
    tests: tuple[TestChange, ...]
    presence: str = ""

    def summary(self) -> str:
        """The change of score in words, e.g. ``"30 -> 40 (+10)"``, ``"new: 40"`` or
        ``"removed (was 40)"``."""
        if self.presence == NEW:
            return f"new: {_score(self.new_score)}"
        if self.presence == REMOVED:
            return f"removed (was {_score(self.old_score)})"
        return f"{_score(self.old_score)} -> {_score(self.new_score)} ({signed(self.delta)})"

    @property
    def delta(self) -> float:
        return (self.new_score or 0.0) - (self.old_score or 0.0)


@dataclass(frozen=True)
class _Graded:
    label: str
    score: float | None
    tests: dict[str, tuple[str, CaseOutcome]]


def _read(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def load_batch(out: Path) -> dict[str, _Graded]:
    """Every submission of a batch output folder, by key.

    Raises:
        NotABatchFolder: ``out`` has no ``submissions/`` folder.
    """
    root = out / SUBMISSIONS
    if not root.is_dir():
        raise NotABatchFolder(f"{out} is not a batch output folder (no {SUBMISSIONS}/ in it)")
    graded = {}
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        document = _read(folder / "results.json")
        recorded = _read(folder / "input.json")
        students = recorded.get("students", []) if isinstance(recorded, dict) else []
        label = "; ".join(str(s.get("name") or s.get("email") or s.get("sid") or "")
                          for s in students if isinstance(s, dict)) or folder.name
        final = results_file.is_final(folder / "results.json") and not (
            isinstance(recorded, dict) and recorded.get("problem"))
        tests = {}
        for test in (document or {}).get("tests", []) if isinstance(document, dict) else []:
            number = str(test.get("number", ""))
            tests[number] = (str(test.get("name", "")),
                             CaseOutcome(float(test.get("score", 0.0)), str(test.get("status", "")),
                                     _verdict(output_text(test))))
        score = float(document.get("score", 0.0)) if final else None
        graded[folder.name] = _Graded(label, score, tests)
    return graded


def compare_batches(old_out: Path, new_out: Path) -> list[StudentChange]:
    """Every submission whose score or test outcomes differ between the two folders, largest
    score change first."""
    old, new = load_batch(old_out), load_batch(new_out)
    changes = []
    for key in sorted(set(old) | set(new)):
        before, after = old.get(key), new.get(key)
        numbers = sorted(set(before.tests if before else {}) | set(after.tests if after else {}),
                         key=number_key)
        tests = []
        for number in numbers:
            was = before.tests.get(number) if before else None
            now = after.tests.get(number) if after else None
            if (was and was[1]) != (now and now[1]):
                tests.append(TestChange(number, (now or was or ("", None))[0],
                                        was[1] if was else None, now[1] if now else None))
        old_score = before.score if before else None
        new_score = after.score if after else None
        presence = NEW if before is None else REMOVED if after is None else ""
        if tests or old_score != new_score or presence:
            label = (after or before).label  # type: ignore[union-attr]
            changes.append(StudentChange(key, label, old_score, new_score,
                                         () if presence else tuple(tests), presence))
    changes.sort(key=lambda c: (-abs(c.delta), c.label.lower(), c.key))
    return changes


def _score(value: float | None, exact: bool = False) -> str:
    """Points as people read them (at most two decimals), or ``exact`` for the CSV file."""
    return "–" if value is None else f"{value:g}" if exact else points_text(value)


def signed(change: float) -> str:
    """A change of points as people read it: ``+10``, ``-10.83``, ``+0``."""
    return ("-" if change < 0 else "+") + points_text(abs(change))


def render_changes(changes: Sequence[StudentChange], limit: int = 8) -> str:
    """Plain text for the terminal: one block per student, up to ``limit`` tests each."""
    if not changes:
        return "No score or test outcome changed."
    lines = [f"{len(changes)} submission{'s' if len(changes) != 1 else ''} changed:"]
    for change in changes:
        lines.append(f"  {change.label} [{change.key}]: {change.summary()}")
        for test in change.tests[:limit]:
            lines.append(f"      {test.number} {test.name}: "
                         f"{test.old.describe() if test.old else 'absent'} -> "
                         f"{test.new.describe() if test.new else 'absent'}")
        if len(change.tests) > limit:
            lines.append(f"      ... and {len(change.tests) - limit} more tests")
    return "\n".join(lines)


def write_changes_csv(path: Path, changes: Sequence[StudentChange]) -> None:
    """``changes.csv``: one row per changed test (or one per student whose score alone moved)."""
    rows: list[list[str]] = []
    for change in changes:
        head = [change.label, change.key, _score(change.old_score, True),
                _score(change.new_score, True)]
        rows.extend([*head, t.number, t.name, t.old.describe(True) if t.old else "absent",
                     t.new.describe(True) if t.new else "absent"] for t in change.tests)
        if not change.tests:
            rows.append([*head, "", "", "", ""])
    write_csv(path, ["student", "submission", "old_score", "new_score", "test_number", "test",
                     "old", "new"], rows)
