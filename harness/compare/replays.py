"""What trusted code computes from a case alone, computed once per host and kept on disk.

A diagnosis replays a failed case under every known mistake of the reference (seconds of search
for an Othello case). These depend only on the case and the trusted code, never on the student:
in a batch, every student needs the same ones. (A judge's own answers, such as a position's
optimal moves, are not computed at grading time at all: ``gamegrader generate`` stores them in
the case, see ``precompute`` in docs/architecture.md.) They are kept in the grading user's own
cache folder (``GAMEGRADER_CACHE``, by default ``~/.cache/gamegrader``), keyed by what names the
computation (the transcript and the mistake, say) and a digest of the trusted code, so a changed
reference never reuses an old answer.

The files are pickles, so only a folder the grading user owns and nobody else may write is
used (student code runs as other users); anything unreadable is simply computed again.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import pickle
import stat
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from harness.paths import grader_code, user_cache_root

MAX_ENTRY_BYTES = 1 << 20
# What is known after a cached entry's values: nothing yet, the end, or an exception.
_OPEN, _ENDED, _RAISED = "open", "ended", "raised"


@functools.lru_cache(maxsize=1)
def code_digest() -> str:
    """A digest of every Python file of the trusted code (the harness, the shared library and
    the assignments' plug-in code)."""
    root = Path(__file__).resolve().parent.parent.parent
    digest = hashlib.sha256(sys.version.encode())
    for path in (*sorted((root / "harness").rglob("*.py")), *grader_code(root)):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def cache_folder() -> Path | None:
    """The replay folder, made if missing; None unless it is a real folder owned by this
    user and writable by no one else."""
    folder = user_cache_root() / "replays"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.lstat(folder)
    except OSError:
        return None
    private = stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid() \
        and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    return folder if private else None


class Replay:
    """The values a replay yields, taken from the cache as far as it goes, then computed (the
    replay started afresh, its known first values skipped) and recorded. Iterate it as far as
    needed (a consumer may stop at the first value it rejects), then ``save``.

    ``raised``: the replay raised after the values given (a mistake that cannot run the case).
    ``key_parts`` (JSON-able, naming the replay fully) None: nothing is read or kept.
    """

    def __init__(self, key_parts: Iterable[Any] | None,
                 start: Callable[[], Iterable[Any]]) -> None:
        self._start = start
        self._path = found = None
        folder = cache_folder() if key_parts is not None else None
        if folder is not None and key_parts is not None:
            key = json.dumps([code_digest(), *key_parts]).encode()
            self._path = folder / f"{hashlib.sha256(key).hexdigest()}.pickle"
            found = _read(self._path)
        self.values: list[Any] = found[0] if found else []
        self._state = found[1] if found else _OPEN
        self._grew = False
        self.raised = self._state == _RAISED

    def __iter__(self) -> Iterator[Any]:
        yield from list(self.values)
        if self._state != _OPEN:
            return
        known = len(self.values)
        try:
            for index, value in enumerate(self._start()):
                if index >= known:
                    self.values.append(value)
                    self._grew = True
                    yield value
        except MemoryError:  # this run's condition, not the replay's: not kept
            self.raised = True
            return
        except Exception:  # a mistake that cannot run the case gives no answer
            self.raised, self._state = True, _RAISED
        else:
            self._state = _ENDED
        self._grew = True

    def save(self) -> None:
        """Keep what was learned (nothing if the cache is not used or nothing is new)."""
        if self._path is not None and self._grew:
            _write(self._path, (self.values, self._state))


def _read(path: Path) -> tuple[list[Any], str] | None:
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        with os.fdopen(descriptor, "rb") as stream:
            data = stream.read(MAX_ENTRY_BYTES + 1)
        if len(data) > MAX_ENTRY_BYTES:
            return None
        values, state = pickle.loads(data)  # our own private folder
    except (OSError, ValueError, TypeError, EOFError, pickle.UnpicklingError):
        return None
    known = isinstance(values, list) and state in (_OPEN, _ENDED, _RAISED)
    return (values, state) if known else None


def _write(path: Path, entry: tuple[list[Any], str]) -> None:
    """Write atomically; an entry that cannot be pickled or written is just not kept."""
    try:
        data = pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # values of any type may come back
        return
    if len(data) > MAX_ENTRY_BYTES:
        return
    try:
        descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=".replay-")
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(data)
        os.replace(temporary, path)
    except OSError:
        pass
