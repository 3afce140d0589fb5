"""Game-agnostic tournaments: schedules, executors, ratings and standings over any arena.

A game takes part through a small ``Arena`` (``harness.records.games.Arena``):
``play(task) -> GameResult`` plus a per-game deadline; its games are played by the one match
loop (``harness.games``). Nothing in this package names a game; the ``tournament`` command
finds a game's arena through the ``arena`` key of its ``assignment.yaml``.
"""
from __future__ import annotations

from harness.tournament.engine import Format, TournamentResult, run_elimination, run_round_robin
from harness.tournament.executors import DaskExecutor, LocalExecutor, make_executor
from harness.tournament.points import PointsTable, points_table
from harness.tournament.progress import Progress
from harness.tournament.ratings import Rating, rate
from harness.tournament.standings import Standing, format_csv, leaderboard_entries, tally

__all__ = [
    "DaskExecutor", "Format",
    "LocalExecutor", "PointsTable", "Progress", "Rating", "Standing", "TournamentResult",
    "format_csv", "leaderboard_entries", "make_executor", "points_table", "rate",
    "run_elimination", "run_round_robin", "tally",
]
