"""Ratings with honest uncertainty: Bradley-Terry strengths with intervals, which neighbours are
separated, and ``--precision`` scheduling more games where they are needed."""
from __future__ import annotations

import csv
import json
import random
from pathlib import Path

import pytest
from tournament_fakes import CoinArena

from harness.games.intervals import (
    SEPARATED,
    fit_strengths,
    games_for_width,
    logistic,
    unsettled_neighbours,
)
from harness.records.games import Entrant, GameResult, Reason
from harness.tournament.engine import run_round_robin
from harness.tournament.executors import LocalExecutor
from harness.tournament.ratings import rate
from harness.tournament.standings import tally
from harness.tournament.store import GameStore


def games(a: str, b: str, wins: int, losses: int, draws: int = 0) -> list[GameResult]:
    return ([GameResult(a, b, k, 0, Reason.NO_MOVES) for k in range(wins)]
            + [GameResult(a, b, k, 1, Reason.NO_MOVES) for k in range(losses)]
            + [GameResult(a, b, k, None, Reason.NO_MOVES) for k in range(draws)])


def test_a_dominant_entrant_is_separated_and_an_even_pair_is_not() -> None:
    names = ["top", "mid1", "mid2"]
    results = (games("top", "mid1", 18, 2) + games("top", "mid2", 18, 2)
               + games("mid1", "mid2", 11, 8, 1))
    table = tally(names, results, rate(names, results))
    assert [s.name for s in table] == ["top", "mid1", "mid2"]
    top, mid1, mid2 = table
    assert 0.5 < top.strength_low < top.strength < top.strength_high
    assert top.separated_from_next and top.beats_next >= SEPARATED
    assert mid1.separated_from_next is False and 0.5 < mid1.beats_next < SEPARATED
    assert mid2.separated_from_next is None and mid2.beats_next is None
    assert "not separated" in mid1.summary and "mid2" in mid1.summary
    assert top.summary.endswith(": separated") and mid2.summary.endswith("; last")


def test_the_fit_ignores_the_order_of_games_and_aborted_ones() -> None:
    names = ["a", "b", "c"]
    results = games("a", "b", 3, 1) + games("b", "c", 2, 2, 1) + games("c", "a", 1, 3)
    shuffled = list(results)
    random.Random(3).shuffle(shuffled)
    aborted = [GameResult("a", "c", 9, None, Reason.ABORTED)]
    assert fit_strengths(names, shuffled + aborted).theta == pytest.approx(
        fit_strengths(names, results).theta)


def test_intervals_narrow_as_games_accumulate() -> None:
    few = fit_strengths(["a", "b"], games("a", "b", 3, 2))
    many = fit_strengths(["a", "b"], games("a", "b", 48, 32))
    _, low_few, high_few = few.pair("a", "b")
    _, low_many, high_many = many.pair("a", "b")
    assert high_many - low_many < (high_few - low_few) / 2.5


def test_the_intervals_are_honest_they_cover_the_truth_about_95_percent_of_the_time() -> None:
    """Simulated pairs of known strength: the 95% interval of P(a beats b) holds the true value
    in about 95% of tournaments (not far fewer: overconfident; nor all: uselessly wide)."""
    rng = random.Random(11)
    covered = trials = 0
    for _ in range(400):
        truth = rng.uniform(0.2, 0.8)
        n = rng.choice([10, 20, 40])
        wins = sum(rng.random() < truth for _ in range(n))
        _, low, high = fit_strengths(["a", "b"], games("a", "b", wins, n - wins)).pair("a", "b")
        covered += low <= truth <= high
        trials += 1
    assert 0.90 <= covered / trials <= 0.995


def test_games_for_width_gives_the_fewest_games_that_reach_the_width() -> None:
    for width in (0.9, 0.5, 0.3, 0.2):
        n = games_for_width(width)
        won = n // 2
        fit = fit_strengths(["a", "b"], games("a", "b", won, n - won))
        _, low, high = fit.pair("a", "b")
        assert high - low <= width + 0.05  # the prior's two games narrow it a little
    assert games_for_width(0.2) > 4 * games_for_width(0.4) > 0
    with pytest.raises(ValueError):
        games_for_width(1.5)


