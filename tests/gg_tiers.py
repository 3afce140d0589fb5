"""The fast tier's promise: a test not marked ``slow`` starts no process.

``scripts/test.sh --fast`` runs the tests not marked ``slow`` (``pytestmark = pytest.mark.slow``
in a module, ``@pytest.mark.slow`` on a test): unit and spec tests that only compute. conftest.py
runs every unmarked test's setup, call and teardown inside :func:`no_processes`, so a test that
starts a grading, a sandbox or any other process without the mark fails, saying what it started,
instead of slowing the fast tier down unnoticed (even where the code under test catches the
error: the attempt is recorded).
"""
from __future__ import annotations

import _posixsubprocess
import os
import subprocess
from contextlib import contextmanager
from typing import Any, Callable, Generator, Iterator

import pytest

HOW_TO_MARK = "mark the test @pytest.mark.slow, or its module pytestmark = pytest.mark.slow"


class ProcessInFastTier(RuntimeError):
    """A test not marked slow started (or asked for) a process."""


_attempts: list[list[str]] = []  # one list per open no_processes block, innermost last

# Every way a test's code starts a process goes through one of these: subprocess (Popen and all
# its helpers), multiprocessing (fork, or fork_exec for spawn and forkserver), os.system, pty.
_STARTERS: tuple[tuple[Any, str], ...] = (
    (subprocess.Popen, "_execute_child"), (_posixsubprocess, "fork_exec"), (os, "fork"),
    (os, "forkpty"), (os, "posix_spawn"), (os, "posix_spawnp"), (os, "system"))


def refuse(what: str) -> None:
    """Record and refuse ``what`` when it happens inside :func:`no_processes`."""
    if _attempts:
        _attempts[-1].append(what)
        raise ProcessInFastTier(f"{what} in a test not marked slow: {HOW_TO_MARK}")


def _refusing(what: str, original: Callable[..., Any]) -> Callable[..., Any]:
    def starter(*args: Any, **kwargs: Any) -> Any:
        refuse(what)
        return original(*args, **kwargs)
    return starter


@contextmanager
def no_processes() -> Iterator[list[str]]:
    """Refuse every process start while the block runs; yields the attempts made in it (each
    also raised as :class:`ProcessInFastTier` where it happens). Blocks nest, each keeping its
    own attempts."""
    originals = [(owner, name, getattr(owner, name)) for owner, name in _STARTERS
                 if hasattr(owner, name)]
    for owner, name, original in originals:
        setattr(owner, name, _refusing(f"{getattr(owner, '__name__', owner)}.{name}", original))
    attempts: list[str] = []
    _attempts.append(attempts)
    try:
        yield attempts
    finally:
        _attempts.pop()
        for owner, name, original in originals:
            setattr(owner, name, original)


def guarded_phase(item: pytest.Item) -> Generator[None, Any, None]:
    """A pytest hook wrapper for a test's setup, call or teardown: run with process starts
    refused unless the test is marked slow; an attempt fails the phase even where the code
    under test caught the error."""
    if item.get_closest_marker("slow") is not None:
        yield
        return
    with no_processes() as attempts:
        outcome = yield
    if attempts:
        outcome.force_exception(pytest.fail.Exception(
            f"{item.nodeid} started a process ({', '.join(sorted(set(attempts)))}) but is not "
            f"marked slow: {HOW_TO_MARK}", pytrace=False))
