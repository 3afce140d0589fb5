"""
The GameState superclass: one position of a two-player game.
"""
from __future__ import annotations

from typing import Any


class GameState:
    """
    A position in a game, and whose turn it is.

    p1_turn - True when it is player 1's turn, False when it is player 2's.
    WIN, LOSE, DRAW - the scores rough_outcome and the strategies use.
    """
    WIN: int = 1
    LOSE: int = -1
    DRAW: int = 0
    p1_turn: bool

    def __init__(self, is_p1_turn: bool) -> None:
        """
        Initialize this GameState, with player 1 to move if is_p1_turn.
        """
        self.p1_turn = is_p1_turn

    def __str__(self) -> str:
        """
        Return a text picture of this state.
        """
        raise NotImplementedError

    def get_possible_moves(self) -> list:
        """
        Return every legal move from this state (an empty list once the game
        is over).
        """
        raise NotImplementedError

    def get_current_player_name(self) -> str:
        """
        Return 'p1' if it is player 1's turn, otherwise 'p2'.
        """
        return 'p1' if self.p1_turn else 'p2'

    def make_move(self, move: Any) -> 'GameState':
        """
        Return the state reached by playing move from this state. This state
        does not change.
        """
        raise NotImplementedError

    def is_valid_move(self, move: Any) -> bool:
        """
        Return whether move is one of this state's possible moves.
        """
        return move in self.get_possible_moves()

    def __repr__(self) -> Any:
        """
        Return a representation of this state: equal for states with the same
        position and player to move, different otherwise.
        """
        raise NotImplementedError

    def rough_outcome(self) -> float:
        """
        Return an estimate, between LOSE and WIN, of how good this state is for
        the player about to move.
        """
        raise NotImplementedError