def test_a_balanced_round_robin_ranks_by_score() -> None:
    names = ["a", "b", "c", "d"]
    rng = random.Random(5)
    results = [GameResult(x, y, 0, rng.choice([0, 1, None]), Reason.NO_MOVES)
               for x in names for y in names if x != y]
    table = tally(names, results, rate(names, results))
    assert [s.score for s in table] == sorted((s.score for s in table), reverse=True)


FIELD = [Entrant(name, f"{name}.py", f"code-{name}")
         for name in ("strong-ada", "strong-bo", "cy", "dee", "weak-eve")]


@pytest.mark.slow
def test_precision_plays_more_games_only_between_unsettled_neighbours(tmp_path: Path) -> None:
    arena = CoinArena()
    plain = run_round_robin(arena, FIELD, 4, LocalExecutor(2))
    assert len(plain.results) == 20
    refined = run_round_robin(arena, FIELD, 4, LocalExecutor(2), precision=0.45, budget=200,
                              store=GameStore(tmp_path, arena))
    extra = refined.results[20:]
    assert extra and len(refined.results) <= 200
    assert refined.results[:20] == plain.results
    names = [e.name for e in FIELD]
    fit = fit_strengths(names, refined.results)
    order = [s.name for s in refined.standings]
    if len(refined.results) + 2 <= 200:  # stopped because every neighbour pair is settled
        assert unsettled_neighbours(order, fit, 0.45) == []
    done = 20
    while done < len(refined.results):  # each step: two games for every unsettled neighbour
        prefix = list(refined.results[:done])
        ranked = [s.name for s in tally(names, prefix, rate(names, prefix))]
        wanted = unsettled_neighbours(ranked, fit_strengths(names, prefix), 0.45)
        step = refined.results[done:done + 2 * len(wanted)]
        assert wanted and [frozenset((g.first, g.second)) for g in step] == [
            frozenset(pair) for pair in wanted for _ in range(2)]
        assert all(g.first != h.first for g, h in zip(step[::2], step[1::2]))  # sides swapped
        done += len(step)
    first_order = [s.name for s in plain.standings]
    widths_before = [fit_strengths(names, plain.results).pair(a, b)
                     for a, b in zip(first_order, first_order[1:])]
    assert sum(h - lo for _, lo, h in widths_before) > sum(
        h - lo for _, lo, h in (fit.pair(a, b) for a, b in zip(order, order[1:])))
    again = run_round_robin(arena, FIELD, 4, LocalExecutor(1), precision=0.45, budget=200,
                            store=GameStore(tmp_path, arena))
    assert again.played == 0 and again.standings == refined.standings


@pytest.mark.slow
def test_the_budget_bounds_the_extra_games() -> None:
    result = run_round_robin(CoinArena(), FIELD, 4, LocalExecutor(1), precision=0.05,
                             budget=27)
    assert 20 < len(result.results) <= 27


@pytest.mark.slow
def test_standings_csv_and_results_carry_the_intervals(tmp_path: Path) -> None:
    from harness.tournament.cli import main

    folder = tmp_path / "class"
    folder.mkdir()
    for entrant in FIELD:
        (folder / f"{entrant.name}.py").write_text(f"N = {entrant.name!r}\n")
    assert main(["isolation", str(folder), "--arena", "tournament_fakes:make_coin_arena",
                 "--precision", "0.5", "--game-budget", "60", "--quiet",
                 "--out", str(tmp_path / "out")]) == 0
    with (tmp_path / "out" / "standings.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert all(float(r["strength_low"]) <= float(r["strength"]) <= float(r["strength_high"])
               for r in rows)
    assert {r["separated_from_next"] for r in rows[:-1]} <= {"yes", "no"}
    assert rows[-1]["separated_from_next"] == "" and rows[-1]["summary"].endswith("last")
    document = json.loads((tmp_path / "out" / "results.json").read_text())
    assert 20 < len(document["games"]) <= 60
    first = document["standings"][0]
    assert {"strength_low", "strength_high", "separated_from_next", "summary"} <= set(first)
    assert rows[0]["summary"] in (tmp_path / "out" / "report.html").read_text()
    assert main(["isolation", str(folder), "--arena", "tournament_fakes:make_coin_arena",
                 "--precision", "0.5", "--format", "elimination", "--quiet",
                 "--out", str(tmp_path / "cup")]) == 2


def test_logistic_is_safe_at_the_extremes() -> None:
    assert logistic(800) == 1.0 and logistic(-800) == 0.0 and logistic(0) == 0.5
