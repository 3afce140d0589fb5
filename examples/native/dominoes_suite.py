"""A course's Gradescope suite for the Dominoes homework, written as gradescope-utils suites
are: unittest tests with its decorators. gamegrader grades it as it is (case file
course_suite.yaml beside it names it); dominoes_checks.yaml holds the same checks as YAML."""
import unittest

from adversarial_search import DominoesGame, create_dominoes_game
from gradescope_utils.autograder_utils.decorators import number, tags, visibility, weight

FULL_ROW = [True, True, True]


def empty_board(rows, cols):
    return [[False] * cols for _ in range(rows)]


class TestDominoes(unittest.TestCase):
    def setUp(self):
        self.game = create_dominoes_game(3, 3)

    @weight(1)
    @number("1.1")
    @tags("infrastructure")
    def test_new_board_is_empty(self):
        """create_dominoes_game(3, 3) gives an empty board"""
        self.assertEqual(self.game.get_board(), empty_board(3, 3))

    @weight(1)
    @number("1.2")
    def test_every_top_cell_takes_a_vertical_domino(self):
        """every top cell of an empty 3x3 board takes a vertical domino"""
        for col in range(3):
            self.assertTrue(self.game.is_legal_move(0, col, True))

    @weight(2)
    @number("1.3")
    def test_perform_move_fills_two_cells(self):
        """perform_move fills both cells of a vertical domino"""
        self.game.perform_move(0, 1, True)
        board = self.game.get_board()
        self.assertEqual(board[0], [False, True, False])
        self.assertEqual(board[1], [False, True, False])
        self.assertFalse(self.game.is_legal_move(1, 1, True))

    @weight(1)
    @number("1.4")
    def test_a_full_board_is_over(self):
        """a full board is over for both players"""
        game = DominoesGame([list(FULL_ROW) for _ in range(3)])
        self.assertTrue(game.game_over(True))
        self.assertTrue(game.game_over(False))

    @weight(4)
    @number("2.1")
    @visibility("after_due_date")
    def test_best_move_vertical(self):
        """get_best_move on an empty 3x3 board, vertical"""
        self.assertEqual(self.game.get_best_move(True, 1), ((0, 1), 2, 6))
        self.assertEqual(self.game.get_best_move(True, 2), ((0, 1), 3, 10))

    @weight(4)
    @number("2.2")
    @visibility("after_due_date")
    def test_best_move_horizontal(self):
        """get_best_move after (0, 1) vertical, horizontal"""
        self.game.perform_move(0, 1, True)
        self.assertEqual(self.game.get_best_move(False, 1), ((2, 0), -3, 2))
        self.assertEqual(self.game.get_best_move(False, 2), ((2, 0), -2, 5))


if __name__ == "__main__":
    unittest.main()
