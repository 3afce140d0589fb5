"""The student-facing command line: othello_game.py with agents, a seed, --save and --replay."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest
from othello_support import SOLUTION, TEMPLATE_DIR

pytestmark = pytest.mark.slow


def run_cli(*args, cwd=TEMPLATE_DIR):
    return subprocess.run([sys.executable, "othello_game.py", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=60, check=True)


def test_two_seeded_randys_replay_the_same_saved_game(tmp_path):
    saved = []
    for name in ("one.json", "two.json"):
        result = run_cli("-d", "6", "-a", "randy_ai.py", "-b", "randy_ai.py", "--seed", "4",
                         "-q", "--save", str(tmp_path / name))
        record = json.loads((tmp_path / name).read_text())
        assert result.stdout.strip().endswith("has no legal move")
        assert record["names"] == ["Randy", "Randy"] and record["reason"] == "no-moves"
        saved.append(record["moves"])
    assert saved[0] == saved[1] and len(saved[0]) > 10

    replay = run_cli("--replay", str(tmp_path / "one.json")).stdout
    assert replay.count("plays") == len(saved[0])
    assert replay.rstrip().endswith(f"(score {record['score'][0]}-{record['score'][1]})")


def test_the_solution_agent_beats_randy_through_the_cli(tmp_path):
    # a student's folder: the manager and the starter files next to the agent
    for name in ("othello_game.py", "othello_shared.py", "randy_ai.py"):
        shutil.copy(TEMPLATE_DIR / name, tmp_path)
    shutil.copy(SOLUTION, tmp_path / "agent.py")
    result = run_cli("-d", "4", "-a", "randy_ai.py", "-b", "agent.py", "--seed", "1",
                     cwd=tmp_path)
    lines = result.stdout.strip().splitlines()
    assert lines[-1].startswith("light (Reference) wins")
    assert "   0  1  2  3" in lines  # the board is rendered while the game runs


def test_the_template_stub_forfeits_with_a_clear_reason():
    result = run_cli("-d", "4", "-a", "agent.py", "-b", "randy_ai.py", "-q")
    assert result.stdout.splitlines()[0] == (
        "light (Randy) wins, dark 2 - light 2: dark (Agent) forfeits after 0 moves: "
        "square (0, 0) captures no disk")
    assert "Running ALPHA-BETA" in result.stdout  # the forfeiter's stderr is shown


def test_a_player_command_that_cannot_start_is_reported():
    result = subprocess.run([sys.executable, "othello_game.py", "-d", "4", "-a", "randy_ai.py",
                             "-b", "no-such-othello-player --fast"], cwd=TEMPLATE_DIR,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "cannot start the light player 'no-such-othello-player --fast'" in result.stderr
