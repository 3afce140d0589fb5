"""Trusted knowledge of the ``othello`` assignment: reference agent, heuristic, grading glue.

Rules live in :mod:`reference.games.othello`; the trusted referee (the handout's line protocol
on the one match loop of ``harness.games``) in :mod:`reference.othello.referee`, the game kit
that grading, tournaments and replays play it by in :mod:`reference.othello.kit`. The
students' starter manager (``student_template/othello/othello_game.py``) is never trusted.
"""
from __future__ import annotations
