"""
An AI player for Othello. This is the file you hand in.

The game manager starts this file as a program (python3 agent.py) and talks to it over
stdin/stdout, so never print anything to stdout yourself: use eprint for debugging output.

Conventions: a board is a tuple of row tuples indexed board[row][col] (0 empty, 1 dark,
2 light); a move is (column, row); color is 1 (dark) or 2 (light) and is always the player
the search maximises for, in min nodes as well.

Imports: Python's standard library plus numpy.
"""
from __future__ import annotations

import ast
import sys

# You can use the functions in othello_shared to write your AI.
from othello_shared import find_lines, get_possible_moves, get_score, play_move

# Your state cache (for caching = 1). It lives as long as the program runs.
cache = {}


def eprint(*args, **kwargs):
    """Print to stderr: use this for debugging output."""
    print(*args, file=sys.stderr, **kwargs)


def compute_utility(board, color):
    """Return the number of disks of color minus the number of disks of the opponent."""
    # IMPLEMENT (and replace the line below)
    return 0


def compute_heuristic(board, color):
    """Optional (competition): return a better estimate of the board's value for color."""
    # IMPLEMENT (and replace the line below)
    return 0


############ MINIMAX ###############################

def minimax_min_node(board, color, limit, caching=0):
    """
    Min node: the opponent (3 - color) is to move.

    Return (move, utility): the opponent's best move (None if it has no move or limit is 0)
    and the minimax value of board for color.
    """
    # IMPLEMENT (and replace the line below)
    return None, 0


def minimax_max_node(board, color, limit, caching=0):
    """
    Max node: color is to move.

    Return (move, utility): color's best move (None if it has no move or limit is 0)
    and the minimax value of board for color.
    """
    # IMPLEMENT (and replace the line below)
    return None, 0


def select_move_minimax(board, color, limit, caching=0):
    """
    Return the best move (column, row) for color on board, found by minimax.

    limit is the depth limit (-1: no limit); caching is 1 to use the state cache.
    Use minimax_max_node.
    """
    # IMPLEMENT (and replace the line below)
    return 0, 0


############ ALPHA-BETA PRUNING #####################

def alphabeta_min_node(board, color, alpha, beta, limit, caching=0, ordering=0):
    """Min node of alpha-beta; returns (move, utility) as minimax_min_node does."""
    # IMPLEMENT (and replace the line below)
    return None, 0


def alphabeta_max_node(board, color, alpha, beta, limit, caching=0, ordering=0):
    """Max node of alpha-beta; returns (move, utility) as minimax_max_node does."""
    # IMPLEMENT (and replace the line below)
    return None, 0


def select_move_alphabeta(board, color, limit=-1, caching=0, ordering=0):
    """
    Return the best move (column, row) for color on board, found by alpha-beta pruning.

    ordering is 1 to explore the successors with the highest compute_utility for color first.
    Use alphabeta_max_node.
    """
    # IMPLEMENT (and replace the line below)
    return 0, 0


####################################################

def run_ai():
    """
    Talk to the game manager: send this AI's name, read the settings, then answer every
    "SCORE dark light" + board pair with a move "column row", until the game ends.
    """
    print("Agent")  # the first line is the name of this AI
    settings = input().split(",")
    color = int(settings[0])  # 1 for dark (moves first), 2 for light
    limit, minimax, caching, ordering = -1, 0, 0, 0
    if len(settings) == 5:  # older managers send only the color
        limit = int(settings[1])  # depth limit, -1 for none
        minimax = int(settings[2])  # 1: minimax, 0: alpha-beta
        caching = int(settings[3])  # 1: use the state cache
        ordering = int(settings[4])  # 1: node ordering (alpha-beta only)
    eprint("Running", "MINIMAX" if minimax == 1 else "ALPHA-BETA")

    while True:
        # "SCORE 2 2" before each of our moves, or "FINAL 33 31" when the game is over.
        # The first number is dark's disk count, the second light's.
        try:
            status = input().split()
        except EOFError:
            return
        if not status or status[0] == "FINAL":
            return
        board = ast.literal_eval(input())  # the board, as a tuple of tuples
        if minimax == 1:
            i, j = select_move_minimax(board, color, limit, caching)
        else:
            i, j = select_move_alphabeta(board, color, limit, caching, ordering)
        print(i, j, flush=True)


if __name__ == "__main__":
    run_ai()
