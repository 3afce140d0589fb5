"""The ``policy:`` section of assignment.yaml as records (schema-checked by the loader first)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from harness.records.times import parse_time


@dataclass(frozen=True)
class RateLimit:
    """At most ``submissions`` graded submissions in any ``hours`` (a rolling window)."""

    submissions: int
    hours: float


@dataclass(frozen=True)
class LatePenalty:
    """``percent`` of the score off per started ``per`` (hour or day) after the due date, or
    once for any late submission (``per: once``), at most ``most`` percent in all;
    ``grace_minutes`` after the due date still count as on time."""

    percent: float
    per: str
    most: float = 100.0
    grace_minutes: float = 0.0


@dataclass(frozen=True)
class FeedbackRelease:
    """When the cases that are not visible show their feedback: after the due date only
    (``first_per_day`` None), or also on the first ``first_per_day`` submissions of each day."""

    first_per_day: int | None = None


@dataclass(frozen=True)
class Policy:
    """Everything a course's policy decides; an empty one (the default) changes nothing."""

    rate_limit: RateLimit | None = None
    keep: str | None = None
    """"best" or "last"; None: the score is this submission's, and nothing is said."""
    late: LatePenalty | None = None
    feedback: FeedbackRelease | None = None
    due_date: datetime | None = None
    """Replaces the metadata's due date (a Gradescope export carries none)."""

    @property
    def active(self) -> bool:
        return self != Policy()


class PolicyError(ValueError):
    """A value of ``policy:`` the schema cannot judge is wrong; ``field`` says which."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(problem)
        self.field = field


def _date(data: dict[str, Any], field: str) -> datetime | None:
    """An optional date of the section (``PolicyError`` if it is unreadable)."""
    if data.get(field) is None:
        return None
    when, problem = parse_time(data[field])
    if when is None:
        raise PolicyError(f"policy.{field}", f"{problem} (expected e.g. 2026-12-04T23:59:00-05:00)")
    return when


def parse_policy(data: dict[str, Any] | None) -> Policy:
    """The records for a schema-checked ``policy:`` mapping (None: no policy).

    Raises:
        PolicyError: a date is not ISO 8601 with a UTC offset.
    """
    if not data:
        return Policy()
    rate = data.get("rate_limit")
    late = data.get("late")
    feedback = data.get("feedback")
    return Policy(
        rate_limit=RateLimit(int(rate["submissions"]), float(rate["hours"])) if rate else None,
        keep=data.get("keep"),
        late=LatePenalty(float(late["percent"]), str(late["per"]),
                         float(late.get("most", 100.0)), float(late.get("grace_minutes", 0.0)))
        if late else None,
        feedback=FeedbackRelease(feedback.get("first_per_day")) if feedback is not None else None,
        due_date=_date(data, "due_date"))
