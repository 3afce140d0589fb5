"""The plug-in contracts: a runner's options are checked when its spec loads, and every caller
that loads a case file gets its references checked (``load_case_file``)."""
from __future__ import annotations

import sys
import textwrap

import pytest

from harness.spec import SpecError, find_assignment, load_assignment, load_case_file
from harness.spec.contracts import INTEGER, NUMBER, TEXT, Option, declare_options
from harness.spec.loader import load_checked_cases

RUNNER_MODULE = """\
from harness.spec.contracts import INTEGER, NUMBER, TEXT, Option, declare_options

@declare_options(games=Option(INTEGER, required=True), clock=Option(NUMBER),
                 opponent=Option(TEXT, choices=("random", "greedy")),
                 wins=Option(INTEGER, required=True, unless=("score", "clean")),
                 score=Option(TEXT))
def declared(case, sandbox):
    raise AssertionError("never run here")

def undeclared(case, sandbox):
    raise AssertionError("never run here")
"""


def cases_with(tmp_path, monkeypatch, options: str, runner: str = "declared"):
    (tmp_path / "contract_runners.py").write_text(RUNNER_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "contract_runners", raising=False)
    folder = tmp_path / f"spec{len(list(tmp_path.iterdir()))}" / "demo"
    (folder / "cases").mkdir(parents=True)
    (folder / "assignment.yaml").write_text("name: demo\ntitle: Demo\nmodule: demo\n")
    (folder / "cases" / "01_games.yaml").write_text(textwrap.dedent(f"""\
        group: games
        cases:
          - name: plays
            points: 1
            runner: "contract_runners:{runner}"
            options: {options}
        """))
    return load_case_file(folder / "cases" / "01_games.yaml", load_assignment(folder), 1)


def test_options_that_fit_the_runner_load(tmp_path, monkeypatch):
    case, = cases_with(tmp_path, monkeypatch, "{games: 4, clock: 1, opponent: greedy, wins: 3}")
    assert case.options["games"] == 4
    case, = cases_with(tmp_path, monkeypatch, "{games: 4, score: clean}")  # wins not needed
    assert case.options["score"] == "clean"


@pytest.mark.parametrize("options, field, problem", [
    ("{games: 4, wins: 3, gmaes: 5}", "options.gmaes", "has no option 'gmaes'"),
    ("{wins: 3}", "options.games", "needs option 'games'"),
    ("{games: 4}", "options.wins", "needs option 'wins'"),
    ("{games: four, wins: 3}", "options.games", "must be an integer, not 'four'"),
    ("{games: true, wins: 3}", "options.games", "must be an integer, not True"),
    ("{games: 4, wins: 3, clock: fast}", "options.clock", "must be an integer or a number"),
    ("{games: 4, wins: 3, opponent: minimax}", "options.opponent", "must be one of"),
])
def test_a_wrong_or_missing_option_names_file_case_and_option(tmp_path, monkeypatch, options,
                                                               field, problem):
    with pytest.raises(SpecError) as raised:
        cases_with(tmp_path, monkeypatch, options)
    error = raised.value
    assert error.file.endswith("01_games.yaml") and error.case == "plays"
    assert error.field == field and problem in error.problem
    assert f"case 'plays', field '{field}'" in str(error)


def test_a_runner_that_declares_no_options_is_refused(tmp_path, monkeypatch):
    with pytest.raises(SpecError, match="declares no options") as raised:
        cases_with(tmp_path, monkeypatch, "{games: 4}", runner="undeclared")
    assert raised.value.field == "runner"


def test_declared_options_are_what_the_runner_carries():
    @declare_options(n=Option(INTEGER, required=True), label=Option(TEXT))
    def runner(case, sandbox):
        return None

    assert set(runner.options) == {"n", "label"} and runner.options["n"].required
    assert Option(NUMBER).problem(2) == "" and Option(NUMBER).problem(2.5) == ""
    assert Option(NUMBER).problem(False) != ""


@pytest.mark.parametrize("name", ["isolation", "othello", "othello_colour"])
def test_every_game_case_of_the_specs_fits_its_runner(name):
    cases = [case for case in load_checked_cases(find_assignment(name)) if case.runner]
    assert cases, "the assignment has game cases"


def test_loading_a_case_file_checks_what_its_cases_name(tmp_path):
    folder = tmp_path / "demo"
    (folder / "cases").mkdir(parents=True)
    (folder / "assignment.yaml").write_text("name: demo\ntitle: Demo\nmodule: demo\n")
    (folder / "cases" / "01_x.yaml").write_text(textwrap.dedent("""\
        group: basics
        cases:
          - name: judged elsewhere
            points: 1
            compare: "harness.compare.builtin:no_such_comparator"
            doctest: |
              >>> 1
              1
        """))
    with pytest.raises(SpecError, match="no function 'no_such_comparator'") as raised:
        load_case_file(folder / "cases" / "01_x.yaml", load_assignment(folder), 1)
    assert raised.value.case == "judged elsewhere" and raised.value.field == "compare"
