"""Issue 51, item 4: seeded visible games are played after the due date with other seeds as
well, so a list of moves recorded from the visible games (the opponent's seeded replies are the
same every run) wins nothing there. Each visible case that plays seeded games against a house
bot (``options.games``: ``{color, seed}``) has a hidden twin: the same runner and settings, the
same points, and seeds the visible games never use.
"""
from __future__ import annotations

from typing import Any

import pytest

from harness.records.spec import Case, Visibility
from harness.spec import find_assignment
from harness.spec.assignments import list_assignments
from harness.spec.loader import load_all_cases


def seeded(case: Case) -> bool:
    games = case.options.get("games")
    return case.runner is not None and isinstance(games, list) and all(
        isinstance(game, dict) and "seed" in game for game in games)


def settings(case: Case) -> dict[str, Any]:
    """The case's options with the seeds left out."""
    return {**case.options, "games": [{k: v for k, v in game.items() if k != "seed"}
                                      for game in case.options["games"]]}


def seeds(case: Case) -> set[int]:
    return {game["seed"] for game in case.options["games"]}


SEEDED = [name for name in list_assignments()
          if any(seeded(case) for case in load_all_cases(find_assignment(name)))]


def test_some_assignment_plays_seeded_games() -> None:
    assert {"othello", "othello_colour"} <= set(SEEDED)


@pytest.mark.parametrize("name", SEEDED)
def test_every_seeded_visible_game_case_is_played_again_with_other_seeds(name: str) -> None:
    cases = [case for case in load_all_cases(find_assignment(name)) if seeded(case)]
    shown = [case for case in cases if case.visibility is Visibility.VISIBLE]
    hidden = [case for case in cases if case.visibility is not Visibility.VISIBLE]
    used = set().union(*(seeds(case) for case in shown))
    for case in shown:
        twins = [other for other in hidden if other.group == case.group
                 and other.runner == case.runner and settings(other) == settings(case)
                 and other.points == case.points and not seeds(other) & used]
        assert twins, f"{name}: {case.name!r} has no hidden twin with other seeds"
