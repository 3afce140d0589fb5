"""The command line on the Dominoes assignment: check, list, help, and broken submissions."""
from __future__ import annotations

import pytest
from gg_testing import ROOT, run_gamegrader

pytestmark = pytest.mark.slow

SOLUTION = ROOT / "assignments/adversarial_search/solution/adversarial_search.py"


@pytest.mark.parametrize("command", [[], ["grade"], ["check"], ["list"], ["generate"],
                                     ["gradescope"]])
def test_every_command_has_help(command):
    done = run_gamegrader(*command, "--help")
    assert done.returncode == 0 and "usage: gamegrader" in done.stdout


def test_list_shows_the_point_total():
    done = run_gamegrader("list")
    assert done.returncode == 0
    assert any(line.startswith("adversarial_search") and " 40 points" in line
               for line in done.stdout.splitlines())


def test_check_runs_visible_cases_only_and_infers_the_assignment(tmp_path, mutate):
    mutant = mutate(SOLUTION, [("leaves[0] += 1", "leaves[0] += 2")])
    done = run_gamegrader("check", str(mutant))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Assignment: Homework 4" in out
    assert "FAIL" in out and "PASS" in out
    assert "leaf count wrong (expected 6, got 12)" in out
    assert "random board" not in out and "#01" not in out  # no hidden case was run
    assert "Total on the cases run here: 5.33/8 points" in out


def test_check_refuses_an_unknown_file_name_clearly(tmp_path):
    stray = tmp_path / "homework.py"
    stray.write_text("x = 1\n")
    done = run_gamegrader("check", str(stray))
    assert done.returncode == 2
    assert "cannot tell which assignment" in done.stderr and "--assignment" in done.stderr


def test_generated_cases_are_up_to_date_with_the_reference():
    done = run_gamegrader("generate", "adversarial_search", "--check")
    assert done.returncode == 0, done.stdout


def test_unknown_assignment_is_a_clear_error(tmp_path):
    done = run_gamegrader("grade", "--assignment", "chess", "--submission", str(SOLUTION),
                          "--output", str(tmp_path / "r.json"))
    assert done.returncode == 2  # a command-line mistake (only `gradescope` always writes)
    assert "no assignment named 'chess'" in done.stderr
    assert not (tmp_path / "r.json").exists()


@pytest.mark.parametrize("edit, message, pointer", [
    ([("def get_best_move(self, vertical, limit):", "def get_best_move(self, vertical, limit)")],
     "importing your file raised SyntaxError", "not run (see above: adversarial_search.py)"),
    ([("def get_best_move(self, vertical, limit):", "def best_move(self, vertical, limit):")],
     "DominoesGame.get_best_move is missing from your file",
     "not run (see above: DominoesGame.get_best_move)"),
    ([("def get_best_move(self, vertical, limit):", "def get_best_move(self, vertical):")],
     "DominoesGame.get_best_move has a changed signature: the handout fixes "
     "DominoesGame.get_best_move(self, vertical, limit); yours is "
     "DominoesGame.get_best_move(self, vertical)",
     "not run (see above: DominoesGame.get_best_move)"),
])
def test_broken_submissions_keep_every_test_with_a_clear_message(grade, mutate, edit, message,
                                                                 pointer):
    """The message is said once, at the top; each case it blocks points there."""
    document = grade("adversarial_search", mutate(SOLUTION, edit))
    assert document["score"] == 0
    assert len(document["tests"]) == 85  # 20 infrastructure, 2 handout, 62 random, 1 image
    assert sum(t["max_score"] for t in document["tests"]) == 40
    assert document["output"].count(message) == 1
    best_move = [t for t in document["tests"] if t["name"].startswith("get_best_move")]
    assert all(pointer in t["output"] and message not in t["output"] for t in best_move)


def test_renamed_parameters_only_warn(grade, mutate):
    edit = [("def get_best_move(self, vertical, limit):", "def get_best_move(self, v, limit):"),
            ("max_value(self, vertical, float", "max_value(self, v, float"),
            ("return game.evaluate(vertical), None", "return game.evaluate(v), None")]
    document = grade("adversarial_search", mutate(SOLUTION, edit))
    assert document["score"] == 40
    assert "parameter names differ from the handout" in document["output"]
