"""Trusted knowledge of the ``othello`` assignment: reference agent, heuristic, grading glue.

Rules live in :mod:`reference.games.othello`; the one game manager lives in
``student_template/othello/othello_game.py`` and is loaded by :mod:`reference.othello.manager`.
"""
from __future__ import annotations
