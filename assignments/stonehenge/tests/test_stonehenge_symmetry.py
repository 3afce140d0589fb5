"""The relabellings of a Stonehenge board that keep its rules (issue 51, item 4): each takes
every ley-line onto a ley-line, so a relabelled game has the same captures and winner, and the
scripted visible games asked again under one are games as hard as the shown ones."""
from __future__ import annotations

import random

import pytest

from assignments.stonehenge.generators import random_game
from assignments.stonehenge.rules import SIDES, Stonehenge
from assignments.stonehenge.symmetry import first_image, symmetries


@pytest.mark.parametrize("side", SIDES)
def test_every_symmetry_takes_ley_lines_to_ley_lines(side: int) -> None:
    game = Stonehenge(side)
    found = symmetries(side)
    assert len(found) == (12 if side == 2 else 6)
    assert all(label == image for label, image in found[0].items())  # the identity first
    lines = {frozenset(game.labels[c] for c in line.cells) for line in game.lines}
    for relabel in found:
        assert sorted(relabel.values()) == sorted(game.labels)
        assert {frozenset(relabel[label] for label in line) for line in lines} == lines


@pytest.mark.parametrize("side", SIDES)
def test_a_relabelled_game_has_the_same_winner(side: int) -> None:
    game, rng = Stonehenge(side), random.Random(side)
    for _ in range(5):
        moves, positions = random_game(rng, game, 1, None)
        found = first_image(side, "".join(moves))
        assert found is not None
        image = game.initial_state(1)
        for move in found[1]:
            image = game.play(image, move)
        assert game.winner(image) == game.winner(positions[-1])
