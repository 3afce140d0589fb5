"""
Play any game with any strategies:
    python game_interface.py
"""
from __future__ import annotations

from typing import Any, Callable

from stonehenge import StonehengeGame
from strategy import (
    interactive_strategy,
    iterative_minimax_strategy,
    recursive_minimax_strategy,
    rough_outcome_strategy,
)
from subtract_square_game import SubtractSquareGame

playable_games = {'s': SubtractSquareGame,
                  'h': StonehengeGame}
usable_strategies = {'i': interactive_strategy,
                     'ro': rough_outcome_strategy,
                     'mr': recursive_minimax_strategy,
                     'mi': iterative_minimax_strategy}


class GameInterface:
    """
    A game played between two strategies.

    game - the game being played.
    p1_strategy, p2_strategy - the functions choosing each player's moves.
    """
    game: Any
    p1_strategy: Callable[[Any], Any]
    p2_strategy: Callable[[Any], Any]

    def __init__(self, game: Any, p1_strategy: Callable[[Any], Any],
                 p2_strategy: Callable[[Any], Any] = interactive_strategy
                 ) -> None:
        """
        Set up a game of class game, asking who moves first.
        """
        answer = input("Type y if player 1 is to make the first move: ")
        self.game = game(answer.strip().lower() == 'y')
        self.p1_strategy = p1_strategy
        self.p2_strategy = p2_strategy

    def play(self) -> None:
        """
        Play until the game is over, then announce the result.
        """
        print(self.game.get_instructions())
        while not self.game.is_over(self.game.current_state):
            state = self.game.current_state
            print("The current state is:")
            print(state)
            if state.get_current_player_name() == 'p1':
                strategy = self.p1_strategy
            else:
                strategy = self.p2_strategy
            move = strategy(self.game)
            while not state.is_valid_move(move):
                print("{} is not a valid move.".format(move))
                move = strategy(self.game)
            print("{} plays {}.".format(state.get_current_player_name(),
                                         move))
            self.game.current_state = state.make_move(move)
        print(self.game.current_state)
        if self.game.is_winner('p1'):
            print("Player 1 wins!")
        elif self.game.is_winner('p2'):
            print("Player 2 wins!")
        else:
            print("It's a tie!")


def _choose(prompt: str, options: dict) -> Any:
    """
    Ask until the user types one of the keys of options; return its value.
    """
    key = input(prompt)
    while key not in options:
        key = input(prompt)
    return options[key]


if __name__ == '__main__':
    GAME_KEYS = ', '.join(playable_games)
    STRATEGY_KEYS = ', '.join(usable_strategies)
    CHOSEN_GAME = _choose("Which game ({})? ".format(GAME_KEYS),
                          playable_games)
    P1 = _choose("Player 1's strategy ({})? ".format(STRATEGY_KEYS),
                 usable_strategies)
    P2 = _choose("Player 2's strategy ({})? ".format(STRATEGY_KEYS),
                 usable_strategies)
    GameInterface(CHOSEN_GAME, P1, P2).play()
