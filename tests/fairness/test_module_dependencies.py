"""Class 9 of issue 18: independent parts are graded independently. A case depends only on the
student module it runs against (its ``module:``, else the main one): a missing or broken main file
blocks the main module's cases only, and the results say which module blocked which cases.

Generic harness behaviour, so the assignment here is a small one made for the test (two student
modules, ``game.py`` the main one and ``helper.py``), in a GAMEGRADER_ROOT of its own.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from gg_testing import run_gamegrader, scores_by_group

pytestmark = pytest.mark.slow

ASSIGNMENT = """\
name: twoparts
title: "Two independent parts"
module: game
submission_files: [game.py, helper.py]
api:
  - play(n)
limits: {memory_mb: 512}
budget_seconds: 120
total_points: 4
"""
GAME_CASES = """\
group: game
defaults: {points: 1, visibility: visible, timeout: 10}
cases:
  - name: play doubles
    doctest: |
      >>> play(2)
      4
  - name: play of zero
    doctest: |
      >>> play(0)
      0
"""
HELPER_CASES = """\
group: helper
defaults: {points: 1, visibility: visible, timeout: 10, module: helper}
cases:
  - name: add
    doctest: |
      >>> add(2, 3)
      5
  - name: add negatives
    doctest: |
      >>> add(-2, -3)
      -5
"""
GAME = "def play(n):\n    return 2 * n\n"
HELPER = "def add(a, b):\n    print('adding', a, b)\n    return a + b\n"
BROKEN_GAMES = {
    "game.py missing": None,
    "game.py has a syntax error": "def play(n)\n    return 2 * n\n",
    "game.py raises when imported": "import a_module_nobody_has\n" + GAME,
}


def make_root(folder: Path) -> dict[str, str]:
    specs = folder / "assignments" / "twoparts"
    (specs / "cases").mkdir(parents=True)
    (specs / "generated").mkdir()
    (specs / "assignment.yaml").write_text(ASSIGNMENT)
    (specs / "cases" / "01_game.yaml").write_text(GAME_CASES)
    (specs / "cases" / "02_helper.yaml").write_text(HELPER_CASES)
    (folder / "assignments" / "twoparts" / "template").mkdir(parents=True)
    return {"GAMEGRADER_ROOT": str(folder)}


def grade_folder(tmp_path: Path, game: str | None) -> dict[str, Any]:
    submission = tmp_path / "submission"
    submission.mkdir()
    (submission / "helper.py").write_text(HELPER)
    if game is not None:
        (submission / "game.py").write_text(game)
    output = tmp_path / "results.json"
    done = run_gamegrader("grade", "--assignment", "twoparts", "--submission", str(submission),
                          "--output", str(output), "--quiet", env=make_root(tmp_path / "root"))
    assert done.returncode == 0, done.stderr[-3000:]
    document: dict[str, Any] = json.loads(output.read_text())
    return document


def test_both_parts_right_earn_everything(tmp_path: Path) -> None:
    document = grade_folder(tmp_path, GAME)
    assert scores_by_group(document) == {"game": 2, "helper": 2}


@pytest.mark.parametrize("name", sorted(BROKEN_GAMES))
def test_a_broken_main_module_blocks_only_its_own_cases(name: str, tmp_path: Path) -> None:
    document = grade_folder(tmp_path, BROKEN_GAMES[name])
    assert scores_by_group(document) == {"game": 0, "helper": 2}
    game = [t for t in document["tests"] if t["name"].startswith("game")]
    assert all("\nnot run (see above: game.py)" in t["output"] for t in game), game
    assert "game.py blocked 2 cases (groups: game)" in document["output"]
