"""``gamegrader play``'s parts that need no game: which rungs students may play, that their games
are the grading ladder's (bots, seeds, sides, clock), the errors, the package's practice file and
the games folder no intake takes. (Played end to end: tests/workflows/test_student_play.py.)"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml

from harness.games import ladder as ladder_module
from harness.games.kit import student_bots
from harness.games.practice import (
    choose_rungs,
    narrowed_ladder,
    play_practice,
    practice_files,
    practice_ladder,
)
from harness.games.versus import Played, load_kit
from harness.intake.reading import GAMES_MARKER, take
from harness.spec import find_assignment
from harness.spec.ladder import ladder_case


def test_only_the_bots_students_may_have_are_practice_rungs_at_their_ladder_places() -> None:
    isolation = narrowed_ladder(find_assignment("isolation"))
    assert isolation is not None
    assert [(r["bot"], r["place"], r["rating"], r["wins"]) for r in isolation["rungs"]] == [
        ("random", 0, 1000.0, 2), ("greedy", 1, 1200.0, 2)]
    othello = narrowed_ladder(find_assignment("othello"))
    assert othello is not None and [r["bot"] for r in othello["rungs"]] == ["random"]
    assert othello["settings"] == {"size": 6, "limit": 3, "reference_budget": 0.3}
    for ladder in (isolation, othello):
        kit = load_kit(ladder)
        assert {r["bot"] for r in ladder["rungs"]} <= set(student_bots(kit))
        assert not [bot for bot in kit.house_bots if bot.name in {r["bot"] for r in
                                                                  ladder["rungs"]}
                    and isinstance(bot.factory, str)]  # no staff bot named by dotted path


def test_an_assignment_without_a_ladder_has_nothing_to_practise() -> None:
    assert practice_ladder(find_assignment("othello_2025")) is None
    assert practice_ladder(find_assignment("adversarial_search")) is None


def _record_schedules(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any, Any]]:
    """Replace the games by a record of what would be played: (bot, schedule, kit clock)."""
    seen: list[tuple[str, Any, Any]] = []

    def fake(kit: Any, sandbox: Any, bot: str, schedule: Any, seconds: float, name: str, *,
             stop_after_handshake: bool = False, on_game: Any = None) -> Played:
        seen.append((bot, list(schedule), kit.clock))
        return Played(())
    monkeypatch.setattr(ladder_module, "play_versus_house", fake)
    return seen


@pytest.mark.parametrize("name", ["isolation", "othello"])
def test_practice_games_are_the_grading_ladder_s_games(name: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    assignment = find_assignment(name)
    seen = _record_schedules(monkeypatch)
    ladder_module.climb(ladder_case(assignment, 9), None, factor=lambda: 1.7)
    graded = {bot: (schedule, clock) for bot, schedule, clock in seen}
    seen.clear()
    ladder = practice_ladder(assignment)
    assert ladder is not None
    practice = play_practice(ladder, None, 1.7, rungs=choose_rungs(ladder, None))
    assert seen and all(graded[bot] == (schedule, clock) for bot, schedule, clock in seen)
    assert [result.rung.bot for result in practice.rungs] == [bot for bot, _, _ in seen]
    seen.clear()  # fewer games: the first ones of the same schedule; another seed: others
    play_practice(ladder, None, 1.7, rungs=choose_rungs(ladder, "random"), games=1)
    assert [(bot, schedule) for bot, schedule, _ in seen] == [
        ("random", graded["random"][0][:1])]
    seen.clear()
    play_practice(ladder, None, 1.7, rungs=choose_rungs(ladder, "random"), seed=1)
    assert seen[0][1] != graded["random"][0]


def test_a_staff_or_unknown_bot_is_refused_naming_the_bots_there_are() -> None:
    ladder = practice_ladder(find_assignment("isolation"))
    assert ladder is not None
    with pytest.raises(ValueError, match="'depth2' is one of the staff's bots, which students "
                       "do not get; the bots you can play: random, greedy"):
        choose_rungs(ladder, "depth2")
    with pytest.raises(ValueError, match="no house bot 'minimax'; the bots you can play: "
                       "random, greedy"):
        choose_rungs(ladder, "minimax")
    assert [rung.bot for rung in choose_rungs(ladder, "greedy")] == ["greedy"]


@pytest.mark.parametrize("name", ["isolation", "othello"])
def test_the_package_s_practice_file_is_the_narrowed_ladder(name: str) -> None:
    assignment = find_assignment(name)
    files, bots = practice_files(assignment)
    [(path, text)] = files.items()
    assert path == f"assignments/{name}/practice_ladder.yaml"
    assert yaml.safe_load(text) == narrowed_ladder(assignment)
    assert bots == tuple(rung["bot"] for rung in yaml.safe_load(text)["rungs"])
    assert "reference" not in yaml.safe_dump(yaml.safe_load(text)["rungs"])
    assert practice_files(find_assignment("othello_2025")) == ({}, ())


def test_a_folder_of_played_games_is_never_taken_in(tmp_path: Path) -> None:
    (tmp_path / "player.py").write_text("x = 1\n")
    games = tmp_path / "games"
    games.mkdir()
    (games / "random-game1.json").write_text("{}")
    (games / "notes.py").write_text("y = 2\n")
    before = take(tmp_path)
    assert {str(p) for p in before.others} == {"games/random-game1.json"}
    (games / GAMES_MARKER).write_text("played\n")
    after = take(tmp_path)
    assert [str(f.path) for f in after.files] == ["player.py"] and not after.others


def test_a_rung_above_a_staff_bot_keeps_its_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The seeds derive from the rung's place on the whole ladder, not among the practice
    rungs: greedy above a staff bot plays the games it plays when graded."""
    real = find_assignment("isolation")
    assignment = replace(real, ladder={**real.ladder, "rungs": [
        {"bot": "depth1", "points": 1}, {"bot": "greedy", "points": 2}]})
    seen = _record_schedules(monkeypatch)
    ladder_module.climb(ladder_case(assignment, 9), None, factor=lambda: 1.0)
    graded = dict((bot, schedule) for bot, schedule, _ in seen)
    seen.clear()
    ladder = narrowed_ladder(assignment)
    assert ladder is not None and [r["bot"] for r in ladder["rungs"]] == ["greedy"]
    practice = play_practice(ladder, None, 1.0, rungs=choose_rungs(ladder, None))
    assert [(bot, schedule) for bot, schedule, _ in seen] == [("greedy", graded["greedy"])]
    assert (practice.rungs[0].rung.rating, practice.rungs[0].rung.points) == (1200.0, 2.0)
