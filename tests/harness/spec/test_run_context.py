"""The run context is made once at a command's door and passed down: the assignment is looked up
once per run, and the games folder travels in the context (through the sandbox to the game
runners), never through the environment."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from gg_testing import ROOT

from harness.records.games import GameResult, Reason
from harness.spec import find_assignment
from harness.spec.run import RunContext, as_run


def counted_lookups(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    looked_up: list[str] = []

    def find(name: str):  # type: ignore[no-untyped-def]
        looked_up.append(name)
        return find_assignment(name)
    monkeypatch.setattr("harness.spec.run.find_assignment", find)
    return looked_up


def test_the_assignment_is_looked_up_once_however_often_it_is_asked_for(monkeypatch):
    looked_up = counted_lookups(monkeypatch)
    run = RunContext("adversarial_search")
    assert run.assignment.name == run.name
    assert run.limits == run.assignment.limits and run.policy == run.assignment.policy
    assert run.assignment is run.assignment
    assert looked_up == ["adversarial_search"]
    assert as_run(run) is run and as_run("othello").name == "othello"


def test_the_gradescope_door_hands_one_context_down(monkeypatch, tmp_path: Path):
    """Gradescope's entry, the package check and the policy all read the one context."""
    import harness.policy.entry
    import harness.release.packages_install
    from harness.platforms import gradescope

    looked_up = counted_lookups(monkeypatch)
    monkeypatch.setattr(harness.release.packages_install, "missing", lambda requirements: False)
    seen: list[RunContext] = []

    def graded(run: RunContext, submission: Path, output: Path, options,  # type: ignore[no-untyped-def]
               metadata):
        seen.append(run)
        assert run.policy is not None and run.assignment.module
        return {"score": 1.0, "tests": []}
    monkeypatch.setattr(harness.policy.entry, "grade_under_policy", graded)
    assert gradescope.run(tmp_path, "adversarial_search") == 0
    assert [run.output for run in seen] == [tmp_path / "results" / "results.json"]
    assert looked_up == ["adversarial_search"]


def test_a_graded_game_is_kept_in_the_folder_it_is_given(tmp_path: Path):
    from harness.games.replays import keep_graded_game

    result = GameResult("you", "house:random", 3, 0, Reason.NO_MOVES, moves=((1, 2),))
    assert keep_graded_game(None, result, "case 1-game1", None) is None
    assert keep_graded_game(None, result, "case 1-game1", tmp_path / "kept") is None  # no page
    kept = json.loads((tmp_path / "kept" / "case_1-game1.json").read_text(encoding="utf-8"))
    assert kept["reason"] == "no_moves" and kept["moves"] == [[1, 2]]


def test_no_layer_passes_the_games_folder_through_the_environment():
    sources = [path.read_text(encoding="utf-8") for path in (ROOT / "harness").rglob("*.py")]
    assert not [text for text in sources if "GAMEGRADER_GAMES_DIR" in text]
