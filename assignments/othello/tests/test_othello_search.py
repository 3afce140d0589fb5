"""Reference search (notes section 7), the reference agent adapter and the solution agent."""
from __future__ import annotations

import math

import pytest
from test_othello_rules import START4, random_positions

from assignments.othello import rules
from assignments.othello.agent import ReferenceAgent, compute_utility, node_answers
from assignments.othello.heuristic import HeuristicAgent
from assignments.othello.rules import Othello, OthelloState
from reference.core.counters import Counter
from reference.core.protocols import GameFacts
from reference.search import alphabeta as search

INF = math.inf


def test_reference_values_from_the_notes():
    agent = ReferenceAgent()
    assert agent.minimax_max_node(START4, 1, -1, caching=1) == ((0, 1), -6)
    assert agent.select_move_minimax(START4, 1, -1, caching=1) == (0, 1)  # from the cache
    assert agent.select_move_alphabeta(START4, 1, -1) == (0, 1)
    expected = {1: 3, 2: 0, 3: 3, 4: 0, 6: -2}
    assert {limit: agent.minimax_max_node(START4, 1, limit)[1] for limit in expected} == expected
    assert {limit: agent.alphabeta_max_node(START4, 1, -INF, INF, limit)[1]
            for limit in expected} == expected


def test_min_node_reports_the_opponents_move_with_the_value_for_color():
    agent = ReferenceAgent()
    # light is color; dark (the opponent) moves at this min node; light wins by 6 with best play
    assert agent.minimax_min_node(START4, 2, -1) == ((0, 1), 6)
    assert agent.minimax_min_node(START4, 2, 1) == ((0, 1), -3)
    assert agent.minimax_max_node(START4, 1, 0) == (None, 0)
    assert compute_utility(((1, 1, 0, 0), (2, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0)), 2) == -1


def test_alphabeta_caching_and_ordering_keep_minimax_answers():
    game = Othello(6)
    for board, player in random_positions(6, 40, seed=11)[::4]:
        state = OthelloState(board, player)
        for limit in (1, 2, 3):
            plain = search.minimax_max_node(game, state, player, limit)
            assert search.minimax_max_node(game, state, player, limit, cache={}) == plain
            assert search.alphabeta_max_node(game, state, player, -INF, INF, limit) == plain
            assert search.alphabeta_max_node(game, state, player, -INF, INF, limit,
                                             cache={}) == plain
            ordered = search.alphabeta_max_node(game, state, player, -INF, INF, limit,
                                                ordering=search.handout_ordering)
            assert ordered.value == plain.value


def test_a_shared_cache_never_gives_stale_answers():
    # One cache across colours, node kinds and limits, as a student's module-level dict is.
    agent = ReferenceAgent()
    fresh = ReferenceAgent()
    for limit in (1, 2, 3, 4, 2, 1):
        for color in (1, 2):
            assert (agent.minimax_max_node(START4, color, limit, caching=1)
                    == fresh.minimax_max_node(START4, color, limit))
            assert (agent.alphabeta_min_node(START4, color, -INF, INF, limit, caching=1)
                    == fresh.minimax_min_node(START4, color, limit))


def test_ordering_searches_fewer_positions_on_the_4x4_start():
    game = Othello(4)
    counts = {}
    for name, ordering in (("off", None), ("on", search.handout_ordering),
                           ("mover", search.mover_ordering)):
        counter = Counter()
        answer = search.alphabeta_max_node(game, game.initial_state(), 1, -INF, INF, -1,
                                           ordering=ordering, counter=counter)
        assert answer == ((0, 1), -6)
        counts[name] = counter.expansions
    assert counts == {"off": 6377, "on": 4108, "mover": 3193}


def test_node_answers_list_every_optimal_move():
    assert node_answers(START4, 1, -1, True) == (-6, [(0, 1), (1, 0), (2, 3), (3, 2)])
    assert node_answers(START4, 1, 0, True) == (0, [])
    # a min node (light to move after dark's (0, 1)) returns every value-minimising reply
    after = rules.play_move(START4, 1, 0, 1)
    value, moves = node_answers(after, 1, 1, False)
    values = dict(search.limited_move_values(Othello(4), OthelloState(after, 2), 1, 1))
    assert value == min(values.values()) and moves == [m for m, v in values.items() if v == value]


def test_search_refuses_games_without_the_facts_it_needs():
    class Dice(Othello):
        facts = GameFacts(deterministic=False)

    with pytest.raises(ValueError, match="deterministic"):
        search.minimax_max_node(Dice(4), Dice(4).initial_state(), 1, 1)


@pytest.mark.parametrize("size, limits", [(4, (1, 2, 3, -1)), (6, (1, 2, 3))])
def test_solution_agent_matches_the_reference(solution, size, limits):
    reference = ReferenceAgent()
    for board, color in random_positions(size, 200, seed=size)[::10]:
        assert solution.compute_utility(board, color) == compute_utility(board, color)
        empties = sum(row.count(0) for row in board)
        for limit in limits:
            if limit < 0 and empties > 9:
                continue  # keep in-process full-depth searches small
            expected_max = reference.minimax_max_node(board, color, limit)
            expected_min = reference.minimax_min_node(board, color, limit)
            assert solution.minimax_max_node(board, color, limit) == expected_max
            assert solution.minimax_min_node(board, color, limit) == expected_min
            assert solution.minimax_max_node(board, color, limit, 1) == expected_max
            assert solution.alphabeta_max_node(board, color, -INF, INF, limit) == expected_max
            assert solution.alphabeta_min_node(board, color, -INF, INF, limit) == expected_min
            # with a warm cache and ordering the move is any optimal one
            move, value = solution.alphabeta_max_node(board, color, -INF, INF, limit, 1, 1)
            best_value, best_moves = node_answers(board, color, limit, True)
            assert value == best_value
            assert move in best_moves if best_moves else move is None
            assert solution.select_move_minimax(board, color, limit, 1) == expected_max[0]


def test_heuristic_agent_beats_randy(manager):
    agent = HeuristicAgent(budget=math.inf, max_depth=2)
    wins = 0
    for seed in range(4):
        color = 1 + seed % 2
        smart = manager.InProcessPlayer("Heuristic", agent.choose)
        randy = manager.random_player(seed, rules)
        dark, light = (smart, randy) if color == 1 else (randy, smart)
        outcome = manager.play_game(dark, light, manager.GameConfig(size=6), rules=rules)
        wins += outcome.winner == color
    assert wins == 4
