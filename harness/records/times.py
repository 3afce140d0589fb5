"""Times from Gradescope: ISO 8601 with a UTC offset (the metadata), or an export's Ruby-style
``2024-10-01 12:00:00.000000000 -07:00`` (which YAML may already have made a datetime)."""
from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from typing import Any

_TIME = re.compile(r"^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)(?:\.(\d+))?\s*"
                   r"(Z|[+-]\d{2}:?\d{2})?$")


def parse_time(value: Any) -> tuple[datetime | None, str]:
    """``(time, "")``, or ``(None, what is wrong)``; a time without a UTC offset is refused
    (its instant would depend on the grading machine's zone)."""
    if isinstance(value, datetime):
        if value.tzinfo is None or value.utcoffset() is None:
            return None, f"{value.isoformat()!r} has no UTC offset"
        return value, ""
    if not isinstance(value, str):
        return None, f"expected a date and time as text, got {type(value).__name__}"
    match = _TIME.match(value.strip()[:80])
    if match is None:
        return None, f"{value[:80]!r} is not an ISO 8601 date and time"
    day, clock, fraction, offset = match.groups()
    if offset is None:
        return None, f"{value[:80]!r} has no UTC offset"
    try:
        when = datetime.fromisoformat(f"{day}T{clock}")
    except ValueError as exc:
        return None, f"{value[:80]!r}: {exc}"
    if fraction:
        when += timedelta(microseconds=int((fraction + "000000")[:6]))
    if offset == "Z":
        zone = timezone.utc
    else:
        digits = offset[1:].replace(":", "")
        span = timedelta(hours=int(digits[:2]), minutes=int(digits[2:]))
        zone = timezone(span if offset[0] == "+" else -span)
    return when.replace(tzinfo=zone), ""


def shown(when: datetime) -> str:
    """A time as students read it: in its own offset, to the minute."""
    return when.strftime("%Y-%m-%d %H:%M ") + (when.strftime("%z")[:3] + ":"
                                                + when.strftime("%z")[3:])


def span_text(span: timedelta) -> str:
    """A duration in days, hours and minutes ("3 days 2 h 5 min", "1 h", "under a minute")."""
    minutes = int(span.total_seconds() // 60)
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    parts = ([f"{days} day{'s' if days != 1 else ''}"] if days else []) + \
        ([f"{hours} h"] if hours else []) + ([f"{minutes} min"] if minutes else [])
    return " ".join(parts) or "under a minute"
