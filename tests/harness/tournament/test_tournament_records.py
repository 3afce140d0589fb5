"""Tournaments that resume and re-run incrementally: fingerprinted entrants, games recorded under
``--out`` as each ends, and only the games of changed, added or removed entrants played again."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tournament_fakes import CoinArena

from harness.records.games import Entrant, GameResult, GameTask
from harness.tournament.engine import run_elimination, run_round_robin
from harness.tournament.executors import DaskExecutor, LocalExecutor
from harness.tournament.fingerprints import fingerprinted
from harness.tournament.progress import Progress
from harness.tournament.store import RECORDS_DIR, GameStore

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
ARENA = ["--arena", "tournament_fakes:make_coin_arena"]


def tournament(folder: Path, out: Path, *extra: str) -> dict:
    from harness.tournament.cli import main

    assert main(["isolation", str(folder), *ARENA, "--quiet", "--out", str(out), *extra]) == 0
    return json.loads((out / "results.json").read_text())


def class_folder(tmp_path: Path, names: list[str]) -> Path:
    folder = tmp_path / "class"
    folder.mkdir(exist_ok=True)
    for name in names:
        (folder / f"{name}.py").write_text(f"NAME = {name!r}\n")
    return folder


@pytest.mark.slow
def test_a_rerun_plays_only_the_games_of_changed_added_or_removed_entrants(
        tmp_path: Path) -> None:
    folder, out = class_folder(tmp_path, ["ada", "bob", "cy", "dee"]), tmp_path / "out"
    first = tournament(folder, out)
    assert (first["played"], first["reused"]) == (12, 0)
    again = tournament(folder, out)
    assert (again["played"], again["reused"]) == (0, 12)
    assert again["standings"] == first["standings"] and again["games"] == first["games"]

    (folder / "bob.py").write_text("NAME = 'bob, resubmitted'\n")
    changed = tournament(folder, out)
    assert (changed["played"], changed["reused"]) == (6, 6)  # bob's three pairings, both sides
    replayed = [g for g in changed["games"] if g not in first["games"]]
    assert replayed and all("bob" in (g["first"], g["second"]) for g in replayed)

    (folder / "eve.py").write_text("NAME = 'eve'\n")
    added = tournament(folder, out)
    assert (added["played"], added["reused"]) == (8, 12)
    (folder / "eve.py").unlink()
    removed = tournament(folder, out)
    assert (removed["played"], removed["reused"]) == (0, 12)
    assert removed["standings"] == changed["standings"]

    fresh = tournament(folder, out, "--fresh")
    assert (fresh["played"], fresh["reused"]) == (12, 0)


@pytest.mark.slow
def test_a_change_of_settings_or_of_house_code_replays_what_it_touches(tmp_path: Path) -> None:
    house = tmp_path / "house"
    house.mkdir()
    (house / "bots.py").write_text("LEVEL = 1\n")
    arena = CoinArena(house_folder=str(house))
    field = [Entrant("ada", "a.py", "code-a"), Entrant("bob", "b.py", "code-b"),
             Entrant("randy", "house:random"), Entrant("greedy", "house:greedy")]
    store = GameStore(tmp_path / "out", arena)
    first = run_round_robin(arena, fingerprinted(field, arena), 3, LocalExecutor(1),
                            store=store)
    assert first.played == 12
    assert len({e.code for e in first.entrants}) == 4  # the two bots differ by name
    (house / "bots.py").write_text("LEVEL = 2\n")
    second = run_round_robin(arena, fingerprinted(field, arena), 3, LocalExecutor(1),
                             store=GameStore(tmp_path / "out", arena))
    assert second.played == 10  # every game with a house bot; ada v bob reused
    slower = CoinArena(pause=0.001, house_folder=str(house))
    third = run_round_robin(slower, fingerprinted(field, slower), 3, LocalExecutor(1),
                            store=GameStore(tmp_path / "out", slower))
    assert third.played == 12  # other settings: another game


class StopAfter(Progress):
    """Interrupts the run (as Ctrl-C would) once ``games`` games have finished."""

    def __init__(self, games: int) -> None:
        super().__init__(stream=open(os.devnull, "w"))
        self.games = games

    def __call__(self, task: GameTask, result: GameResult) -> None:
        super().__call__(task, result)
        if self.done >= self.games:
            raise KeyboardInterrupt


FIELD = [Entrant(name, f"{name}.py", f"code-{name}")
         for name in ("strong-ada", "bob", "cy", "dee", "weak-eve")]


def interrupted_then_resumed(executor_of, tmp_path: Path, stop_after: int):
    arena = CoinArena()
    whole = run_round_robin(arena, FIELD, 5, executor_of(), store=GameStore(tmp_path / "a",
                                                                            arena))
    with pytest.raises(KeyboardInterrupt):
        run_round_robin(arena, FIELD, 5, executor_of(), StopAfter(stop_after),
                        GameStore(tmp_path / "b", arena))
    kept = len(list((tmp_path / "b" / RECORDS_DIR).glob("*.json")))
    resumed = run_round_robin(arena, FIELD, 5, executor_of(), store=GameStore(tmp_path / "b",
                                                                              arena))
    return whole, kept, resumed


@pytest.mark.slow
def test_a_killed_round_robin_resumes_where_it_stopped_on_local_processes(
        tmp_path: Path) -> None:
    whole, kept, resumed = interrupted_then_resumed(lambda: LocalExecutor(2), tmp_path, 7)
    assert 7 <= kept < 20
    assert (resumed.reused, resumed.played) == (kept, 20 - kept)
    assert resumed.standings == whole.standings
    assert [r.outcome_key() for r in resumed.results] == [r.outcome_key() for r in whole.results]


@pytest.mark.slow
def test_a_killed_elimination_resumes_with_the_same_bracket(tmp_path: Path) -> None:
    arena = CoinArena()
    whole = run_elimination(arena, FIELD, 2, LocalExecutor(1))
    with pytest.raises(KeyboardInterrupt):
        run_elimination(arena, FIELD, 2, LocalExecutor(1), None, StopAfter(3),
                        GameStore(tmp_path, arena))
    resumed = run_elimination(arena, FIELD, 2, LocalExecutor(1), store=GameStore(tmp_path, arena))
    assert resumed.reused == 3 and resumed.played == len(whole.results) - 3
    assert resumed.standings == whole.standings


@pytest.mark.slow
def test_a_killed_round_robin_resumes_on_a_dask_cluster(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        whole, kept, resumed = interrupted_then_resumed(lambda: DaskExecutor(client), tmp_path,
                                                        6)
    assert 6 <= kept < 20
    assert (resumed.reused, resumed.played) == (kept, 20 - kept)
    assert resumed.standings == whole.standings


@pytest.mark.slow
def test_a_tournament_killed_by_a_signal_resumes_with_the_same_standings(
        tmp_path: Path) -> None:
    """The command itself killed with SIGKILL mid-run: the records it wrote are whole, and the
    run on the same --out finishes with the standings of an uninterrupted run."""
    folder = class_folder(tmp_path, ["strong-ada", "bob", "cy", "dee", "weak-eve"])
    out = tmp_path / "killed"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE), str(ROOT)]))
    command = [sys.executable, "-m", "harness", "tournament", "isolation", str(folder), *ARENA,
               "--set", "pause=0.3", "--workers", "1", "--quiet", "--out", str(out)]
    process = subprocess.Popen(command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
    records = out / RECORDS_DIR
    try:
        deadline = time.monotonic() + 120
        while len(list(records.glob("[!.]*.json"))) < 4 and process.poll() is None:
            assert time.monotonic() < deadline, "no records appeared"
            time.sleep(0.05)
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
    kept = len(list(records.glob("[!.]*.json")))
    assert 4 <= kept < 20 and not (out / "results.json").exists()
    resumed = tournament(folder, out, "--set", "pause=0.3")
    assert (resumed["reused"], resumed["played"]) == (kept, 20 - kept)
    whole = tournament(folder, tmp_path / "whole", "--set", "pause=0.3")
    assert resumed["standings"] == whole["standings"]
    assert (out / "standings.csv").read_text() == (tmp_path / "whole" / "standings.csv").read_text()
