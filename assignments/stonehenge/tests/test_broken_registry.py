"""Issue 39, item 13: a game_interface.py that fails to import is named as the cause when the
names it would register are missing (it was silently ignored: "StonehengeGame is missing")."""
from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Iterator

import pytest
from stonehenge_helpers import PROBES, import_isolated


@pytest.fixture(autouse=True)
def _no_registry_left() -> Iterator[None]:
    """The probe imports game_interface lazily: none of ours may stay for other tests."""
    sys.modules.pop("game_interface", None)
    yield
    sys.modules.pop("game_interface", None)


@pytest.mark.parametrize(("registry", "words"), [
    ("playable_games = {}\nprint 'ready'\n", "SyntaxError: Missing parentheses in call to 'print'"),
    ("import Queue\n", "ModuleNotFoundError: No module named 'Queue' (game_interface.py, line 1)"),
])
def test_a_broken_registry_is_named_as_the_cause(registry: str, words: str, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "game_interface.py").write_text(registry, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    probe = import_isolated([tmp_path, PROBES], ["gg_game_interface"])["gg_game_interface"]
    student = types.ModuleType("stonehenge")
    notes = probe.resolve(student)
    assert len(notes) == 1 and words in notes[0]
    assert notes[0].startswith("stonehenge.py has no StonehengeGame, and your game_interface.py")
    assert not hasattr(student, "StonehengeGame")


def test_a_registry_that_imports_binds_as_before(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "game_interface.py").write_text(
        "class Henge:\n    pass\n\nplayable_games = {'h': Henge}\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    probe = import_isolated([tmp_path, PROBES], ["gg_game_interface"])["gg_game_interface"]
    student = types.ModuleType("stonehenge")
    notes = probe.resolve(student)
    assert student.StonehengeGame.__name__ == "Henge" and "registered as" in notes[0]
