############################################################
# Homework 4: Games and Adversarial Search (adversarial_search.py)
############################################################

student_name = "Type your full name here."

############################################################
# Imports
############################################################

# Include your imports here, if any are used. Imports: Python's standard library plus numpy.



############################################################
# Section 1: Dominoes Game
############################################################

def create_dominoes_game(rows, cols):
    """Return a new DominoesGame with a rows x cols board of empty (False) squares."""
    pass


class DominoesGame(object):

    # Required
    def __init__(self, board):
        """Store the board: a list of rows, each a list of booleans (True = filled)."""
        pass

    def get_board(self):
        """Return the internal board (the list of lists given to __init__)."""
        pass

    def reset(self):
        """Set every square of the board to empty (False)."""
        pass

    def is_legal_move(self, row, col, vertical):
        """Whether a domino fits on (row, col) and (row + 1, col) if vertical, else on
        (row, col) and (row, col + 1): inside the board and on empty squares only."""
        pass

    def legal_moves(self, vertical):
        """Yield the legal moves of the given player as (row, col) tuples, in row-major
        order: rows from top to bottom, and within a row from left to right."""
        pass

    def perform_move(self, row, col, vertical):
        """Fill the two squares covered by a domino placed at (row, col)."""
        pass

    def game_over(self, vertical):
        """Whether the given player has no legal move."""
        pass

    def copy(self):
        """Return a new DominoesGame with a deep copy of the board."""
        pass

    def successors(self, vertical):
        """Yield ((row, col), new_game) for every legal move, in legal_moves order."""
        pass

    def get_random_move(self, vertical):
        """Optional: return a random legal move as a (row, col) tuple."""
        pass

    # Required
    def get_best_move(self, vertical, limit):
        """Return (best_move, value, leaves_visited) from a faithful alpha-beta search
        (textbook, "Optimal Decisions in Games") looking at most `limit` moves ahead.

        Explore moves in row-major order. A board's value is the number of moves available
        to the current player (the one who called get_best_move) minus the number available
        to the opponent. Count every position at which the search stops (depth limit reached
        or no move left) as one leaf.
        """
        pass
