"""The starter framework students download: Subtract Square, strategies, the interface."""
from __future__ import annotations

from types import ModuleType

import pytest
from stonehenge_helpers import ScriptedInput, scripted_input, template  # noqa: F401 (fixtures)

from assignments.stonehenge.rough import rough_outcome
from reference.games.subtract_square import SubtractSquare

Modules = dict[str, ModuleType]


def test_subtract_square_reads_the_total_with_one_input_call(
        template: Modules, scripted_input: ScriptedInput) -> None:
    scripted_input.add("20", "unused")
    game = template["subtract_square_game"].SubtractSquareGame(False)
    assert scripted_input.prompts == ["Enter the number to subtract from: "]
    state = game.current_state
    assert state.current_total == 20 and state.get_current_player_name() == "p2"
    assert str(state) == "Current total: 20"
    assert repr(state) == "P1's Turn: False - Total: 20"


def test_subtract_square_moves_and_winner(template: Modules, scripted_input: ScriptedInput) -> None:
    scripted_input.add("10")
    game = template["subtract_square_game"].SubtractSquareGame(True)
    state = game.current_state
    assert state.get_possible_moves() == [1, 4, 9]
    after = state.make_move("9")
    assert state.current_total == 10 and after.current_total == 1
    assert not game.is_over(after) and after.get_possible_moves() == [1]
    game.current_state = after.make_move(1)
    assert game.is_over(game.current_state)
    assert game.is_winner("p2") and not game.is_winner("p1")
    assert game.current_state.get_possible_moves() == []


@pytest.mark.parametrize("text, move", [("4", 4), (" 9\n", 9), ("x", -1), ("", -1),
                                        ("-4", -1), ("4.0", -1), ("\u00b2", -1)])
def test_subtract_square_str_to_move(template: Modules, scripted_input: ScriptedInput,
                                     text: str, move: int) -> None:
    scripted_input.add("5")
    assert template["subtract_square_game"].SubtractSquareGame(True).str_to_move(text) == move


def test_subtract_square_rough_outcome_matches_the_reference(template: Modules) -> None:
    state_class = template["subtract_square_state"].SubtractSquareState
    game = SubtractSquare()
    assert [state_class(True, n).rough_outcome() for n in range(40)] == [
        rough_outcome(game, game.initial_state(n)) for n in range(40)]


def test_interface_maps_keys_to_games_and_strategies(template: Modules) -> None:
    interface = template["game_interface"]
    assert set(interface.playable_games) == {"s", "h"}
    assert interface.playable_games["h"] is template["stonehenge"].StonehengeGame
    assert set(interface.usable_strategies) == {"i", "ro", "mr", "mi"}
    assert interface.usable_strategies["ro"] is template["strategy"].rough_outcome_strategy


def test_interface_plays_a_game_to_the_end(template: Modules, scripted_input: ScriptedInput,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    interface = template["game_interface"]
    strategies = interface.usable_strategies
    # "y": p1 first; total 8. p1 types 5 (refused), then 1: 7 left. p2 (rough outcome): 7-1=6
    # and 7-4=3 both estimate DRAW for p1, so the first move, 1: 6 left. p1 types 4: 2 left.
    # p2 must take 1: 1 left. p1 types 1 and wins.
    scripted_input.add("y", "8", "5", "1", "4", "1")
    interface.GameInterface(interface.playable_games["s"], strategies["i"],
                            strategies["ro"]).play()
    out = capsys.readouterr().out
    assert "5 is not a valid move." in out and out.count("p2 plays 1.") == 2
    assert out.rstrip().endswith("Player 1 wins!")


def test_skeleton_raises_until_written(template: Modules, scripted_input: ScriptedInput) -> None:
    with pytest.raises(NotImplementedError):
        template["stonehenge"].StonehengeGame(True)
    with pytest.raises(NotImplementedError):
        template["strategy"].iterative_minimax_strategy(None)
