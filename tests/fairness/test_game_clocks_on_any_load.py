"""Issue 42: the same grade on any load, for games. The connect-four fixture's reference is
graded alone and beside two CPU-burning processes and must get the same score in every game
case and the same results on every rung of the staff ladder.

Game clocks count the CPU time the student's processes use (``harness.games.cpu_clock``), which
the burners do not change; its wall time they triple. For the load to bite, the fixture's clocks
are cut from 5 s to ``CLOCK`` (the reference uses at most about 0.2 s of CPU time in a game, so
alone it keeps a wide margin) and both gradings run on one CPU with the burners, the
burners in sessions of their own (``test_same_grade_on_any_load`` says why). Charged by the
wall clock, the loaded reference lost ladder and case games on time and this test failed.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from test_same_grade_on_any_load import burners, on_one_cpu

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "connect_four"
CLOCK = 0.5
"""Seconds per player per game in every game case and on the ladder (the fixture has 5)."""


def tight_fixture(folder: Path) -> Path:
    """A copy of the fixture with ``CLOCK`` on every game clock."""
    copy = folder / "connect_four"
    shutil.copytree(FIXTURE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    for path in (copy / "assignments" / "connect_four").rglob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        path.write_text(re.sub(r"clock: 5\.0", f"clock: {CLOCK}", text), encoding="utf-8")
    return copy


def grade(fixture: Path, out: Path) -> dict:
    """The reference's results.json, graded by the command line (the host's speed pinned, so
    that both gradings get the same clocks)."""
    env = {**os.environ, "GAMEGRADER_ROOT": str(fixture), "GAMEGRADER_HOST_SPEED": "1",
           "PYTHONPATH": os.pathsep.join(p for p in (str(fixture), str(ROOT),
                                                     os.environ.get("PYTHONPATH")) if p)}
    out.mkdir(parents=True)
    done = subprocess.run(
        [sys.executable, "-m", "harness", "grade", "--assignment", "connect_four",
         "--submission", str(fixture / "assignments" / "connect_four" / "solution" / "player.py"),
         "--output", str(out / "results.json")],
        cwd=ROOT, env=env, text=True, capture_output=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads((out / "results.json").read_text(encoding="utf-8"))


def games_of(document: dict) -> list[tuple[str, float, list[str]]]:
    """Each case's name, score and its lines of games won and lost (no clock readings)."""
    return [(test["name"], test["score"],
             [line for line in test["output"].splitlines()
              if line.startswith(("Won ", "Lost ", "random ", "greedy ", "minimax "))])
            for test in document["tests"]]


def test_the_game_reference_scores_the_same_alone_and_beside_busy_processes(
        tmp_path: Path) -> None:
    fixture = tight_fixture(tmp_path)
    cpu = max(os.sched_getaffinity(0))
    with on_one_cpu(cpu):
        alone = grade(fixture, tmp_path / "alone")
        busy = burners(2, cpu)
        try:
            loaded = grade(fixture, tmp_path / "loaded")
        finally:
            for process in busy:
                process.kill()
                process.wait()
    assert games_of(loaded) == games_of(alone), (
        f"scores alone {alone['score']}, loaded {loaded['score']}; the top of the loaded "
        f"results: {loaded.get('output', '')[:2000]!r}")
    # Not vacuous: alone, the reference earns every point (10 in cases, 5 on the ladder) at
    # the tight clocks, and the clock it was charged is CPU time.
    assert alone["score"] == loaded["score"] == 15
    ladder = next(test for test in alone["tests"] if test["name"].startswith("ladder: "))
    assert f"{CLOCK:g} s per player per game" in ladder["output"]
    assert "counted in CPU time" in ladder["output"]
