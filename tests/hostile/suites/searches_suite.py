"""A course suite in its own style: each search's inputs and its answer in one table, the
hidden tests reading it by index or looping over it. Graded by the hostile corpus
(``grade: {suite: ...}``) and tests/harness/native/test_native_suite.py."""
import unittest

from adversarial_search import create_dominoes_game
from gradescope_utils.autograder_utils.decorators import visibility, weight

# rows, cols, vertical, limit, (move, value, leaves)
SEARCHES = [(3, 3, True, 1, ((0, 1), 2, 6)),
            (3, 3, True, 2, ((0, 1), 3, 10)),
            (2, 3, False, 1, ((0, 0), 1, 4)),
            (3, 2, False, 2, ((1, 0), 2, 4))]


def new_game(rows, cols):
    return create_dominoes_game(rows, cols)


class TestSearches(unittest.TestCase):
    @weight(1)
    def test_a_new_game_is_not_over(self):
        """a new 3x3 game is not over (visible)"""
        self.assertFalse(new_game(*SEARCHES[0][:2]).game_over(SEARCHES[0][2]))

    @weight(1)
    def test_legal_moves(self):
        """the vertical moves of a new 2x2 game (visible)"""
        self.assertCountEqual(list(new_game(2, 2).legal_moves(True)), [(0, 0), (0, 1)])

    @weight(4)
    @visibility("hidden")
    def test_first_search(self):
        """the first search of the table"""
        game = new_game(*SEARCHES[0][:2])
        self.assertEqual(game.get_best_move(*SEARCHES[0][2:4]), SEARCHES[0][4])

    @weight(8)
    @visibility("hidden")
    def test_every_search(self):
        """every search of the table"""
        for rows, cols, vertical, limit, answer in SEARCHES:
            game = new_game(rows, cols)
            self.assertEqual(game.get_best_move(vertical, limit), answer)
