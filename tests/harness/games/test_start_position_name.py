"""Every trusted game spells its start position the same way: ``initial_state(...)``, a method
returning the position (issue 15: one vocabulary). Student-facing names the handouts or starters
fix (``create_dominoes_game``, the Othello starter's ``initial_board``) are not game modules here.
"""
from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest
from gg_testing import ROOT

import reference.games

pytestmark = pytest.mark.slow

OTHER_SPELLINGS = re.compile(r"^(initial|start|start_state|start_position|initial_position|"
                             r"initial_board|start_board|new_game|begin)$")


def game_files() -> list[Path]:
    """The modules holding a game's rules: the shared ones of reference/games/ and each
    assignment's own rules.py."""
    shared = [ROOT / "reference" / "games" / f"{info.name}.py"
              for info in pkgutil.iter_modules(reference.games.__path__)]
    return shared + sorted((ROOT / "assignments").glob("*/rules.py"))


def game_classes() -> list[type]:
    """The classes of the game modules that play a game (they have ``actions`` and ``result``)."""
    found = []
    for path in game_files():
        name = path.relative_to(ROOT).with_suffix("").as_posix().replace("/", ".")
        module = importlib.import_module(name)
        found += [c for _, c in inspect.getmembers(module, inspect.isclass)
                  if c.__module__ == module.__name__ and hasattr(c, "actions")
                  and hasattr(c, "result") and hasattr(c, "facts")]
    return found


@pytest.mark.parametrize("game", game_classes(), ids=lambda c: c.__name__)
def test_each_game_names_its_start_position_initial_state(game: type) -> None:
    assert callable(getattr(game, "initial_state", None)), game
    assert not [name for name in vars(game) if OTHER_SPELLINGS.match(name)]


def test_every_game_module_is_covered() -> None:
    names = {c.__name__ for c in game_classes()}
    assert {"Dominoes", "Isolation", "Othello", "Stonehenge", "SubtractSquare"} <= names


def test_no_public_function_of_a_game_module_spells_the_start_otherwise() -> None:
    for path in game_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        defined = {node.name for node in ast.walk(tree)
                   if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
        assert not {n for n in defined if OTHER_SPELLINGS.match(n)}, Path(path).name
