"""The game kit's dotted name has one key, assignment.yaml's ``kit:`` (harness/spec/kit_key.py):
the ladder and the cases whose runner plays a kit get it from there, and a spec that still spells
it the old ways (``arena:``, the ladder's ``kit:``, a case's ``options.kit``) is refused, the error
naming the old key and where the name goes."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from harness.spec.assignments import load_assignment
from harness.spec.errors import SpecError
from harness.spec.loader import load_all_cases

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "connect_four" / "assignments" \
    / "connect_four"
KIT = "assignments.connect_four.kit:make_kit"


def copy_with(tmp_path: Path, name: str, old: str, new: str) -> Path:
    """The fixture copied, with ``old`` replaced by ``new`` in its file ``name``."""
    folder = tmp_path / "connect_four"
    shutil.copytree(FIXTURE, folder)
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in {name}"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return folder


def test_the_ladder_and_the_games_cases_play_the_assignments_kit() -> None:
    assignment = load_assignment(FIXTURE)
    assert assignment.kit == KIT
    cases = load_all_cases(assignment)
    assert {case.group for case in cases} == {"games", "ladder"}
    assert {case.options["kit"] for case in cases} == {KIT}
    assert "kit:" not in FIXTURE.joinpath("cases", "01_games.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize(("name", "old", "new", "words"), [
    ("assignment.yaml", f'kit: "{KIT}"', f'arena: "{KIT}"',
     "field 'arena': 'arena' is now spelt 'kit': name the game kit once"),
    ("assignment.yaml", "  clock: 5.0\n", f'  clock: 5.0\n  kit: "{KIT}"\n',
     "field 'ladder.kit': the ladder plays the assignment's kit: name the game kit once, as "
     "assignment.yaml's top-level 'kit', not in the ladder"),
], ids=["arena", "ladder"])
def test_an_old_key_in_assignment_yaml_is_refused_naming_it(
        tmp_path: Path, name: str, old: str, new: str, words: str) -> None:
    with pytest.raises(SpecError, match=re.escape(words)):
        load_assignment(copy_with(tmp_path, name, old, new))


def test_a_kit_in_a_cases_options_is_refused_naming_it(tmp_path: Path) -> None:
    folder = copy_with(tmp_path, "cases/01_games.yaml", "options: {clock: 5.0, opponent: random",
                       f'options: {{kit: "{KIT}", clock: 5.0, opponent: random')
    with pytest.raises(SpecError, match=re.escape(
            "case 'beats the random player (5 of 6 games)', field 'options.kit': a case plays "
            "its assignment's kit: name the game kit once")):
        load_all_cases(load_assignment(folder))


def test_a_games_case_of_an_assignment_with_no_kit_says_where_to_name_it(tmp_path: Path) -> None:
    folder = copy_with(tmp_path, "assignment.yaml", f'kit: "{KIT}"\n', "")
    with pytest.raises(SpecError, match=re.escape(
            "field 'runner': runner harness.games.versus:versus_house plays a game kit, and the "
            "assignment names none: name the game kit once, as assignment.yaml's top-level 'kit'")):
        load_all_cases(load_assignment(folder))
