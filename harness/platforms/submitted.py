"""When the work was submitted, for platforms that show it (a time that stays the same across
regrades of the same work: the work's, not the grading's)."""
from __future__ import annotations

import itertools
import json
import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator

SUBMITTED_AT_ENV = "GAMEGRADER_SUBMITTED_AT"
FILES_LIMIT = 1000
"""Python files looked at for their modification time, at most."""
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


def _python_files(submission: Path) -> Iterator[Path]:
    """The submitted file, or the Python files under the folder (links not followed)."""
    if submission.is_file():
        yield submission
        return
    for folder, _, names in os.walk(submission):
        yield from (Path(folder, name) for name in names if name.endswith(".py"))


def _newest_file_time(submission: Path) -> str | None:
    times = []
    for path in itertools.islice(_python_files(submission), FILES_LIMIT):
        try:
            times.append(path.lstat().st_mtime)
        except OSError:
            continue
    if not times:
        return None
    return datetime.fromtimestamp(max(times), timezone.utc).isoformat(timespec="seconds")


def submission_time(submission: Path, given: str | None = None) -> str | None:
    """``given``, else ``$GAMEGRADER_SUBMITTED_AT``, else the pushed commit's time (GitHub
    Actions), else the newest modification time of the submitted Python files (ISO 8601)."""
    return (given or os.environ.get(SUBMITTED_AT_ENV) or _pushed_commit_time()
            or _newest_file_time(submission))
