"""A third game with no edit in harness/: connect four, kept as a fixture in
tests/fixtures/connect_four/ (one folder, assignments/connect_four/: its rules, house bots and
kit, its specs, template, reference solution and mutants), graded, played in a tournament and
replayed through the real command line, the fixture named by GAMEGRADER_ROOT."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from gg_testing import run_gamegrader

ROOT = Path(__file__).resolve().parents[3]
FIXTURE = ROOT / "tests" / "fixtures" / "connect_four"
ENV = {"GAMEGRADER_ROOT": str(FIXTURE),
       "PYTHONPATH": os.pathsep.join(p for p in (str(FIXTURE), os.environ.get("PYTHONPATH"))
                                     if p)}


def _grade(submission: Path, out: Path) -> dict:
    done = run_gamegrader("grade", "--assignment", "connect_four", "--submission",
                          str(submission), "--output", str(out / "results.json"),
                          "--games", str(out / "games"), env=ENV)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads((out / "results.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[dict, Path]]:
    """The solution and the starter, each graded once with its replay pages (a grading with
    ``--games`` is not one of the kept ones): results.json and the folder, by name. The
    solution's grading plays every ladder game (about 4 core-seconds)."""
    base = tmp_path_factory.mktemp("third-game")
    submissions = {"solution": FIXTURE / "assignments" / "connect_four" / "solution",
                   "starter": FIXTURE / "assignments" / "connect_four" / "template"}
    return {name: (_grade(folder / "player.py", base / name), base / name)
            for name, folder in submissions.items()}


@pytest.mark.slow  # starts processes (gamegrader)
@pytest.mark.xdist_group("third_game")  # one worker makes the module fixture
def test_the_solution_earns_every_point_and_the_starter_loses_to_the_greedy_bot(
        graded: dict[str, tuple[dict, Path]]) -> None:
    solution = graded["solution"][0]
    assert solution["score"] == 15  # 10 in the case file, 5 on the staff ladder
    starter, starter_folder = graded["starter"]
    tests = {test["name"]: test for test in starter["tests"]}
    greedy = next(test for name, test in tests.items() if "greedy player" in name)
    assert greedy["score"] < greedy["max_score"]
    assert "Lost game" in greedy["output"] and "you played" in greedy["output"]
    pages = sorted((starter_folder / "games").glob("*.html"))
    assert len(pages) == 24  # 2 + 6 + 4 games, 12 on the ladder, each with its replay page
    assert "connect four" in pages[0].read_text(encoding="utf-8")


@pytest.mark.slow  # starts processes (gamegrader)
@pytest.mark.xdist_group("third_game")  # one worker makes the module fixture
def test_the_staff_ladder_grades_rates_and_fills_the_leaderboard(
        graded: dict[str, tuple[dict, Path]]) -> None:
    solution, starter = graded["solution"][0], graded["starter"][0]
    ladders = [next(t for t in document["tests"] if t["name"].startswith("ladder: "))
               for document in (solution, starter)]
    assert ladders[0]["score"] == ladders[0]["max_score"] == 5
    assert ladders[1]["score"] < 5 and ladders[0]["visibility"] == "after_due_date"
    assert "minimax (rating 1400, worth 2)" in ladders[0]["output"]
    assert "replays: ladder-random-game1.html" in ladders[0]["output"]
    boards = [{entry["name"]: entry for entry in document["leaderboard"]}
              for document in (solution, starter)]
    assert list(boards[0]) == ["Ladder rating", "Rating 95% interval", "Win rate v random",
                               "Win rate v greedy", "Win rate v minimax"]
    assert boards[0]["Ladder rating"]["value"] > boards[1]["Ladder rating"]["value"]
    assert boards[0]["Win rate v random"]["value"] == 1.0
    low, _, high = boards[0]["Rating 95% interval"]["value"].partition(" to ")
    assert float(low) < boards[0]["Ladder rating"]["value"] < float(high)


@pytest.mark.slow  # starts processes (gamegrader)
def test_the_third_game_plays_a_tournament_and_its_records_replay(tmp_path: Path) -> None:
    out = tmp_path / "cup"
    done = run_gamegrader("tournament", "connect_four", "house:random", "house:greedy",
                          "house:minimax", "--clock", "5", "--seed", "3", "--out", str(out),
                          "--workers", "1", env=ENV)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "connect four: 6x5" in done.stdout + done.stderr
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert results["standings"][0]["name"] == "minimax"
    assert results["standings"][-1]["name"] == "random"
    page = tmp_path / "again.html"
    done = run_gamegrader("replay", str(out / "games" / "0001.json"), "--out", str(page),
                          env=ENV)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "drops in column" in page.read_text(encoding="utf-8")


def test_the_harness_names_no_third_game() -> None:
    named = [path for path in (ROOT / "harness").rglob("*.py")
             if "connect_four" in path.read_text(encoding="utf-8").lower()
             or "connect four" in path.read_text(encoding="utf-8").lower()]
    assert named == []
