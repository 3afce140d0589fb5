"""The staff ladder against a program that fails its greeting: it would lose every game the
same way (it starts the same way in every game), so one game is played, the rest are counted
as lost, and the rating is the one losing them all gives. (A hostile Othello file's grading
spent 17 of its 180 s on Gradescope's half CPU replaying such a crash in every ladder game.)"""
from __future__ import annotations

from pathlib import Path

import pytest

from harness.games.ladder import rate, rungs_of
from harness.grading.api import GradingOptions, GradingSession
from harness.spec import find_assignment
from harness.spec.ladder import ladder_case

pytestmark = pytest.mark.slow  # plays games in the sandbox

SOLUTION = Path(__file__).resolve().parents[3] / "assignments" / "othello" / "solution" / "agent.py"


def test_a_program_that_never_says_its_name_plays_one_ladder_game_and_loses_them_all(
        tmp_path: Path) -> None:
    text = SOLUTION.read_text(encoding="utf-8")
    greeting = '    print("Reference", flush=True)\n'
    assert greeting in text
    agent = tmp_path / "agent.py"  # imports cleanly; as a program it exits before its name
    agent.write_text(text.replace(greeting, '    raise SystemExit("no name today")\n'),
                     encoding="utf-8")
    assignment = find_assignment("othello")
    case = ladder_case(assignment, len(assignment.case_files) + 1)
    session = GradingSession(agent, GradingOptions())
    session.plan(assignment, [case])
    session.grade_all(assignment, [case])
    document = session.finish([case])
    (ladder,) = document["tests"]
    output = ladder["output"]
    rungs = rungs_of(dict(case.options))
    games = int(case.options["games"])
    assert len(rungs) == 2 and games == 2, "the test reads Othello's ladder: 2 rungs, 2 games"
    first, second = (f"{rung.bot} (rating {rung.rating:g}" for rung in rungs)
    lines = output.splitlines()
    assert any(line.startswith(first) and f"lost {games} of {games}" in line
               and "1 games not played and counted as lost (skipped: your program did not "
                   "say its name in game 1" in line for line in lines), output
    assert any(line.startswith(second) and f"lost {games} of {games}" in line
               and f"2 games not played and counted as lost (not played: your program did not "
                   f"say its name against {rungs[0].bot}" in line for line in lines), output
    losing_all = rate([(rung.rating, 0.0, games) for rung in rungs])
    assert f"Your ladder rating: {losing_all.value:.0f} (95% interval {losing_all.low:.0f} to " \
           f"{losing_all.high:.0f})" in output
    board = {entry["name"]: entry["value"] for entry in document["leaderboard"]}
    assert board["Ladder rating"] == round(losing_all.value)
    assert board[f"Win rate v {rungs[0].bot}"] == board[f"Win rate v {rungs[1].bot}"] == 0.0
