"""Doctest transcripts for the stonehenge cases, written from reference positions.

Generators and tests build cases from the same few pieces: open a game (the side length comes
from the case's ``stdin``), play moves, print the board, ask for values. Expected outputs come
from the reference only.
"""
from __future__ import annotations

from typing import Sequence

from harness.records.spec import prompt

Step = tuple[str, str]
"""One example: its source and its expected output ("" when it shows nothing)."""

IMPORT_TREE_GAME = ("from gg_tree_game import load_tree_game", "")
IMPORT_CALL_GRAPH = ("from gg_call_graph import find_recursion", "")


def render(steps: Sequence[Step]) -> str:
    """The transcript text: ``>>>`` (and ``...``) source lines, each followed by its output."""
    lines: list[str] = []
    for source, want in steps:
        lines.append(prompt(source))
        if want:
            lines.extend(want.rstrip("\n").split("\n"))
    return "\n".join(lines) + "\n"


def open_game(p1_starts: bool) -> list[Step]:
    """Build the student's game (one ``input()`` call, fed by ``stdin``); ``s`` is its state."""
    return [(f"g = StonehengeGame({p1_starts})", ""), ("s = g.current_state", "")]


def play(moves: str) -> Step:
    """Claim the cells ``moves`` (one letter each) in turn, starting from ``s``."""
    return (f"for move in {moves!r}: s = s.make_move(move)", "")


def show_board(board: str) -> Step:
    """Print ``s``; ``board`` is the reference's text (printed with its final newline)."""
    return ("print(s)", board + "\n")


def value(source: str, expected: object) -> Step:
    """An expression and the repr of the value the reference gives for it."""
    return (source, repr(expected))


def stdin_for(side: int) -> str:
    """The ``stdin`` text of a case whose game has side length ``side``."""
    return f"{side}\n"


def strategy_call(strategy: str, tree_text: str, expected_move: str,
                  recursion: bool = False) -> list[Step]:
    """Run ``strategy`` (a name from the student's strategy.py) on an explicit game tree.

    With ``recursion`` the call goes through the call-graph probe, whose value is
    ``(move, names of the student's functions that recursed)``; the expected output shown is
    the reference's move with an empty list (the checker decides what is required).
    """
    steps = [IMPORT_TREE_GAME, (f"from strategy import {strategy}", ""),
             (f"g = load_tree_game({tree_text!r})", "")]
    if recursion:
        return steps + [IMPORT_CALL_GRAPH,
                        value(f"find_recursion({strategy}, g)", (expected_move, []))]
    return steps + [value(f"{strategy}(g)", expected_move)]


__all__ = ["Step", "open_game", "play", "render", "show_board", "stdin_for", "strategy_call",
           "value"]
