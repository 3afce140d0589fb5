"""A known mistake's answers on a case are kept per host (harness.compare.replays): computed once,
as far as a diagnosis needed them, never reused across a change of the trusted code, never read
from a folder others may write."""
from __future__ import annotations

import itertools
import os

import pytest

from harness import paths
from harness.compare import replays
from harness.compare.replays import Replay


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv(paths.CACHE_ENV, str(tmp_path))
    return tmp_path / "replays"


def counting(calls: list[int], values: list, error: BaseException | None = None):
    """A replay yielding ``values`` (then raising ``error``); each value computed is counted."""
    def replay():
        for value in values:
            calls.append(1)
            yield value
        if error is not None:
            raise error
    return replay


def taken(key, replay, count: int | None = None) -> tuple[list, bool]:
    """Take ``count`` values (all if None) as a diagnosis would, then save."""
    kept = Replay(key, replay)
    values = list(itertools.islice(kept, count))
    kept.save()
    return values, kept.raised


def test_a_replay_is_computed_once_then_read(cache):
    calls: list[int] = []
    assert taken(["case", "mistake"], counting(calls, [(1, 2), None])) == ([(1, 2), None], False)
    assert taken(["case", "mistake"], counting(calls, ["other"])) == ([(1, 2), None], False)
    assert taken(["case", "another mistake"], counting(calls, [3])) == ([3], False)
    assert len(calls) == 3


def test_a_replay_stopped_early_is_kept_as_far_as_it_went_and_continued_when_needed(cache):
    calls: list[int] = []
    assert taken(["k"], counting(calls, [1, 2, 3]), 1) == ([1], False)
    assert len(calls) == 1  # the rest was never computed
    assert taken(["k"], counting(calls, [1, 2, 3]), 1) == ([1], False)
    assert len(calls) == 1
    assert taken(["k"], counting(calls, [1, 2, 3])) == ([1, 2, 3], False)
    assert len(calls) == 4  # computed afresh from the start, the known first value skipped
    assert taken(["k"], counting(calls, [1, 2, 3])) == ([1, 2, 3], False)
    assert len(calls) == 4


def test_a_replay_that_raised_is_kept_as_raised_but_not_one_that_ran_out_of_memory(cache):
    calls: list[int] = []
    assert taken(["k"], counting(calls, [1], ValueError())) == ([1], True)
    assert taken(["k"], counting(calls, [])) == ([1], True)
    assert taken(["m"], counting(calls, [], MemoryError())) == ([], True)
    assert taken(["m"], counting(calls, [5])) == ([5], False)
    assert len(calls) == 2


def test_without_a_key_nothing_is_read_or_kept(cache):
    calls: list[int] = []
    for _ in range(2):
        assert taken(None, counting(calls, [1])) == ([1], False)
    assert len(calls) == 2 and not (cache.exists() and any(cache.iterdir()))


def test_changed_trusted_code_replays_again(cache, monkeypatch):
    calls: list[int] = []
    taken(["k"], counting(calls, [1]))
    monkeypatch.setattr(replays, "code_digest", lambda: "another reference")
    assert taken(["k"], counting(calls, [2])) == ([2], False)
    assert len(calls) == 2


def test_a_folder_others_may_write_or_a_damaged_entry_is_never_read(cache):
    calls: list[int] = []
    taken(["k"], counting(calls, [1]))
    for entry in cache.iterdir():
        entry.write_bytes(b"\x80\x05not a pickle")
    assert taken(["k"], counting(calls, [2])) == ([2], False)
    os.chmod(cache, 0o777)
    assert replays.cache_folder() is None
    assert taken(["k"], counting(calls, [3])) == ([3], False)
    assert len(calls) == 3
