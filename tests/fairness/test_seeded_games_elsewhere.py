"""Issue 51, item 4: seeded visible games are played after the due date with other seeds as
well, so a list of moves recorded from the visible games (the opponent's seeded replies are the
same every run) wins nothing there. Each visible case that plays seeded games against a house
bot to win them (``options.games``: ``{color, seed}``, or ``options.seed`` from which each
game's seed derives) has a hidden twin: the same runner and settings, the same points, and seeds
the visible games never use. A case scored on clean play alone (``score: clean``: no timeout or
illegal answer, whoever wins) has none: any legal move list earns it. A replayer of the moves
recorded from Isolation's visible games wins them all again, and nothing more in the twins than
its fallback (the first legal move) wins alone.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest
import yaml
from gg_testing import FINISHED_GRADING, ROOT, run_gamegrader, seeded, twins_by_case

from harness.records.spec import Case, Visibility
from harness.spec import find_assignment
from harness.spec.assignments import list_assignments
from harness.spec.loader import load_all_cases

SEEDED = [name for name in list_assignments()
          if any(seeded(case) for case in load_all_cases(find_assignment(name)))]


def test_some_assignment_plays_seeded_games() -> None:
    assert {"othello", "othello_colour", "isolation"} <= set(SEEDED)


@pytest.mark.parametrize("name", SEEDED)
def test_every_seeded_visible_game_case_is_played_again_with_other_seeds(name: str) -> None:
    for case, twins in twins_by_case(load_all_cases(find_assignment(name))).items():
        assert twins, f"{name}: {case!r} has no hidden twin with other seeds"


PLAYERS = ROOT / "tests" / "fixtures" / "isolation_players"


def isolation_seeded_cases() -> list[Case]:
    """Isolation's seeded game cases that carry points (the staff ladder carries none)."""
    return [case for case in load_all_cases(find_assignment("isolation"))
            if seeded(case) and case.points > 0]


def games_root(folder: Path, keep: Callable[[Case], bool]) -> dict[str, str]:
    """The environment of a root holding Isolation's game cases that ``keep`` keeps."""
    from harness.release.validate import subset_root

    root = subset_root(find_assignment("isolation"), ("02_games",), folder)
    cases_file = root / "assignments" / "isolation" / "cases" / "02_games.yaml"
    data = yaml.safe_load(cases_file.read_text(encoding="utf-8"))
    kept = {case.name for case in isolation_seeded_cases() if keep(case)}
    data["cases"] = [case for case in data["cases"] if case["name"] in kept]
    cases_file.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return {"GAMEGRADER_ROOT": str(root)}


def graded(folder: Path, player: str, env: dict[str, str], *extra: str) -> dict[str, float]:
    """Each case's score when ``player`` (a file's text) is graded as player.py in ``folder``."""
    submission = folder / "player.py"
    submission.parent.mkdir(parents=True)
    submission.write_text(player, encoding="utf-8")
    done = run_gamegrader("grade", "--assignment", "isolation", "--submission", str(submission),
                          "--output", str(folder / "results.json"), *extra, "--quiet", env=env)
    assert done.returncode in FINISHED_GRADING, done.stderr[-3000:]
    tests = json.loads((folder / "results.json").read_text(encoding="utf-8"))["tests"]
    return {t["name"].split(": ", 1)[1]: float(t["score"]) for t in tests}


def recorded_moves(games: Path) -> dict[Any, tuple[int, int]]:
    """Every position the submission moved in, in the games kept in ``games``, and its move."""
    from assignments.isolation.referee import replay_result
    from assignments.isolation.rules import format_board
    from harness.records.games import GameResult

    table: dict[Any, tuple[int, int]] = {}
    for record in sorted(games.glob("*.json")):
        result = GameResult.from_dict(json.loads(record.read_text(encoding="utf-8")))
        side = "x" if result.first == "you" else "o"
        for state, move in zip(replay_result(result), result.moves):
            if state.to_move == side:
                table[(tuple(map(tuple, format_board(state))), side)] = (move[0], move[1])
    return table


@pytest.mark.slow
def test_a_replayer_of_the_visible_isolation_games_wins_nothing_in_the_other_seeds(
        tmp_path: Path) -> None:
    # the games a student keeps: a fixed depth-3 search (the same move in the same position, so
    # its games replay exactly), graded on the visible game cases, every game kept
    searcher = (PLAYERS / "two_ply.py").read_text(encoding="utf-8").replace(
        "DEPTH = 2", "DEPTH = 3")
    shown = games_root(tmp_path / "shown", lambda case: case.visibility is Visibility.VISIBLE)
    kept = graded(tmp_path / "recorded", searcher, shown, "--games", str(tmp_path / "games"))
    table = recorded_moves(tmp_path / "games")
    assert len(table) > 100
    replayer = (PLAYERS / "replayer.py").read_text(encoding="utf-8")
    both = games_root(tmp_path / "both", lambda case: case.visibility is Visibility.VISIBLE
                      or case.name.endswith("(other seeds)"))
    scores = {"replayer": graded(tmp_path / "replayer", replayer.replace(
                  "RECORDED = {}", f"RECORDED = {table!r}"), both),
              "fallback": graded(tmp_path / "fallback", replayer, both)}
    print(kept, scores)
    visible = [case for case in isolation_seeded_cases() if case.visibility is Visibility.VISIBLE]
    assert len(visible) == 2
    for case in visible:
        twin = f"{case.name} (other seeds)"
        # the recorded games are won again, and they are worth something ...
        assert scores["replayer"][case.name] == kept[case.name] > scores["fallback"][case.name]
        # ... but not with other seeds: there the replayer earns what its fallback earns alone
        assert scores["replayer"][twin] <= scores["fallback"][twin] < kept[case.name], twin
