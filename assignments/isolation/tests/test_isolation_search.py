"""Timed iterative-deepening alpha-beta, on Isolation boards small enough to solve."""
from __future__ import annotations

import pytest
from isolation_fakes import TickingClock

from assignments.isolation.evaluation import DECIDED, MobilityEvaluation
from assignments.isolation.rules import Isolation
from reference.core.counters import Counter
from reference.core.protocols import GameFacts
from reference.search.alphabeta import alphabeta_search
from reference.search.timed_alphabeta import timed_alphabeta_search


def test_solves_a_small_board_exactly_and_stops_early() -> None:
    # 3 x 3 takes seven deepening rounds, each ordering the last best move first, as 4 x 4
    # takes 14; that board cost 2.5 CPU-s, this one a few milliseconds
    game = Isolation(3)
    result = timed_alphabeta_search(game, game.initial_state(), float("inf"))
    assert result.complete
    exact_move, exact_value = alphabeta_search(game, game.initial_state(), 99)
    assert (result.move, result.value) == (exact_move, exact_value)
    assert 1 < result.depth <= 7  # 3 x 3 has 7 free squares: the game is over by then


def test_fixed_depth_matches_plain_alphabeta() -> None:
    game = Isolation()
    evaluate = MobilityEvaluation(game)
    state = game.result(game.result(game.initial_state(), (4, 4)), (5, 5))
    result = timed_alphabeta_search(game, state, float("inf"), evaluate=evaluate, max_depth=3)
    move, value = alphabeta_search(game, state, 3, evaluate=evaluate)
    assert (result.depth, result.value) == (3, value)
    # ordering the previous best move first may pick another move of the same value
    assert result.move in game.actions(state) and move is not None
    assert not result.complete


def test_out_of_time_before_the_first_iteration_returns_the_first_legal_move() -> None:
    game = Isolation()
    result = timed_alphabeta_search(game, game.initial_state(), 0.0)
    assert result.move == game.actions(game.initial_state())[0]
    assert result.depth == 0 and not result.complete


def test_deadline_is_checked_during_a_search() -> None:
    game = Isolation()
    clock = TickingClock(step=0.001)
    counter = Counter()
    result = timed_alphabeta_search(game, game.initial_state(), 0.5,
                                    evaluate=MobilityEvaluation(game),
                                    clock=clock, counter=counter)
    # each clock read costs 1 ms, so at most about 500 reads fit: the search stopped itself
    assert counter.leaves < 600
    assert result.move in game.actions(game.initial_state())


def test_a_decided_position_is_recognised() -> None:
    game = Isolation(3)
    # 3 x 3 is solved outright: the value is a decided one, never a mobility difference
    result = timed_alphabeta_search(game, game.initial_state(), float("inf"),
                                    evaluate=MobilityEvaluation(game))
    assert result.complete and abs(result.value) >= DECIDED


def test_refuses_games_without_the_needed_facts() -> None:
    class Chancy(Isolation):
        facts = GameFacts(deterministic=False)

    with pytest.raises(ValueError, match="deterministic"):
        timed_alphabeta_search(Chancy(), Chancy().initial_state(), 1.0)


def test_no_legal_move_gives_none() -> None:
    game = Isolation(3)
    state = game.initial_state()
    while game.actions(state):
        state = game.result(state, game.actions(state)[0])
    assert timed_alphabeta_search(game, state, 1.0).move is None
