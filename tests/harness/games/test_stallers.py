"""A game an entrant keeps from being played is its loss, at every isolation level that runs
student code as a user of its own: waiting its CPU time does not explain (sleeping) loses the
game on time instead of running the staff ladder's time out or a tournament game past its
deadline ("aborted", which counted for nobody), and work done at import time is charged to
the clock. (Measured before: a sleeper's ladder rating rose from 943 to 1094 as the games it
stalled were left out; a tournament sleeper had every game aborted; a player computing 2.5 s
at import under a 1 s clock was charged at most 0.01 s.)"""
from __future__ import annotations

import csv
import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from gg_testing import ROOT, dedicated_user_levels, run_gamegrader

from harness import Sandbox
from harness.games.ladder import climb, rate, rungs_of
from harness.sandbox.levels import FORCE_ENV, detect
from harness.spec import find_assignment
from harness.spec.ladder import ladder_case

pytestmark = pytest.mark.slow  # plays games in the sandbox

REFERENCE = (ROOT / "assignments" / "isolation" / "solution" / "player.py").read_text()
LEVELS = dedicated_user_levels()


def player(sleep: str, setup: str = "", spin: float = 0.0) -> str:
    """The reference player, sleeping as ``sleep`` says before each move (``moves`` counts its
    moves in this game's process), then computing for ``spin`` seconds of CPU time, and
    running ``setup`` at import."""
    future = "from __future__ import annotations\n"
    source = REFERENCE.replace(future, future + setup, 1)
    source = source.replace("def choose_move(", "def _reference_move(", 1)
    return source + f"""

moves = 0


def choose_move(board, player, time_left):
    global moves
    moves += 1
    time.sleep({sleep})
    spun = time.process_time() + {spin}
    while time.process_time() < spun:
        pass
    return _reference_move(board, player, time_left - {spin})
"""


def isolation_at(level: Any) -> Any:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(FORCE_ENV, level.name)
        return detect.__wrapped__()


def climb_two_rungs(source: str, tmp_path: Path, level: Any, seconds: float,
                    rungs: int = 2) -> Any:
    """The Isolation ladder's first two rungs (random, greedy; 2 games each; or its first
    ``rungs``) on ``source``, with ``seconds`` for the case."""
    case = ladder_case(find_assignment("isolation"), 1)
    options = dict(case.options)
    options["rungs"] = options["rungs"][:rungs]
    case = dataclasses.replace(case, options=options, timeout=seconds)
    path = tmp_path / "player.py"
    path.write_text(source)
    with Sandbox("player", {"player.py": path}, isolation=isolation_at(level)) as sandbox:
        return case, climb(case, sandbox, factor=lambda: 1.0)


@pytest.mark.parametrize("level", LEVELS, ids=lambda level: level.name)
def test_a_sleeper_loses_its_ladder_games_and_is_rated_as_losing_them(
        tmp_path: Path, level: Any) -> None:
    # 1.2 s of sleep a move, each within its 7 s backstop: before, a game took half a minute
    # and the ladder's time ran out with most games left out of the rating
    case, judged = climb_two_rungs(player("1.2"), tmp_path, level, 120.0)
    rungs = rungs_of(dict(case.options))
    for rung in rungs:
        assert f"{rung.bot} (rating {rung.rating:g}, worth 0): won 0, drew 0, lost 2 of 2" \
            in judged.message, judged.message
    losing = rate([(rung.rating, 0.0, 2) for rung in rungs])
    assert f"Your ladder rating: {losing.value:.0f} " in judged.message
    board = {entry["name"]: entry["value"] for entry in judged.leaderboard}
    assert board["Ladder rating"] == round(losing.value)


@pytest.mark.parametrize("level", LEVELS, ids=lambda level: level.name)
def test_ladder_games_a_sleeper_kept_from_being_played_are_its_losses(
        tmp_path: Path, level: Any) -> None:
    # 4 s of sleep on its first move, within that move's 7 s backstop: before, the game was
    # played out, the case's time (0.1 s: one game, on any load) ran out, and the other three
    # games were left out of the rating
    case, judged = climb_two_rungs(player("4.0 if moves == 1 else 0"), tmp_path, level, 0.1)
    lines = judged.message.splitlines()
    for bot, unplayed in (("random", 1), ("greedy", 2)):
        line = next(line for line in lines if line.startswith(bot))
        assert "won 0, drew 0, lost 2 of 2" in line, judged.message
        assert f"{unplayed} games not played and counted as lost" in line, judged.message
        assert "your program kept its games waiting" in line
    rungs = rungs_of(dict(case.options))
    losing = rate([(rung.rating, 0.0, 2) for rung in rungs])
    assert f"Your ladder rating: {losing.value:.0f} " in judged.message


