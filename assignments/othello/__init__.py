"""Trusted knowledge of the ``othello`` assignment: reference agent, heuristic, grading glue.

Rules live in :mod:`assignments.othello.rules`; the trusted referee (the handout's line protocol
on the one match loop of ``harness.games``) in :mod:`assignments.othello.referee`, the game kit
that grading, tournaments and replays play it by in :mod:`assignments.othello.kit`. The
students' starter manager (``assignments/othello/template/othello_game.py``) is never trusted.
"""
from __future__ import annotations
