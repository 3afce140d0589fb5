"""The starter's helper package: the rule helpers of othello_shared, and eprint.

Import them as the starter does: ``from src import find_lines, get_possible_moves, get_score,
play_move, eprint``.
"""
import sys

from othello_shared import find_lines, get_possible_moves, get_score, play_move


def eprint(*args, **kwargs):
    """Print to stderr (stdout is the game protocol)."""
    print(*args, file=sys.stderr, **kwargs)


__all__ = ["eprint", "find_lines", "get_possible_moves", "get_score", "play_move"]
