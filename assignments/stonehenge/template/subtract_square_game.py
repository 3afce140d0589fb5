"""
Subtract Square: players take turns subtracting a positive square from a
total; whoever reaches 0 wins.
"""
from __future__ import annotations

from typing import Any

from game import Game
from subtract_square_state import SubtractSquareState


class SubtractSquareGame(Game):
    """
    A game of Subtract Square.

    current_state - the state the game is being played from.
    """
    current_state: SubtractSquareState

    def __init__(self, p1_starts: bool) -> None:
        """
        Initialize this game, asking (once) for the starting total.
        """
        total = int(input("Enter the number to subtract from: "))
        self.current_state = SubtractSquareState(p1_starts, total)

    def get_instructions(self) -> str:
        """
        Return the rules of Subtract Square.
        """
        return ("Players take turns subtracting a positive square number "
                "(1, 4, 9, ...) no larger than the current total. The "
                "player who brings the total to 0 wins.")

    def is_over(self, state: SubtractSquareState) -> bool:
        """
        Return whether nothing is left to subtract in state.
        """
        return state.current_total == 0

    def is_winner(self, player: str) -> bool:
        """
        Return whether player has won: the game is over in current_state and
        player is not the one to move.
        """
        return (self.is_over(self.current_state)
                and self.current_state.get_current_player_name() != player)

    def str_to_move(self, string: str) -> Any:
        """
        Return the int that string spells (surrounding spaces ignored), or -1
        if it is not all digits 0-9.
        """
        text = string.strip()
        if not text or any(char not in '0123456789' for char in text):
            return -1
        return int(text)
