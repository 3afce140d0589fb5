"""
Strategies: functions that take a game and return a move for its current
state.

Imports: Python's standard library plus numpy.
"""
from __future__ import annotations

from typing import Any


def interactive_strategy(game: Any) -> Any:
    """
    Return the move a person types for game.current_state.
    """
    move = input("Enter a move: ")
    return game.str_to_move(move)


def rough_outcome_strategy(game: Any) -> Any:
    """
    Return the move of game.current_state whose resulting state has the
    lowest rough_outcome, i.e. looks worst for the opponent. Ties go to the
    move listed first.
    """
    state = game.current_state
    best_move = None
    best_score = None
    for move in state.get_possible_moves():
        # What is bad for the opponent is good for us, hence the minus sign.
        score = -1 * state.make_move(move).rough_outcome()
        if best_score is None or score > best_score:
            best_score = score
            best_move = move
    return best_move


def recursive_minimax_strategy(game: Any) -> Any:
    """
    Return a move of game.current_state that guarantees the highest possible
    score for the player to move, found by recursion on the states.

    game.current_state is the same when this function returns.
    """
    raise NotImplementedError


def iterative_minimax_strategy(game: Any) -> Any:
    """
    Return a move of game.current_state that guarantees the highest possible
    score for the player to move, found with a stack of tree nodes and no
    recursion.

    game.current_state is the same when this function returns.
    """
    raise NotImplementedError


if __name__ == "__main__":
    from python_ta import check_all
    check_all(config="a2_pyta.txt")
