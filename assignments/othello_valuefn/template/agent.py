"""
An AI player for Othello (value_fn revision). This is the file you hand in.

The game manager starts this file as a program (python3 agent.py) and talks to it over
stdin/stdout, so never print anything to stdout yourself: use eprint for debugging output.

Conventions: a board is a tuple of row tuples indexed board[row][col] (0 empty, 1 dark,
2 light); a move is (column, row); color is 1 (dark) or 2 (light) and is always the player
the search maximises for, in min nodes as well.

Imports: Python's standard library plus numpy.
"""
from __future__ import annotations

import ast

# The rule helpers and eprint (print to stderr: use it for debugging output).
from src import eprint, find_lines, get_possible_moves, get_score, play_move

# Your state cache (for caching = 1), e.g. keyed by (board, player to move, limit, node type).
# It lives as long as the program runs.
state_cache = {}


def compute_utility(board, color):
    """Return the number of disks of color minus the number of disks of the opponent."""
    raise RuntimeError("Method not implemented")


############ MINIMAX ###############################

def minimax_min_node(value_fn, board, color, limit, caching=0):
    """
    Min node: the opponent (3 - color) is to move.

    Return (move, utility): the opponent's best move (None if it has no move or limit is 0)
    and the minimax value of board for color.
    """
    raise RuntimeError("Method not implemented")


def minimax_max_node(value_fn, board, color, limit, caching=0):
    """
    Max node: color is to move.

    Return (move, utility): color's best move (None if it has no move or limit is 0)
    and the minimax value of board for color.
    """
    raise RuntimeError("Method not implemented")


def select_move_minimax(value_fn, board, color, limit, caching=0):
    """
    Return the best move (column, row) for color on board, found by minimax.

    limit is the depth limit (-1: no limit); caching is 1 to use the state cache.
    Use minimax_max_node.
    """
    raise RuntimeError("Method not implemented")


############ ALPHA-BETA PRUNING #####################

def alphabeta_min_node(value_fn, board, color, alpha, beta, limit, caching=0, ordering=0):
    """Min node of alpha-beta; returns (move, utility) as minimax_min_node does."""
    raise RuntimeError("Method not implemented")


def alphabeta_max_node(value_fn, board, color, alpha, beta, limit, caching=0, ordering=0):
    """Max node of alpha-beta; returns (move, utility) as minimax_max_node does."""
    raise RuntimeError("Method not implemented")


def select_move_alphabeta(value_fn, board, color, limit=-1, caching=0, ordering=0):
    """
    Return the best move (column, row) for color on board, found by alpha-beta pruning.

    ordering is 1 to explore the successors with the highest compute_utility for color first.
    Use alphabeta_max_node.
    """
    raise RuntimeError("Method not implemented")


####################################################

def run_ai():
    """
    Talk to the game manager: send this AI's name, read the settings, then answer every
    "SCORE dark light" + board pair with a move "column row", until "FINAL dark light".
    """
    print("Agent")  # the first line is the name of this AI
    color, limit, minimax, caching, ordering = map(int, input().split(","))
    eprint("Running", "MINIMAX" if minimax == 1 else "ALPHA-BETA")

    while True:
        status = input().split()  # "SCORE 2 2" before each of our moves, "FINAL 33 31" at the end
        if status[0] == "FINAL":
            eprint("Game over:", status[1], status[2])
            return
        board = ast.literal_eval(input())  # the board, as a tuple of tuples
        if minimax == 1:
            move = select_move_minimax(compute_utility, board, color, limit, caching)
        else:
            move = select_move_alphabeta(compute_utility, board, color, limit, caching, ordering)
        print("{} {}".format(move[0], move[1]))


if __name__ == "__main__":
    run_ai()