BURNERS = 14
"""CPU-burning processes beside the honest player on its CPU: it gets a fifteenth of the CPU
as it computes, so its wall time is about fifteen times its CPU time, three times what CPU
time alone explains."""


@pytest.mark.skipif(not os.path.exists(f"/proc/{os.getpid()}/schedstat"),
                    reason="a kernel without schedstats")
def test_an_honest_player_on_a_cpu_others_hold_is_not_charged_for_the_wait(
        tmp_path: Path) -> None:
    # the reference, computing 0.05 s more each move (most of its 1 s clock over a game);
    # pinned (with the referee, whose CPU its processes inherit) beside the spinners on one
    # CPU. Before, the wait beyond five times its CPU time was its own: it lost on time, and
    # the case's time (0.1 s: one game, on any load) left the other game counted as lost.
    cpu, allowed = min(os.sched_getaffinity(0)), os.sched_getaffinity(0)
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"],
                                preexec_fn=lambda: os.sched_setaffinity(0, {cpu}),
                                start_new_session=True)  # each its own autogroup, as the
               for _ in range(BURNERS)]                  # sandboxed player's session is
    os.sched_setaffinity(0, {cpu})
    try:
        _, judged = climb_two_rungs(player("0", spin=0.05), tmp_path, LEVELS[0], 0.1, rungs=1)
    finally:
        os.sched_setaffinity(0, allowed)
        for burner in burners:
            burner.kill()
            burner.wait()
    line = next(line for line in judged.message.splitlines() if line.startswith("random"))
    assert "won 1, drew 0, lost 0 of 2" in line, judged.message
    assert "kept" not in judged.message and "counted as lost" not in line, judged.message


def standings(folder: Path) -> dict[str, dict[str, str]]:
    with (folder / "standings.csv").open(newline="") as handle:
        return {row["name"]: row for row in csv.DictReader(handle)}


@pytest.mark.parametrize("level", LEVELS, ids=lambda level: level.name)
def test_a_tournament_sleeper_loses_on_time_and_import_time_work_is_on_the_clock(
        tmp_path: Path, level: Any) -> None:
    sleeper, importer = tmp_path / "sleeper.py", tmp_path / "importer.py"
    napper = tmp_path / "napper.py"
    sleeper.write_text(player("1.2"))
    importer.write_text(player("0", "import time as _t\n_s = _t.process_time()\n"
                                    "while _t.process_time() - _s < 1.8:\n    pass\n"))
    napper.write_text(player("0", "import time as _t\n_t.sleep(5)\n"))  # sleeps at import
    out = tmp_path / "out"
    # slack 3: a game's deadline is both 1 s clocks at their 7 s backstops and 3 s, which the
    # sleeper's games overran (every one "aborted") before
    done = run_gamegrader("tournament", "isolation", f"sleeper={sleeper}",
                          f"importer={importer}", f"napper={napper}", "house:random",
                          "--clock", "1", "--set", "slack=3", "--out", str(out),
                          env={FORCE_ENV: level.name})
    assert done.returncode == 0, done.stderr
    rows = standings(out)
    assert [rows[name]["aborted"] for name in rows] == ["0"] * 4
    assert (rows["sleeper"]["wins"], rows["sleeper"]["losses"],
            rows["sleeper"]["forfeits"]) == ("4", "2", "timeout:2")
    # the napper's 5 s asleep at import is waiting before its first move (2 s of it free, for a
    # cold start): lost in its greeting
    assert (rows["napper"]["losses"], rows["napper"]["forfeits"]) == ("6", "timeout:6")
    # the importer loses every game on time before or on its first move: its set-up is
    # charged to its clock before the game
    assert (rows["importer"]["wins"], rows["importer"]["losses"], rows["importer"]["forfeits"],
            rows["importer"]["first_move_timeouts"]) == ("2", "4", "timeout:4", "4")
    assert rows["random"]["wins"] == "6"
    games = json.loads((out / "results.json").read_text())["games"]
    for game in games:
        names = (game["first"], game["second"])
        if "napper" in names:
            side = names.index("napper")
            assert game["forfeiter"] == side, game
            assert game["detail"].startswith("handshake: it kept the game waiting"), game
        elif "importer" in names:
            side = names.index("importer")
            assert (game["forfeiter"], game["reason"]) == (side, "timeout"), game
            # its import's CPU time is read before the game (1.8 s; a host loaded past five
            # times may have run only part of it by the server's 10 s wait for the import,
            # the rest then ran out its first move's clock)
            assert game["setup"][side] >= 1.0 or "its clock ran out" in game["detail"], (
                game["setup"], game["detail"])
        elif game["forfeiter"] is not None:
            assert names[game["forfeiter"]] == "sleeper"
            assert "kept the game waiting" in game["detail"]
