"""
The Game superclass: the rules of a two-player game, and its current state.
"""
from __future__ import annotations

from typing import Any

from game_state import GameState


class Game:
    """
    A two-player game.

    current_state - the state the game is being played from.
    """
    current_state: GameState

    def __init__(self, p1_starts: bool) -> None:
        """
        Initialize this Game; player 1 moves first if p1_starts.
        """
        raise NotImplementedError

    def get_instructions(self) -> str:
        """
        Return the rules of this Game.
        """
        raise NotImplementedError

    def is_over(self, state: GameState) -> bool:
        """
        Return whether the game is over at state.
        """
        raise NotImplementedError

    def is_winner(self, player: str) -> bool:
        """
        Return whether player has won the game in self.current_state.

        Precondition: player is 'p1' or 'p2'.
        """
        raise NotImplementedError

    def str_to_move(self, string: str) -> Any:
        """
        Return the move that string describes, or some invalid move if string
        describes none.
        """
        raise NotImplementedError
