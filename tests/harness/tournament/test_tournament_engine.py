"""The tournament engine: local processes, dask, faulty entrants, ratings and standings."""
from __future__ import annotations

import io
from collections import Counter
from dataclasses import dataclass, field

import pytest
from tournament_fakes import FaultyArena, InProcess

from harness.games.arenas import HouseArena
from harness.records.games import Entrant, GameResult, GameTask, Reason, aborted
from harness.tournament.engine import run_elimination, run_round_robin
from harness.tournament.executors import DaskExecutor, LocalExecutor
from harness.tournament.progress import Progress
from harness.tournament.ratings import rate
from harness.tournament.standings import CSV_COLUMNS, format_csv, leaderboard_entries
from reference.isolation.kit import IsolationKit

# deterministic bots only, so that two runs with the same seed are equal move for move
FIELD = [Entrant("rand-a", "house:random"), Entrant("greedy", "house:greedy"),
         Entrant("depth1", "house:depth1"), Entrant("depth2", "house:depth2"),
         Entrant("rand-b", "house:random")]
ARENA = HouseArena(IsolationKit(seconds=30.0), open_sandbox=None)


@pytest.mark.slow  # starts processes
def test_round_robin_on_local_processes_gives_standings_and_progress() -> None:
    stream = io.StringIO()
    result = run_round_robin(ARENA, FIELD, 7, LocalExecutor(2), Progress(stream))
    assert len(result.results) == 20
    assert all(r.reason is Reason.NO_MOVES for r in result.results)
    assert sum(s.wins for s in result.standings) == 20
    assert [s.score for s in result.standings] == sorted(
        (s.score for s in result.standings), reverse=True)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 20 and lines[-1].startswith("[20/20 ")
    csv_lines = format_csv(result.standings).splitlines()
    assert csv_lines[0].split(",") == list(CSV_COLUMNS) and len(csv_lines) == 6
    again = run_round_robin(ARENA, FIELD, 7, LocalExecutor(1))
    assert [r.outcome_key() for r in again.results] == [r.outcome_key() for r in result.results]


@pytest.mark.slow  # starts processes
def test_faulty_entrants_never_stall_the_tournament() -> None:
    entrants = [Entrant("ok", "house:greedy"), Entrant("crasher", "fault:crash"),
                Entrant("hanger", "fault:hang"), Entrant("buggy", "fault:raise")]
    stream = io.StringIO()
    result = run_round_robin(FaultyArena(), entrants, 1, LocalExecutor(2), Progress(stream))
    by_pair = {(r.first, r.second): r for r in result.results}
    # every game has a faulty side
    assert all(r.reason == Reason.ABORTED for r in result.results)
    assert "worker died" in by_pair[("ok", "crasher")].detail
    assert "overran its 1 s deadline" in by_pair[("ok", "hanger")].detail
    assert "arena error: RuntimeError: arena bug" in by_pair[("ok", "buggy")].detail
    assert stream.getvalue().count("ABORTED") == 24  # each played once more
    assert all(s.games == 0 and s.aborted == 6 for s in result.standings)


@pytest.mark.slow  # starts processes
def test_elimination_awards_the_handout_points_with_byes() -> None:
    result = run_elimination(ARENA, FIELD, 3, LocalExecutor(2))
    points = sorted((float(s.points), s.round_reached) for s in result.standings)
    # 5 entrants: 8-slot bracket, 3 rounds, 3 first-round byes, so 1 out in round 1
    assert [r for _, r in points] == [1, 2, 2, 3, 4]
    assert points[-1][0] == 20.0 and points[0][0] == pytest.approx(50 / 9)
    champion = result.standings[0]
    assert champion.round_reached == 4 and champion.wins >= 3


@pytest.mark.slow  # starts processes
def test_elimination_follows_the_given_seeding() -> None:
    seeding = list(reversed(FIELD))
    result = run_elimination(ARENA, FIELD, 3, LocalExecutor(1), seeding=seeding)
    first_round = [r for r in result.results if r.first in ("greedy", "rand-a")
                   and r.second in ("greedy", "rand-a")]
    assert first_round, "seeds 4 and 5 (greedy, rand-a) meet in round 1"
    with pytest.raises(ValueError, match="every entrant"):
        run_elimination(ARENA, FIELD, 3, LocalExecutor(1), seeding=FIELD[:3])


@pytest.mark.slow  # starts processes
def test_dask_local_cluster_gives_the_local_results() -> None:
    distributed = pytest.importorskip("distributed")
    local = run_round_robin(ARENA, FIELD[:4], 11, LocalExecutor(2))
    local_cup = run_elimination(ARENA, FIELD[:4], 11, LocalExecutor(2))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        remote = run_round_robin(ARENA, FIELD[:4], 11, DaskExecutor(client))
        remote_cup = run_elimination(ARENA, FIELD[:4], 11, DaskExecutor(client))
    assert [r.outcome_key() for r in remote.results] == [r.outcome_key() for r in local.results]
    assert remote.standings == local.standings
    assert remote_cup.standings == local_cup.standings


def test_ratings_follow_results_and_skip_aborted_games() -> None:
    names = ["a", "b"]
    wins = [GameResult("a", "b", 0, 0, Reason.NO_MOVES),
            GameResult("b", "a", 1, 1, Reason.NO_MOVES)]
    ratings = rate(names, wins + [GameResult("a", "b", 2, None, Reason.ABORTED)])
    assert ratings["a"].mu > 25 > ratings["b"].mu
    assert ratings["a"].sigma < 25 / 3
    assert rate(names, wins) == ratings


@pytest.mark.slow  # starts processes
def test_leaderboard_entries_use_documented_keys_only() -> None:
    result = run_round_robin(ARENA, FIELD[:2], 0, LocalExecutor(1))
    entries = leaderboard_entries(result.standings[0])
    assert all(set(e) == {"name", "value", "order"} for e in entries)
    assert all(isinstance(e["value"], float) for e in entries)


@dataclass
class HiccupArena:
    """Every game's first attempt is aborted (the host's hiccup); the second is played."""

    tries: Counter[int] = field(default_factory=Counter)
    game_timeout: float = 30.0

    def play(self, task: GameTask) -> GameResult:
        self.tries[task.index] += 1
        if self.tries[task.index] == 1:
            return aborted(task, "game worker died")
        return GameResult(task.first.name, task.second.name, task.seed, 0, Reason.NO_MOVES)


def test_a_round_robin_plays_an_aborted_game_again() -> None:
    arena = HiccupArena()
    field_ = [Entrant("a", "house:random"), Entrant("b", "house:greedy")]
    result = run_round_robin(arena, field_, 1, InProcess())
    assert [r.reason for r in result.results] == [Reason.NO_MOVES, Reason.NO_MOVES]
    assert set(arena.tries.values()) == {2}
    assert all(s.aborted == 0 and s.games == 2 for s in result.standings)
