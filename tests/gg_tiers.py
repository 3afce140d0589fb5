"""The fast tier's promise: a test not marked ``slow`` starts no process.

``scripts/test.sh --fast`` runs the tests not marked ``slow`` (``pytestmark = pytest.mark.slow``
in a module, ``@pytest.mark.slow`` on a test): unit and spec tests that only compute. conftest.py
runs every unmarked test's setup, call and teardown inside :func:`no_processes`, so a test that
starts a grading, a sandbox or any other process without the mark fails, saying what it started,
instead of slowing the fast tier down unnoticed (even where the code under test catches the
error: the attempt is recorded).

With ``-m "not slow"`` a module whose own ``pytestmark`` holds ``pytest.mark.slow`` (every test
of it slow) is not even imported (:func:`wholly_slow`): each pytest worker imported all 147
test modules, and the 82 wholly slow ones with their gradings' imports cost each worker about a
CPU-second, for tests the tier deselects anyway.
"""
from __future__ import annotations

import _posixsubprocess
import ast
import os
import subprocess
from contextlib import contextmanager
from pathlib import Path
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


FAST_TIER = "not slow"
"""The marker expression of ``scripts/test.sh --fast``."""


def wholly_slow(path: Path) -> bool:
    """Whether the test module at ``path`` marks every test slow: its last module-level
    ``pytestmark = ...`` is ``pytest.mark.slow`` or a list or tuple holding it (read from the
    source, so the module is not imported)."""
    source = path.read_text(encoding="utf-8")
    if "pytestmark" not in source:
        return False
    slow = False
    for node in ast.parse(source, str(path)).body:
        if isinstance(node, ast.Assign) and any(
                isinstance(target, ast.Name) and target.id == "pytestmark"
                for target in node.targets):
            marks = node.value.elts if isinstance(node.value, (ast.List, ast.Tuple)) \
                else [node.value]
            slow = any(ast.unparse(mark) == "pytest.mark.slow" for mark in marks)
    return slow


def left_out_of_fast_tier(path: Path, config: pytest.Config) -> bool:
    """For ``pytest_ignore_collect``: a wholly slow test module when only tests not marked slow
    are asked for (``-m "not slow"``), which would all be deselected."""
    return (config.getoption("markexpr", "") == FAST_TIER and path.suffix == ".py"
            and path.name.startswith("test_") and wholly_slow(path))
