"""The sweep of a sandbox user (``harness.sandbox.cleanup.kill_user_processes``) goes on while
killed processes have not finished exiting: until they have, they count against the next
holder's process limit. Checked on a fake process table (no real user, no timing)."""
from __future__ import annotations

import pytest

from harness.sandbox import cleanup


def slow_to_exit(monkeypatch: pytest.MonkeyPatch, passes: int) -> list[int]:
    """A user whose one process is still listed for ``passes`` scans after it was killed;
    returns the signals sent."""
    left = [passes]
    sent: list[int] = []

    def pids_of_user(uid: int, tag: str = "") -> list[int]:
        left[0] -= 1
        return [4242] if left[0] >= 0 else []

    monkeypatch.setattr(cleanup, "_pids_of_user", pids_of_user)
    monkeypatch.setattr(cleanup.os, "kill", lambda pid, sig: sent.append(pid))
    monkeypatch.setattr(cleanup.time, "sleep", lambda seconds: None)
    return sent


def test_the_sweep_waits_past_its_rounds_for_processes_still_exiting(
        monkeypatch: pytest.MonkeyPatch) -> None:
    sent = slow_to_exit(monkeypatch, passes=120)
    cleanup.kill_user_processes(1234, rounds=5, seconds=60.0)
    assert len(sent) == 120  # every pass until the table was clear


def test_without_time_the_sweep_stops_after_its_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    sent = slow_to_exit(monkeypatch, passes=120)
    cleanup.kill_user_processes(1234, rounds=5)
    assert len(sent) == 5


def test_a_leased_user_is_swept_until_clear_for_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    sent = slow_to_exit(monkeypatch, passes=cleanup.LEASED_SWEEP_ROUNDS + 30)
    monkeypatch.setattr(cleanup, "_SUBREAPER", [False])
    cleanup.kill_leased_user_processes(1234)
    assert len(sent) == cleanup.LEASED_SWEEP_ROUNDS + 30

