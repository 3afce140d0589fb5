"""
Stonehenge: StonehengeGame and StonehengeState, for use with game_interface.

Imports: Python's standard library plus numpy.
"""
from __future__ import annotations

from typing import Any

from game import Game
from game_state import GameState


class StonehengeGame(Game):
    """
    A game of Stonehenge.

    current_state - the state the game is being played from.
    """
    current_state: 'StonehengeState'

    def __init__(self, p1_starts: bool) -> None:
        """
        Initialize this game. Read the side length (1 to 5) with exactly one
        call of input(), for example:
            int(input("Enter the side length of the board: "))
        """
        raise NotImplementedError

    def get_instructions(self) -> str:
        """
        Return the rules of Stonehenge.
        """
        raise NotImplementedError

    def is_over(self, state: 'StonehengeState') -> bool:
        """
        Return whether a player owns at least half of the ley-lines in state.
        """
        raise NotImplementedError

    def is_winner(self, player: str) -> bool:
        """
        Return whether player ('p1' or 'p2') has won in self.current_state.
        """
        raise NotImplementedError

    def str_to_move(self, string: str) -> Any:
        """
        Return the move string names: a capital letter such as 'A'.
        """
        raise NotImplementedError


class StonehengeState(GameState):
    """
    A Stonehenge position: claimed cells, owned ley-lines, and whose turn it
    is.
    """

    def __str__(self) -> str:
        """
        Return the board, in the layout the handout describes.
        """
        raise NotImplementedError

    def get_possible_moves(self) -> list:
        """
        Return the letters of the unclaimed cells in alphabetical order, or []
        once the game is over.
        """
        raise NotImplementedError

    def make_move(self, move: Any) -> 'StonehengeState':
        """
        Return the state after the player to move claims the cell move. This
        state does not change.
        """
        raise NotImplementedError

    def __repr__(self) -> Any:
        """
        Return a representation of this state: the board and the player to
        move.
        """
        raise NotImplementedError

    def rough_outcome(self) -> float:
        """
        Return WIN if a move wins at once, LOSE if every move lets the
        opponent win at once, and something strictly in between otherwise.
        """
        raise NotImplementedError


if __name__ == "__main__":
    from python_ta import check_all
    check_all(config="a2_pyta.txt")
