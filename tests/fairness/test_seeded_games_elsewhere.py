"""Issue 51, item 4: seeded visible games are played after the due date with other seeds as
well, so a list of moves recorded from the visible games (the opponent's seeded replies are the
same every run) wins nothing there. Each visible case that plays seeded games against a house
bot (``options.games``: ``{color, seed}``) has a hidden twin: the same runner and settings, the
same points, and seeds the visible games never use.
"""
from __future__ import annotations

import pytest
from gg_testing import seeded, twins_by_case

from harness.spec import find_assignment
from harness.spec.assignments import list_assignments
from harness.spec.loader import load_all_cases

SEEDED = [name for name in list_assignments()
          if any(seeded(case) for case in load_all_cases(find_assignment(name)))]


def test_some_assignment_plays_seeded_games() -> None:
    assert {"othello", "othello_colour"} <= set(SEEDED)


@pytest.mark.parametrize("name", SEEDED)
def test_every_seeded_visible_game_case_is_played_again_with_other_seeds(name: str) -> None:
    for case, twins in twins_by_case(load_all_cases(find_assignment(name))).items():
        assert twins, f"{name}: {case!r} has no hidden twin with other seeds"
