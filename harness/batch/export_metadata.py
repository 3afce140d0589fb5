"""A Gradescope export's metadata entry in the shape of submission_metadata.json, so that
``gamegrader batch`` decides the policy from the same facts Gradescope's grading had.

An export's ``submission_metadata.yml`` names the submitters and the submission's time; earlier
submissions are read from the entry's ``:history:`` list when the export holds one (their times
and scores; their results are not exported). It carries no assignment dates: a course grading
exports under a late policy sets ``policy.due_date``.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from harness.batch.discover import field


def _plain(value: Any) -> Any:
    """YAML's datetimes as ISO text; other values as they are (JSON-able for a job)."""
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


def _score(value: Any) -> Any:
    """A score; Ruby's BigDecimal comes through YAML as ``"18:0.3e2"`` (precision, value)."""
    if isinstance(value, str) and ":" in value:
        precision, _, number = value.partition(":")
        try:
            return float(number) if precision.isdigit() else value
        except ValueError:
            return value
    return _plain(value)


def gradescope_metadata(entry: Any) -> dict[str, Any]:
    """submission_metadata.json's fields for one export entry ({} when it is no mapping)."""
    if not isinstance(entry, dict):
        return {}
    submitters = field(entry, "submitters")
    users = [{"name": _plain(field(s, "name")), "email": _plain(field(s, "email")),
              "id": _plain(field(s, "sid"))}
             for s in (submitters if isinstance(submitters, list) else []) if isinstance(s, dict)]
    history = field(entry, "history")
    previous = [{"submission_time": _plain(field(h, "created_at")),
                 "score": _score(field(h, "score"))}
                for h in (history if isinstance(history, list) else []) if isinstance(h, dict)]
    metadata: dict[str, Any] = {"created_at": _plain(field(entry, "created_at")), "users": users}
    if isinstance(history, list):
        metadata["previous_submissions"] = previous
    return metadata
