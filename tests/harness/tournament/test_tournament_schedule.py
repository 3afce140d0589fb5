"""Schedules and points: round robin both colours, brackets with byes, the handout's points."""
from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from harness.records.games import Entrant
from harness.tournament.points import points_table
from harness.tournament.schedule import (
    bracket_positions,
    bracket_rounds,
    decider_task,
    draw_order,
    first_round,
    match_tasks,
    round_robin,
)


def field(n: int) -> list[Entrant]:
    return [Entrant(f"p{i}", "house:random") for i in range(n)]


@pytest.mark.parametrize("n", [2, 3, 4, 7, 16])
def test_round_robin_plays_every_pairing_once_with_each_colour(n: int) -> None:
    tasks = round_robin(field(n), seed=1)
    assert len(tasks) == n * (n - 1)
    assert Counter((t.first.name, t.second.name) for t in tasks) == Counter(
        {(a.name, b.name): 1 for a in field(n) for b in field(n) if a != b})
    assert [t.index for t in tasks] == list(range(len(tasks)))
    # nobody plays twice in one round (both games of a pairing share the round)
    for round_number in {t.round for t in tasks}:
        names = Counter(n for t in tasks if t.round == round_number
                        for n in (t.first.name, t.second.name))
        assert set(names.values()) == {2}


def test_schedules_are_reproducible_from_the_seed() -> None:
    assert round_robin(field(6), seed=4) == round_robin(field(6), seed=4)
    assert round_robin(field(6), seed=4) != round_robin(field(6), seed=5)
    assert len({t.seed for t in round_robin(field(6), seed=4)}) == 30


def test_entrant_names_must_be_unique() -> None:
    with pytest.raises(ValueError, match="repeated: p0"):
        round_robin(field(3) + [Entrant("p0", "house:greedy")], seed=0)
    with pytest.raises(ValueError, match="at least 2"):
        round_robin(field(1), seed=0)


def test_bracket_keeps_top_seeds_apart_and_gives_them_the_byes() -> None:
    assert bracket_positions(4) == [1, 4, 2, 3]
    assert bracket_positions(16)[:4] == [1, 16, 8, 9]
    seeded = field(5)
    matches = first_round(seeded)
    assert bracket_rounds(5) == 3 and len(matches) == 4
    byes = [m.high.name for m in matches if m.low is None]
    assert byes == ["p0", "p1", "p2"]
    played = [(m.high.name, m.low.name) for m in matches if m.low is not None]
    assert played == [("p3", "p4")]


def test_match_games_swap_sides_and_deciders_draw_them() -> None:
    match = first_round(field(2))[0]
    one, two = match_tasks(match, seed=3, start_index=10)
    assert (one.first, one.second) == (two.second, two.first) == (match.high, match.low)
    assert (one.index, two.index) == (10, 11)
    decider = decider_task(match, seed=3, index=12)
    assert {decider.first, decider.second} == {match.high, match.low}
    assert decider == decider_task(match, seed=3, index=12)


def test_draw_order_is_a_seeded_permutation() -> None:
    entrants = field(8)
    order = draw_order(entrants, 2)
    assert sorted(order, key=lambda e: e.name) == entrants and order == draw_order(entrants, 2)
    assert entrants == field(8)  # not shuffled in place


def test_handout_points_for_sixteen_entrants() -> None:
    table = points_table(4)
    assert table.out_in_round == (5, 12, 14, 16) and table.grand_winner == 20


def test_fewer_rounds_scale_to_the_full_credit_and_more_rounds_keep_adding() -> None:
    assert points_table(1).out_in_round == (Fraction(100, 13),)
    assert points_table(1).grand_winner == 20
    three = points_table(3)
    assert three.grand_winner == 20 and three.out_in_round[0] == Fraction(50, 9)
    assert list(three.out_in_round) == sorted(three.out_in_round)
    six = points_table(6)
    assert six.out_in_round == (5, 12, 14, 16, 18, 20) and six.grand_winner == 24
    with pytest.raises(ValueError):
        points_table(-1)
    with pytest.raises(ValueError, match="from 1 to 4"):
        table = points_table(4)
        table.points(5)
