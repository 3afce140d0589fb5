"""Probe: find the student's classes and strategies through their game_interface.py (the
assignment's ``name_resolver``; runs in the student's process).

The starter's ``game_interface.py`` maps keys to what the course's interface plays:
``playable_games['h']`` is the Stonehenge game class, ``usable_strategies['mr']`` and ``['mi']``
the recursive and iterative minimax strategies. A student who named a class or a function
otherwise and registered it there has code the course's own interface runs, so when a handout
name is missing from their module, :func:`resolve` binds it to what the registry holds and says
so. The state class, which the registry does not list, is the one ``GameState`` subclass the
game's module defines. Nothing happens when the handout's names are present (the registry is
then not even imported). No expected values, no rules. Standard library only.
"""
from __future__ import annotations

import importlib
import os
import sys
import traceback
from types import ModuleType
from typing import Any

_REGISTERED = {
    "stonehenge": (("StonehengeGame", "playable_games", "h"),),
    "strategy": (("recursive_minimax_strategy", "usable_strategies", "mr"),
                 ("iterative_minimax_strategy", "usable_strategies", "mi")),
}
_STATE = "StonehengeState"
_STARTER_MODULES = frozenset({"game", "game_state", "subtract_square_game",
                              "subtract_square_state", "strategy_starter"})


_FAILED: list[str] = []
"""Why the student's game_interface.py did not import (at most one entry)."""


def _registry() -> ModuleType | None:
    """The student's game_interface module, if they handed one in and it imports (if it does
    not, why is kept in ``_FAILED``: the names it registers are then not found, and the
    feedback must say that game_interface.py is the cause)."""
    if not os.path.isfile(os.path.join(os.getcwd(), "game_interface.py")):
        return None
    try:
        return importlib.import_module("game_interface")
    except Exception as exc:  # any failure of the student's module is reported
        if not _FAILED:
            frames = [frame for frame in traceback.extract_tb(exc.__traceback__)
                      if os.path.dirname(os.path.abspath(frame.filename)) == os.getcwd()]
            place = "" if isinstance(exc, SyntaxError) or not frames else \
                f" ({os.path.basename(frames[-1].filename)}, line {frames[-1].lineno})"
            _FAILED.append(f"{type(exc).__name__}: {str(exc)[:300]}{place}")
        return None


def _registered(registry: ModuleType, table: str, key: str) -> Any:
    entries = getattr(registry, table, None)
    return entries.get(key) if isinstance(entries, dict) else None


def _fits(name: str, found: Any) -> bool:
    """A class for a class name, a function for a strategy; never one of the starter's own."""
    if getattr(found, "__module__", None) in _STARTER_MODULES:
        return False
    return isinstance(found, type) if name[0].isupper() else callable(found)


def _bind_registered(module: ModuleType) -> list[str]:
    """Bind the handout names ``module`` lacks to the registry's entries; notes for each."""
    notes: list[str] = []
    registry = None
    for name, table, key in _REGISTERED.get(module.__name__, ()):
        if hasattr(module, name):
            continue
        registry = registry or _registry()
        found = _registered(registry, table, key) if registry is not None else None
        if registry is None and _FAILED:
            notes.append(f"{module.__name__}.py has no {name}, and your game_interface.py, "
                         f"where {table}[{key!r}] would name it, failed to import: "
                         f"{_FAILED[0]}. Fix game_interface.py or name it {name}.")
            continue
        if found is None or not _fits(name, found):
            continue
        setattr(module, name, found)
        notes.append(f"{module.__name__}.py has no {name}; graded {getattr(found, '__name__', '?')}"
                     f", registered as {table}[{key!r}] in your game_interface.py, in its place "
                     "(as the course's game interface would play it).")
    return notes


def _bind_state(module: ModuleType) -> list[str]:
    """Bind ``StonehengeState`` to the one GameState subclass of the game's module."""
    game = getattr(module, "StonehengeGame", None)
    if hasattr(module, _STATE) or not isinstance(game, type):
        return []
    base = getattr(sys.modules.get("game_state"), "GameState", None)
    home = sys.modules.get(getattr(game, "__module__", ""))
    if not isinstance(base, type) or home is None:
        return []
    states = {value for value in vars(home).values()
              if isinstance(value, type) and issubclass(value, base) and value is not base
              and getattr(value, "__module__", None) not in _STARTER_MODULES}
    if len(states) != 1:
        return []
    state = states.pop()
    setattr(module, _STATE, state)
    return [f"{module.__name__}.py has no {_STATE}; graded {state.__name__}, the state class of "
            f"{game.__name__}, in its place."]


def resolve(module: ModuleType) -> list[str]:
    """Bind the handout names ``module`` lacks (see the module docstring); notes for each.

    The strategies are resolved when strategy.py is imported (by the strategy cases), never by
    the main module: a broken strategy.py must not touch the Stonehenge cases.
    """
    notes = _bind_registered(module)
    if module.__name__ == "stonehenge":
        notes += _bind_state(module)
    return notes
