"""``gamegrader tournament`` through the real command line: help, errors, and small tournaments
of each game with the defaults the docs state."""
from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest
from gg_testing import ROOT, run_gamegrader

pytestmark = pytest.mark.slow

ISOLATION_PLAYER = ROOT / "assignments" / "isolation" / "solution" / "player.py"
OTHELLO_AGENT = ROOT / "assignments" / "othello" / "solution" / "agent.py"


def standings(folder: Path) -> dict[str, dict[str, str]]:
    with (folder / "standings.csv").open(newline="") as handle:
        return {row["name"]: row for row in csv.DictReader(handle)}


def test_help_shows_the_tournaments_own_options() -> None:
    done = run_gamegrader("tournament", "--help")
    assert done.returncode == 0
    for option in ("--format", "--clock", "--set", "--seeding", "--scheduler", "entrants"):
        assert option in done.stdout
    assert "-- --help" not in done.stdout


def test_an_unknown_house_bot_is_a_usage_error_naming_the_known_bots(tmp_path: Path) -> None:
    done = run_gamegrader("tournament", "othello", "house:random", "house:nosuch",
                          "--out", str(tmp_path))
    assert done.returncode == 2
    assert "unknown house bot 'nosuch'; known: random, reference" in done.stderr
    assert not (tmp_path / "results.json").exists()
    done = run_gamegrader("tournament", "isolation", "house:nosuch", "house:random",
                          "--out", str(tmp_path))
    assert done.returncode == 2 and "known: random, greedy, reference" in done.stderr


def test_a_small_isolation_tournament(tmp_path: Path) -> None:
    done = run_gamegrader("tournament", "isolation", f"solution={ISOLATION_PLAYER}",
                          "house:random", "--clock", "2", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "settings: isolation: 8x8; 2 s per player per game" in done.stderr
    games = json.loads((tmp_path / "results.json").read_text())["games"]
    assert len(games) == 2 and all(g["reason"] != "aborted" for g in games)
    assert standings(tmp_path)["solution"]["wins"] == "2"


def test_a_small_othello_tournament_with_the_default_depth_limit(tmp_path: Path) -> None:
    done = run_gamegrader("tournament", "othello", f"agent={OTHELLO_AGENT}", "house:random",
                          "--set", "size=6", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "settings: othello: 6x6, alpha-beta, depth limit 4; 10 s per move" in done.stderr
    games = json.loads((tmp_path / "results.json").read_text())["games"]
    assert len(games) == 2
    assert all(g["reason"] == "no_moves" and g["moves"] for g in games)
    assert all(g["game"]["limit"] == 4 for g in games)
    assert standings(tmp_path)["agent"]["forfeits"] == ""
    # The report gives each game's disc count: 4 discs at the start, one more per move.
    report = (tmp_path / "report.html").read_text(encoding="utf-8")
    counts = [(int(d), int(light)) for d, light in
              re.findall(r"<td[^>]*>dark (\d+), light (\d+)</td>", report)]
    assert [d + light for d, light in counts] == [4 + len(g["moves"]) for g in games]
    assert ">mu<" not in report and ">sigma<" not in report and ">rating (likely range)<" in report


def test_a_timeout_on_the_first_move_shows_in_the_standings(tmp_path: Path) -> None:
    # no depth limit on 8x8 with half a second a move: the handout agent cannot answer its first
    # move
    done = run_gamegrader("tournament", "othello", f"agent={OTHELLO_AGENT}", "house:random",
                          "--set", "limit=-1", "--clock", "0.5", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    row = standings(tmp_path)["agent"]
    assert row["forfeits"] == "timeout:2" and row["first_move_timeouts"] == "2"
    assert "agent forfeited: timeout on its first move" in done.stderr
