"""Game-agnostic tournaments: a clocked match loop, schedules, executors, ratings and standings.

A game takes part through a small ``Arena`` (``records.Arena``): ``play(task) -> GameResult``
plus a per-game deadline. Nothing in this package names a game; ``cli.main`` finds a game's
arena by the convention ``reference.<game>.arena:make_arena``.
"""
from __future__ import annotations

from reference.tournament.engine import Format, TournamentResult, run_elimination, run_round_robin
from reference.tournament.executors import DaskExecutor, LocalExecutor, make_executor
from reference.tournament.match import (
    Contestant, GameRecord, Outcome, Ply, Reply, Termination, play_game, replay,
)
from reference.tournament.points import PointsTable, points_table
from reference.tournament.progress import Progress
from reference.tournament.ratings import Rating, rate
from reference.tournament.records import ABORTED, Arena, Entrant, GameResult, GameTask
from reference.tournament.seats import InProcess, Served
from reference.tournament.standings import Standing, format_csv, leaderboard_entries, tally

__all__ = [
    "ABORTED", "Arena", "Contestant", "DaskExecutor", "Entrant", "Format", "GameRecord",
    "GameResult", "GameTask", "InProcess", "LocalExecutor", "Outcome", "Ply", "PointsTable",
    "Progress", "Rating", "Reply", "Served", "Standing", "Termination", "TournamentResult",
    "format_csv", "leaderboard_entries", "make_executor", "play_game", "points_table", "rate",
    "replay", "run_elimination", "run_round_robin", "tally",
]
