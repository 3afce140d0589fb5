"""The solution files (student API) against the reference, and the starter framework."""
from __future__ import annotations

import random
from types import ModuleType

import pytest
from stonehenge_helpers import ScriptedInput, scripted_input, solution  # noqa: F401 (fixtures)

from assignments.stonehenge.game_tree import TreeGame, build_tree, caterpillar, encode
from assignments.stonehenge.rough import UNKNOWN, rough_outcome
from assignments.stonehenge.rules import SIDES, Stonehenge
from reference.games.subtract_square import SubtractSquare
from reference.search.minimax import optimal_moves

Modules = dict[str, ModuleType]
NAMES = {1: "p1", 2: "p2"}


def new_game(modules: Modules, scripted_input: ScriptedInput, side: int, p1_starts: bool):
    scripted_input.add(str(side))
    return modules["stonehenge"].StonehengeGame(p1_starts)


@pytest.mark.parametrize("side", SIDES)
def test_solution_matches_the_reference_move_by_move(
        solution: Modules, scripted_input: ScriptedInput, side: int) -> None:
    rng = random.Random(side)
    reference = Stonehenge(side)
    for game_number in range(12):
        p1_starts = game_number % 2 == 0
        game = new_game(solution, scripted_input, side, p1_starts)
        state, position = game.current_state, reference.initial_state(1 if p1_starts else 2)
        while True:
            assert str(state) == reference.format_board(position)
            assert state.get_possible_moves() == list(reference.actions(position))
            assert game.is_over(state) == reference.is_terminal(position)
            expected = rough_outcome(reference, position)
            assert state.rough_outcome() == expected or (
                expected == UNKNOWN and -1 < state.rough_outcome() < 1)
            if reference.is_terminal(position):
                break
            move = rng.choice(reference.actions(position))
            state, position = state.make_move(move), reference.result(position, move)
        game.current_state = state
        winner = NAMES[reference.winner(position)]
        assert game.is_winner(winner) and not game.is_winner("p2" if winner == "p1" else "p1")
    assert scripted_input.prompts == ["Enter the side length of the board: "] * 12


def test_solution_state_api(solution: Modules, scripted_input: ScriptedInput) -> None:
    game = new_game(solution, scripted_input, 2, False)
    state = game.current_state
    assert state.get_current_player_name() == "p2"
    assert game.str_to_move("A") == "A" == game.str_to_move(game.str_to_move("A"))
    before = (str(state), repr(state), state.p1_turn)
    after = state.make_move("A")
    assert (str(state), repr(state), state.p1_turn) == before
    assert repr(after) != repr(state) and after.get_current_player_name() == "p1"
    assert not state.is_valid_move("Z") and not after.is_valid_move("A")
    assert after.is_valid_move("B")
    same = state.make_move("A")
    assert repr(same) == repr(after)


def stonehenge_tree_texts() -> list[tuple[str, tuple[str, ...]]]:
    """Small Stonehenge positions as tree texts with their optimal moves."""
    cases = []
    for side, moves in [(2, "AEBC"), (2, "A"), (3, "ABCDEFG"), (4, "ABCDEFGHIJKLM")]:
        game = Stonehenge(side)
        position = game.initial_state()
        for move in moves:
            position = game.result(position, move)
        tree = build_tree(game, position, NAMES, max_nodes=3000)
        cases.append((encode(tree), optimal_moves(TreeGame(tree), 0)))
    return cases


@pytest.mark.parametrize("strategy_name",
                         ["recursive_minimax_strategy", "iterative_minimax_strategy"])
def test_solution_strategies_pick_optimal_moves(solution: Modules, strategy_name: str) -> None:
    strategy = getattr(solution["strategy"], strategy_name)
    for text, accepted in stonehenge_tree_texts():
        game = solution["gg_tree_game"].load_tree_game(text)
        before = game.current_state
        assert strategy(game) in accepted
        assert game.current_state is before


@pytest.mark.parametrize("strategy_name",
                         ["recursive_minimax_strategy", "iterative_minimax_strategy"])
def test_solution_strategies_on_subtract_square(solution: Modules, strategy_name: str,
                                                scripted_input: ScriptedInput) -> None:
    strategy = getattr(solution["strategy"], strategy_name)
    scripted_input.add("6")
    game = solution["subtract_square_game"].SubtractSquareGame(True)
    reference = SubtractSquare()
    for total in range(1, 30):
        game.current_state = solution["subtract_square_state"].SubtractSquareState(
            total % 3 == 0, total)
        assert strategy(game) in optimal_moves(reference, reference.initial_state(total))


def test_only_the_recursive_strategy_recurses(solution: Modules) -> None:
    text, _ = stonehenge_tree_texts()[0]
    find = solution["gg_call_graph"].find_recursion
    load = solution["gg_tree_game"].load_tree_game
    _, iterative = find(solution["strategy"].iterative_minimax_strategy, load(text))
    _, recursive = find(solution["strategy"].recursive_minimax_strategy, load(text))
    assert iterative == []
    assert "_recursive_score" in recursive


def test_iterative_strategy_handles_a_game_deeper_than_the_recursion_limit(
        solution: Modules) -> None:
    deep = solution["gg_tree_game"].load_tree_game(encode(caterpillar(1501)))
    assert solution["strategy"].iterative_minimax_strategy(deep) == "B"
    with pytest.raises(RecursionError):
        solution["strategy"].recursive_minimax_strategy(deep)


def test_rough_outcome_strategy_takes_an_immediate_win(solution: Modules) -> None:
    # caterpillar(1): A lets p2 win at once (LOSE for p1 after it), B wins at once.
    game = solution["gg_tree_game"].load_tree_game(encode(caterpillar(1)))
    assert solution["strategy"].rough_outcome_strategy(game) == "B"
