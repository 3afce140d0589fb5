"""Fixtures and helpers for the stonehenge tests: student-API modules imported in isolation.

Test modules import the fixtures they use from here (a conftest.py would shadow the
repository-wide one that `from gg_testing import ...` must reach).

The starter, the solution and the probes are plain top-level modules (``game``, ``strategy``,
...), as in a student's folder. :func:`import_isolated` imports them from given folders and then
removes them from ``sys.modules`` and ``sys.path`` again, so other assignments' tests never see
them.
"""
from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[3]
TEMPLATE = ROOT / "assignments" / "stonehenge" / "template"
SOLUTION = ROOT / "assignments" / "stonehenge" / "solution"
PROBES = ROOT / "assignments" / "stonehenge" / "probes"


def import_isolated(folders: list[Path], names: list[str]) -> dict[str, ModuleType]:
    """Import ``names`` with ``folders`` first on the path; undo every sys change afterwards.

    Returns:
        The imported modules by name. Modules they imported stay reachable through them.
    """
    saved_path = list(sys.path)
    saved_modules = set(sys.modules)
    sys.path[:0] = [str(folder) for folder in folders]
    try:
        return {name: importlib.import_module(name) for name in names}
    finally:
        sys.path[:] = saved_path
        for name in set(sys.modules) - saved_modules:
            del sys.modules[name]


@pytest.fixture(scope="module")
def solution() -> dict[str, ModuleType]:
    """The solution's ``stonehenge``/``strategy`` with the starter's other modules."""
    return import_isolated(
        [SOLUTION, TEMPLATE, PROBES],
        ["stonehenge", "strategy", "subtract_square_game", "subtract_square_state",
         "gg_tree_game", "gg_call_graph"])


@pytest.fixture(scope="module")
def template() -> dict[str, ModuleType]:
    """The starter modules exactly as students download them."""
    return import_isolated(
        [TEMPLATE], ["game", "game_state", "subtract_square_game", "subtract_square_state",
                     "strategy", "stonehenge", "game_interface"])


class ScriptedInput:
    """A stand-in for ``input()``: answers queued lines and records every prompt."""

    def __init__(self) -> None:
        self.prompts: list[str] = []
        self._lines: list[str] = []

    def add(self, *lines: str) -> None:
        """Queue ``lines`` as the next answers."""
        self._lines.extend(lines)

    def __call__(self, prompt: str = "") -> str:
        self.prompts.append(prompt)
        if not self._lines:
            raise EOFError("no scripted input left")
        return self._lines.pop(0)


@pytest.fixture()
def scripted_input(monkeypatch: pytest.MonkeyPatch) -> ScriptedInput:
    """``input()`` replaced by a :class:`ScriptedInput` for the duration of one test."""
    fake = ScriptedInput()
    monkeypatch.setattr("builtins.input", fake)
    return fake
