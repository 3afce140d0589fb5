"""The submission time platforms show stays the work's across regrades: given, else the
environment's, else the pushed commit's (GitHub Actions), else the newest file's."""
from __future__ import annotations

import json
import os

from harness.platforms.submitted import SUBMITTED_AT_ENV, submission_time


def test_the_time_comes_from_the_first_source_that_has_one(tmp_path, monkeypatch):
    folder = tmp_path / "work"
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / "agent.py").write_text("x = 1\n")
    (folder / "notes.txt").write_text("not python\n")
    os.utime(folder / "sub" / "agent.py", (1_700_000_000, 1_700_000_000))
    os.utime(folder / "notes.txt", (1_800_000_000, 1_800_000_000))
    monkeypatch.delenv(SUBMITTED_AT_ENV, raising=False)
    monkeypatch.delenv("GITHUB_EVENT_PATH", raising=False)
    assert submission_time(folder) == "2023-11-14T22:13:20+00:00"  # the Python file's
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"head_commit": {"timestamp": "2026-11-21T09:00:00-05:00"}}))
    monkeypatch.setenv("GITHUB_EVENT_PATH", str(event))
    assert submission_time(folder) == "2026-11-21T09:00:00-05:00"
    monkeypatch.setenv(SUBMITTED_AT_ENV, "2026-11-22T00:00:00Z")
    assert submission_time(folder) == "2026-11-22T00:00:00Z"
    assert submission_time(folder, "2026-11-23T00:00:00Z") == "2026-11-23T00:00:00Z"


def test_a_broken_event_file_falls_back_to_the_files(tmp_path, monkeypatch):
    work = tmp_path / "agent.py"
    work.write_text("x = 1\n")
    os.utime(work, (1_700_000_000, 1_700_000_000))
    event = tmp_path / "event.json"
    event.write_text('{"head_commit": null}')
    monkeypatch.delenv(SUBMITTED_AT_ENV, raising=False)
    monkeypatch.setenv("GITHUB_EVENT_PATH", str(event))
    assert submission_time(work) == "2023-11-14T22:13:20+00:00"
