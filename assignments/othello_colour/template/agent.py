"""
An AI player for Othello (colour-only starter). This is the file you hand in.

The game manager starts this file as a program (python3 agent.py), reads its name, then sends
only your colour (1 dark, 2 light). Never print anything to stdout yourself: use eprint.

Conventions: a board is a tuple of row tuples indexed board[row][col] (0 empty, 1 dark,
2 light); a move is (column, row); color is the player the search maximises for, in min nodes
as well. Search to the end of the game (boards are 4x4).

Imports: Python's standard library plus numpy.
"""
import ast
import sys

from othello_shared import find_lines, get_possible_moves, get_score, play_move


def eprint(*args, **kwargs):
    """Print to stderr: use this for debugging output."""
    print(*args, file=sys.stderr, **kwargs)


def compute_utility(board, color):
    """Return the number of disks of color minus the number of disks of the opponent."""
    # IMPLEMENT
    return 0


############ MINIMAX ###############################

def minimax_min_node(board, color):
    """The minimax value of board for color when the opponent (3 - color) is to move."""
    # IMPLEMENT
    return 0


def minimax_max_node(board, color):
    """The minimax value of board for color when color is to move."""
    # IMPLEMENT
    return 0


def select_move_minimax(board, color):
    """Return the best move (column, row) for color on board, found by minimax."""
    # IMPLEMENT
    return 0, 0


############ ALPHA-BETA PRUNING #####################

def alphabeta_min_node(board, color, alpha, beta):
    """The value of board for color, opponent to move, searched with alpha-beta pruning."""
    # IMPLEMENT
    return 0


def alphabeta_max_node(board, color, alpha, beta):
    """The value of board for color, color to move, searched with alpha-beta pruning."""
    # IMPLEMENT
    return 0


def select_move_alphabeta(board, color):
    """Return the best move (column, row) for color on board, found by alpha-beta pruning."""
    # IMPLEMENT
    return 0, 0


####################################################

def run_ai():
    """
    Talk to the game manager: send this AI's name, read the colour, then answer every
    "SCORE dark light" + board pair with a move "column row".
    """
    print("Agent")  # the first line is the name of this AI
    color = int(input())  # 1 for dark (moves first), 2 for light
    while True:
        next_input = input()
        status, dark_score, light_score = next_input.strip().split()
        if status == "FINAL":
            return
        board = ast.literal_eval(input())
        movei, movej = select_move_alphabeta(board, color)
        print("{} {}".format(movei, movej))


if __name__ == "__main__":
    run_ai()
