"""Trusted knowledge of the ``isolation`` assignment: players, referee, arena, grading runners.

Rules live in ``reference.games.isolation``; the clocked match loop in ``harness.games`` and
tournaments in ``harness.tournament``. This package adds the Isolation-specific parts: house players, the
student wire format (``choose_move(board, player, time_left)``), the tournament arena and the
grading generators and runners.
"""
from __future__ import annotations

from reference.isolation.arena import IsolationArena, make_arena
from reference.isolation.evaluation import MobilityEvaluation
from reference.isolation.players import AlphaBetaPlayer, GreedyPlayer, RandomPlayer, TimePolicy
from reference.isolation.referee import (
    FUNCTION, HOUSE_BOTS, game_result, house_agent, referee_game, replay_result,
    student_contestant,
)

__all__ = [
    "AlphaBetaPlayer", "FUNCTION", "GreedyPlayer", "HOUSE_BOTS", "IsolationArena",
    "MobilityEvaluation", "RandomPlayer", "TimePolicy", "game_result", "house_agent",
    "make_arena", "referee_game", "replay_result", "student_contestant",
]
