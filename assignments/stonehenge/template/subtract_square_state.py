"""
The states of Subtract Square.
"""
from __future__ import annotations

from typing import Any

from game_state import GameState


def _is_square(number: int) -> bool:
    """
    Return whether number is a positive perfect square.

    >>> _is_square(9)
    True
    >>> _is_square(8)
    False
    """
    root = 1
    while root * root < number:
        root += 1
    return number > 0 and root * root == number


class SubtractSquareState(GameState):
    """
    A Subtract Square position: the total left, and whose turn it is.

    current_total - the number the players subtract squares from.
    """
    current_total: int

    def __init__(self, is_p1_turn: bool, current_total: int) -> None:
        """
        Initialize this state with current_total left and player 1 to move if
        is_p1_turn.

        >>> SubtractSquareState(True, 20).current_total
        20
        """
        super().__init__(is_p1_turn)
        self.current_total = current_total

    def __str__(self) -> str:
        """
        Return the total left.

        >>> print(SubtractSquareState(True, 20))
        Current total: 20
        """
        return 'Current total: {}'.format(self.current_total)

    def get_possible_moves(self) -> list:
        """
        Return the positive squares no larger than the total, ascending.

        >>> SubtractSquareState(True, 10).get_possible_moves()
        [1, 4, 9]
        """
        moves = []
        root = 1
        while root * root <= self.current_total:
            moves.append(root * root)
            root += 1
        return moves

    def make_move(self, move: Any) -> 'SubtractSquareState':
        """
        Return the state after subtracting move (an int, or a numeric string)
        from the total; the other player moves next.

        >>> SubtractSquareState(True, 10).make_move('4').current_total
        6
        """
        return SubtractSquareState(not self.p1_turn,
                                   self.current_total - int(move))

    def __repr__(self) -> str:
        """
        Return a representation of this state.

        >>> SubtractSquareState(True, 20)
        P1's Turn: True - Total: 20
        """
        return "P1's Turn: {} - Total: {}".format(self.p1_turn,
                                                 self.current_total)

    def rough_outcome(self) -> float:
        """
        Return WIN if the player to move can take the whole total, LOSE if
        every move leaves a square to the opponent (or nothing is left), and
        DRAW otherwise.

        >>> SubtractSquareState(True, 9).rough_outcome()
        1
        >>> SubtractSquareState(True, 5).rough_outcome()
        -1
        >>> SubtractSquareState(True, 6).rough_outcome()
        0
        """
        if _is_square(self.current_total):
            return self.WIN
        if all(_is_square(self.current_total - move)
               for move in self.get_possible_moves()):
            return self.LOSE
        return self.DRAW
