############################################################
# Homework 2: Search and Games (search_and_games.py)
############################################################

student_name = "Type your full name here."

# Do not change the names or signatures of the functions and methods below: they are graded
# automatically. You may add helper functions, methods and variables of your own.

############################################################
# Imports
############################################################

# Include your imports here, if any are used. Imports: Python's standard library plus numpy.


############################################################
# Section 1: Lights Out
############################################################

class LightsOutPuzzle(object):

    def __init__(self, board):
        """Store board, a 2-D list of booleans (True = light on), for later use."""
        pass

    def get_board(self):
        """Return the internal board as a 2-D list of booleans."""
        pass

    def perform_move(self, row, col):
        """Toggle the light at (row, col) and its up, down, left and right neighbours.

        Neighbours off the board are ignored. Returns nothing.
        """
        pass

    def scramble(self):
        """Call perform_move on each location with probability 1/2 (random.random() < 0.5)."""
        pass

    def is_solved(self):
        """Return whether every light on the board is off."""
        pass

    def copy(self):
        """Return a new LightsOutPuzzle with a deep copy of the board.

        Changes to either puzzle must not show in the other.
        """
        pass

    def successors(self):
        """Yield every (move, new_puzzle) pair, where move is a (row, col) tuple.

        new_puzzle is a new LightsOutPuzzle whose board is this board after the move. Any
        order is fine. This puzzle is not changed.
        """
        pass

    def find_solution(self):
        """Return an optimal solution as a list of (row, col) moves, or None if unsolvable.

        Use breadth-first graph search: do not add a state to the frontier if it was already
        visited or is in the frontier. Any optimal solution is accepted.
        """
        pass


def create_puzzle(rows, cols):
    """Return a new LightsOutPuzzle of the given size with every light off."""
    pass


############################################################
# Section 2: Grid Navigation
############################################################

def find_path(start, goal, scene):
    """Return a shortest path from start to goal as a list of (row, col) points, or None.

    scene is a 2-D list of booleans (True = obstacle). Moves go to any of the 8 neighbouring
    cells (up, down, left, right and the four diagonals); a path's length is its Euclidean
    length. The path includes both start and goal. Use A* search with the straight-line
    (Euclidean) distance heuristic. Return None if the goal cannot be reached or if start or
    goal lies on an obstacle.
    """
    pass


############################################################
# Section 3: Dominoes Game
############################################################

# >>> spliced from assignments/adversarial_search/template/adversarial_search.py
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
# <<< end of spliced section
