"""When the work was submitted, for platforms that show it (a time that stays the same across
regrades of the same work: the work's, not the grading's)."""
from __future__ import annotations

import json
import os
from datetime import datetime, timezone
from pathlib import Path

from harness.platforms.cli import SUBMITTED_AT_ENV

EVENT_LIMIT = 1 << 20
"""Bytes read of GitHub's event file (a push event is a few kB)."""


def _pushed_commit_time() -> str | None:
    """The pushed commit's time in a GitHub Actions run (Classroom 50 grades on push)."""
    path = os.environ.get("GITHUB_EVENT_PATH")
    if not path:
        return None
    try:
        with open(path, "rb") as stream:
            event = json.loads(stream.read(EVENT_LIMIT))
        stamp = event["head_commit"]["timestamp"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return stamp if isinstance(stamp, str) else None


def _newest_file_time(submission: Path) -> str | None:
    files = [submission] if submission.is_file() else \
        [path for path in submission.rglob("*.py") if path.is_file()]
    times = [path.stat().st_mtime for path in files[:1000]]
    if not times:
        return None
    return datetime.fromtimestamp(max(times), timezone.utc).isoformat(timespec="seconds")


def submission_time(submission: Path, given: str | None = None) -> str | None:
    """``given``, else ``$GAMEGRADER_SUBMITTED_AT``, else the pushed commit's time (GitHub
    Actions), else the newest modification time of the submitted Python files (ISO 8601)."""
    return (given or os.environ.get(SUBMITTED_AT_ENV) or _pushed_commit_time()
            or _newest_file_time(submission))
