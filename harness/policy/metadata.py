"""The facts a policy needs, read defensively from Gradescope's submission metadata.

Every field may be missing or malformed (a local run has no file at all): each problem is kept
as a sentence for the note that says which policy was skipped, and never raises. Only the most
recent earlier submission carries its ``results`` (Gradescope's rule).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from harness.records.times import parse_time

MAX_PREVIOUS = 10000  # more earlier submissions than any course allows: the rest are not read


@dataclass(frozen=True)
class Previous:
    """An earlier submission: its time, its final score, whether the autograder failed on it,
    and its results document (the most recent one only)."""

    time: datetime
    score: float | None
    failed: bool = False
    results: dict[str, Any] | None = None


@dataclass(frozen=True)
class Facts:
    """What the metadata says, with what could not be read.

    Attributes:
        created_at: this submission's time (None when missing: every policy then stands aside).
        due_date, late_due_date: the assignment's (None when absent or unreadable).
        users: the submitters' ids or emails (a group's members all count as one).
        previous: the earlier submissions that could be read, oldest first.
        previous_problem: why the earlier submissions cannot be trusted as a whole ("" if they
            can): a policy built on them is then skipped.
        problems: other notes (a field that could not be read).
    """

    created_at: datetime | None
    due_date: datetime | None = None
    late_due_date: datetime | None = None
    users: tuple[str, ...] = ()
    previous: tuple[Previous, ...] = ()
    previous_problem: str = ""
    problems: tuple[str, ...] = ()

    @property
    def latest(self) -> Previous | None:
        return self.previous[-1] if self.previous else None


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None


def _previous(entries: Any) -> tuple[tuple[Previous, ...], str]:
    if entries is None:
        return (), ""
    if not isinstance(entries, list):
        return (), "previous_submissions is not a list"
    found = []
    for index, entry in enumerate(entries[:MAX_PREVIOUS]):
        if not isinstance(entry, dict):
            return (), f"previous submission {index + 1} is not an object"
        when, problem = parse_time(entry.get("submission_time"))
        if when is None:
            return (), f"previous submission {index + 1}'s time: {problem}"
        score = _number(entry.get("score"))
        results = entry.get("results")
        found.append(Previous(when, score, entry.get("autograder_error") is True,
                              results if isinstance(results, dict) else None))
    return tuple(sorted(found, key=lambda p: p.time)), ""


def read_facts(data: Any) -> Facts:
    """The facts in a parsed submission_metadata.json (anything at all: a missing file is {})."""
    if not isinstance(data, dict) or not data:
        return Facts(None, problems=("no submission metadata (a local run?)",))
    problems = []
    created, problem = parse_time(data.get("created_at"))
    if created is None:
        problems.append(f"the submission's time (created_at): {problem}")
    given = data.get("assignment")
    assignment: dict[str, Any] = given if isinstance(given, dict) else {}
    dates = []
    for field in ("due_date", "late_due_date"):
        value = assignment.get(field)
        when, problem = parse_time(value) if value is not None else (None, "")
        if problem:
            problems.append(f"the assignment's {field}: {problem}")
        dates.append(when)
    listed = data.get("users")
    users: list[Any] = listed if isinstance(listed, list) else []
    names = tuple(str(u.get("id") or u.get("email") or u.get("name") or "")[:200]
                  for u in users[:100] if isinstance(u, dict))
    previous, previous_problem = _previous(data.get("previous_submissions"))
    return Facts(created, dates[0], dates[1], tuple(n for n in names if n), previous,
                 previous_problem, tuple(problems))
