"""
Randy: an Othello player that picks a random legal move.

Run by the game manager as a separate program (python3 randy_ai.py). When the environment
variable OTHELLO_SEED holds an integer, Randy's choices are reproducible from it.
"""
from __future__ import annotations

import ast
import os
import random
import sys

from othello_shared import get_possible_moves


def make_rng():
    """A random generator seeded from OTHELLO_SEED when it is set."""
    seed = os.environ.get("OTHELLO_SEED", "").strip()
    if seed.lstrip("-").isdigit():
        return random.Random(int(seed))
    return random.Random()


def run_ai():
    """Speak the manager's line protocol until the game ends (see agent.py's run_ai)."""
    rng = make_rng()
    print("Randy", flush=True)
    color = int(input().split(",")[0])
    while True:
        try:
            status = input().split()
        except EOFError:
            return
        if not status or status[0] == "FINAL":
            return
        board = ast.literal_eval(input())
        moves = get_possible_moves(board, color)
        i, j = rng.choice(moves)
        print(i, j, flush=True)


if __name__ == "__main__":
    try:
        run_ai()
    except (EOFError, BrokenPipeError, KeyboardInterrupt):
        sys.exit(0)
