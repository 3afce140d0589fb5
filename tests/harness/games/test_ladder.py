"""The staff ladder's parts that need no game: the rating, the spec's checks, the partial copy.
(The ladder graded end to end is in test_third_game.py, on the connect-four fixture.)"""
from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from harness.games.ladder import expected, rate, rungs_of
from harness.spec.assignments import load_assignment
from harness.spec.errors import SpecError
from harness.spec.ladder import ladder_case, ladder_timeout
from harness.spec.loader import partial_copy_text

if TYPE_CHECKING:
    from harness.games.versus import Played

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "connect_four"


def test_half_the_points_against_one_rung_rates_at_that_rung() -> None:
    assert rate([(1200.0, 3.0, 6)]).value == pytest.approx(1200.0, abs=0.5)


def test_more_wins_rate_higher_and_more_games_narrow_the_interval() -> None:
    few = rate([(1000.0, 3.0, 4), (1200.0, 2.0, 4)])
    more = rate([(1000.0, 4.0, 4), (1200.0, 3.0, 4)])
    assert more.value > few.value
    assert few.low < few.value < few.high
    many = rate([(1000.0, 30.0, 40), (1200.0, 20.0, 40)])
    assert many.high - many.low < few.high - few.low


def test_winning_every_game_still_gives_a_finite_rating_above_the_top_rung() -> None:
    top = rate([(1000.0, 4.0, 4), (1400.0, 4.0, 4)])
    assert 1400.0 < top.value < 3000.0
    assert expected(top.value, 1400.0) > 0.5


def test_rungs_default_to_over_half_the_games_and_rise_by_200() -> None:
    rungs = rungs_of({"games": 4, "rungs": [{"bot": "a", "points": 1},
                                            {"bot": "b", "points": 2, "wins": 1}]})
    assert [(r.bot, r.wins, r.rating) for r in rungs] == [("a", 3, 1000.0), ("b", 1, 1200.0)]


def _copy(tmp_path: Path, edit: tuple[str, str]) -> Path:
    folder = tmp_path / "connect_four"
    shutil.copytree(FIXTURE / "assignments" / "connect_four", folder)
    path = folder / "assignment.yaml"
    text = path.read_text(encoding="utf-8")
    assert edit[0] in text
    path.write_text(text.replace(*edit), encoding="utf-8")
    return folder


@pytest.mark.parametrize("edit, words", [
    (("  games: 4\n", "  games: four\n"), "field 'ladder.games': 'four' is not of type"),
    (("    - {bot: random, points: 1}\n", "    - {bot: random, point: 1}\n"),
     "field 'ladder.rungs.0': 'points' is a required property"),
    (("  seed: 7\n", "  seed: 7\n  colour: red\n"), "field 'ladder.colour': Additional properties"),
], ids=["games", "rung", "unknown"])
def test_a_bad_ladder_is_a_spec_error_naming_its_field(tmp_path: Path, edit: tuple[str, str],
                                                       words: str) -> None:
    with pytest.raises(SpecError, match=re.escape(words)):
        load_assignment(_copy(tmp_path, edit))


def test_the_ladder_is_one_case_after_the_due_date_worth_its_rungs_points(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GAMEGRADER_ROOT", str(FIXTURE))
    assignment = load_assignment(FIXTURE / "assignments" / "connect_four")
    case = ladder_case(assignment, 2)
    assert (case.group, case.number, case.points, case.visibility.value) == \
        ("ladder", "2.1", 5.0, "after_due_date")  # hidden would hide the total
    assert case.options["kit"] == assignment.kit  # the kit is the assignment's
    assert case.timeout == ladder_timeout(dict(assignment.ladder)) == 12 * (2 * 5.0 + 5.0)
    assert case.relative_timeout is not None  # scaled to the host like a relative limit


def test_a_partial_copy_drops_the_ladder_and_keeps_what_follows(tmp_path: Path) -> None:
    folder = _copy(tmp_path, ("ladder:\n", "ladder:\n  # a comment inside\n"))
    path = folder / "assignment.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "grading_python: \"3.10\"\n",
                    encoding="utf-8")
    copy = partial_copy_text(path).decode()
    assert "\nladder:" not in copy
    assert "rungs" not in copy and "minimax" not in copy
    assert 'grading_python: "3.10"' in copy and "kit:" in copy


@pytest.mark.parametrize("name", ["isolation", "othello"])
def test_the_isolation_and_othello_ladders_are_worth_nothing_and_name_known_bots(
        name: str) -> None:
    from harness.games.kit import find_bot
    from harness.games.versus import load_kit
    from harness.spec import find_assignment
    from harness.spec.loader import load_checked_cases

    cases = load_checked_cases(find_assignment(name))  # total_points still agrees
    ladder = cases[-1]
    assert (ladder.group, ladder.points, ladder.visibility.value) == \
        ("ladder", 0.0, "after_due_date")
    assert all(case.group != "ladder" for case in cases[:-1])
    kit = load_kit(ladder.options)
    for rung in rungs_of(dict(ladder.options)):
        assert find_bot(kit, rung.bot).name == rung.bot
    assert ladder.timeout <= find_assignment(name).budget / 4


def test_recording_reference_times_passes_over_the_ladder(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    from harness.release.reference_times import record

    monkeypatch.setenv("GAMEGRADER_ROOT", str(FIXTURE))
    monkeypatch.syspath_prepend(str(FIXTURE))
    assert record("connect_four") is None  # its limit is a floor alone: no time to record


def _played(games: int, waited: float, cpu: float) -> "Played":
    from harness.games.match import GameRecord, Waiting
    from harness.games.versus import HouseGame, Played
    from harness.records.games import GameEnd, Reason

    record: GameRecord[Any] = GameRecord((), (("x", 1.0), ("o", 1.0)),
                                         GameEnd("o", Reason.NO_MOVES),
                                         waiting=(Waiting("x", waited, cpu, 20),))
    return Played(tuple(HouseGame(n, "x", n, record) for n in range(games)),
                  "the case's 10 s ran out")


@pytest.mark.parametrize("waited, cpu, lost", [(1.6, 0.01, True), (4.0, 0.7, False),
                                               (0.5, 0.01, False)],
                         ids=["sleeper", "slow host", "quick"])
def test_games_the_time_left_unplayed_are_lost_when_the_program_kept_them_waiting(
        waited: float, cpu: float, lost: bool) -> None:
    from harness.games.ladder import charge_waiting

    # two games played of four, each waiting 1.6 s over 20 replies on a program that used
    # 0.01 s of CPU time (1.15 s each that its CPU time does not explain); or 4 s for 0.7 s
    # (a host five times slower)
    charged = charge_waiting([_played(2, waited, cpu), _played(0, waited, cpu)], 4)
    assert [games.rest_lost for games in charged] == [lost, lost]
    if lost:
        assert ("kept its games waiting 2.3 s of wall time more than its CPU time and the "
                "host's load explain") in charged[0].skipped
