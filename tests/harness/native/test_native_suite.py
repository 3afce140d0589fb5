"""A course's unittest suite (gradescope-utils style) read into gamegrader cases: its
decorators honoured, its hidden expected values kept out of the sandbox, its records judged on
the trusted side (no grading here: test_native_grading.py grades)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from native_support import suite_root

from harness.native.judge import assertions
from harness.records.observations import Observation
from harness.spec import SpecError, find_assignment, load_case_file


def load_suite(tmp_path: Path, suite: str | None = None):
    root = suite_root(tmp_path / "root", suite)
    os.environ["GAMEGRADER_ROOT"] = str(root)
    try:
        assignment = find_assignment("adversarial_search")
        return load_case_file(assignment.case_files[0], assignment, 1)
    finally:
        del os.environ["GAMEGRADER_ROOT"]


def test_each_test_method_is_a_case_with_its_decorators(tmp_path):
    cases = load_suite(tmp_path)
    assert [(c.number, c.name, c.points, c.visibility.value) for c in cases] == [
        ("1.1", "create_dominoes_game(3, 3) gives an empty board", 1.0, "visible"),
        ("1.2", "every top cell of an empty 3x3 board takes a vertical domino", 1.0, "visible"),
        ("1.3", "perform_move fills both cells of a vertical domino", 2.0, "visible"),
        ("1.4", "a full board is over for both players", 1.0, "visible"),
        ("1.5", "get_best_move on an empty 3x3 board, vertical", 4.0, "after_due_date"),
        ("1.6", "get_best_move after (0, 1) vertical, horizontal", 4.0, "after_due_date")]
    assert cases[0].tags == ("infrastructure",)
    assert "DominoesGame.get_best_move" in cases[4].requires


def test_a_hidden_tests_expected_values_stay_out_of_the_sandbox(tmp_path):
    hidden = load_suite(tmp_path)[4]
    sent = "\n".join(example.source for example in hidden.examples)  # what the sandbox runs
    assert "get_best_move(True, 1)" in sent
    assert "((0, 1), 2, 6)" not in sent and "assertEqual" not in sent
    assert [s["args"][1] for s in hidden.options["sites"]] == [
        {"trusted": "((0, 1), 2, 6)"}, {"trusted": "((0, 1), 3, 10)"}]
    assert "empty_board" not in "\n".join(e.source for e in load_suite(tmp_path / "b")[0]
                                          .examples)  # only needed by the expected value


SEARCHES_SUITE = (Path(__file__).parents[2] / "hostile/suites/searches_suite.py").read_text()


def test_a_hidden_test_sends_plain_arguments_never_the_suites_table(tmp_path):
    """The course's style: inputs and answers in one table (SEARCHES[i][4]). A hidden test
    sends only the values of its calls' arguments; the answers stay on the trusted side."""
    visible, every, first, _ = load_suite(tmp_path, SEARCHES_SUITE)  # unittest's order
    for hidden in (visible, first, every):  # a visible test's output is shown: it too
        sent = "\n".join(example.source for example in hidden.examples)
        assert "SEARCHES" not in sent and "((0, 1)" not in sent and "answer" not in sent
        assert "def new_game(rows, cols)" in sent  # the suite's code it calls does go
    assert "new_game(*(3, 3))" in "\n".join(e.source for e in first.examples)
    assert [site["args"][1] for site in every.options["sites"]] == [
        {"trusted": "((0, 1), 2, 6)"}, {"trusted": "((0, 1), 3, 10)"},
        {"trusted": "((0, 0), 1, 4)"}, {"trusted": "((1, 0), 2, 4)"}]
    assert all(site["straight"] for site in every.options["sites"])  # the loop, unrolled


@pytest.mark.parametrize("body", [
    "        for row in SEARCHES:\n            if row[3] > 1:\n                break\n"
    "            self.assertTrue(new_game(*row[:2]).get_best_move(*row[2:4]))\n",
    "        i = 0\n        while i < 2:\n"
    "            self.assertTrue(new_game(*SEARCHES[i][:2]).game_over(True))\n"
    "            i += 1\n",
    "        for row in SEARCHES:\n            pass\n"
    "        self.assertTrue(new_game(*row[:2]).game_over(True))\n",
])
def test_a_hidden_test_that_would_carry_the_table_is_refused(tmp_path, body):
    start = SEARCHES_SUITE.index("        for rows, cols, vertical, limit, answer in SEARCHES:")
    with pytest.raises(SpecError) as caught:
        load_suite(tmp_path, SEARCHES_SUITE[:start] + body)
    assert "TestSearches.test_every_search: a test that is not visible would carry the " \
        "suite's SEARCHES (line 10) into the student's process" in str(caught.value)


def test_a_visible_test_that_would_carry_a_hidden_tests_table_is_refused(tmp_path):
    """What a visible test's code prints is shown to the student: the table the hidden tests
    read must not reach it either."""
    suite = SEARCHES_SUITE.replace(
        "        self.assertFalse(new_game(*SEARCHES[0][:2]).game_over(SEARCHES[0][2]))",
        "        for row in SEARCHES:\n            self.assertFalse(new_game(*row[:2]).game_over("
        "row[2]))\n            break")
    with pytest.raises(SpecError) as caught:
        load_suite(tmp_path, suite)
    assert "TestSearches.test_a_new_game_is_not_over: this visible test would carry the " \
        "suite's SEARCHES (line 10), which tests that are not visible read, into the student's " \
        "process" in str(caught.value)


SUITE_HEAD = """\
import unittest
from gradescope_utils.autograder_utils.decorators import partial_credit, visibility, weight
from gradescope_utils.autograder_utils.decorators import leaderboard
from adversarial_search import create_dominoes_game

class T(unittest.TestCase):
"""


@pytest.mark.parametrize("body, words", [
    ("    @partial_credit(3)\n    def test_a(self, set_score=None):\n        set_score(1)\n",
     "@partial_credit is not supported"),
    ("    @leaderboard('x')\n    def test_a(self, set_leaderboard_value=None):\n        pass\n",
     "@leaderboard is not supported"),
    ("    @visibility('secret')\n    def test_a(self):\n        pass\n",
     "@visibility('secret') is not one of visible"),
    ("    @visibility('hidden')\n    def test_a(self):\n        want = [[False]]\n"
     "        self.assertEqual(create_dominoes_game(1, 1).get_board(), want)\n",
     "T.test_a, line 10: the expected value of this assertEqual needs the test's own values"),
    ("    def test_a(self):\n        self.assertRaises(ValueError, int, 'x')\n",
     "assertRaises with a function to call is not supported"),
    ("    pass\nGAME = create_dominoes_game(2, 2)\n", "its top level failed without the "
     "submission (NameError"),
])
def test_a_suite_that_cannot_be_graded_safely_is_refused_with_the_reason(tmp_path, body, words):
    with pytest.raises(SpecError) as caught:
        load_suite(tmp_path, SUITE_HEAD + body)
    assert caught.value.field == "suite" and words in str(caught.value)


def observed(records, error=None):
    from harness.records.observations import ErrorInfo
    return [Observation(), Observation(value=records, has_value=True,
                                       error=ErrorInfo(*error) if error else None)]


def test_the_judge_runs_unittests_assertion_on_the_recorded_values(tmp_path):
    case = load_suite(tmp_path)[2]  # three straight-line assertions
    good = [[0, [False, True, False]], [1, [False, True, False]], [2, False], [-1]]
    assert assertions(case, observed(good), True).fraction == 1.0
    wrong = [[0, [False, True, False]], [1, (False, True, False)], [2, False], [-1]]
    judged = assertions(case, observed(wrong), True)
    assert judged.fraction == 0.0 and judged.message.startswith("line 41: assertEqual failed: ")
    assert "!=" in judged.message
    hidden = assertions(case, observed(wrong), False)  # not visible: no values shown
    assert hidden.message == "line 41: assertEqual failed"
    skipped = [[0, [False, True, False]], [-1]]
    assert "skipped an assertion" in assertions(case, observed(skipped), True).message
    unfinished = good[:-1]
    assert "did not run to its end" in assertions(case, observed(unfinished), True).message
    finished_early = [[-1], *good]  # a forged end before the real records
    assert "tampered" in assertions(case, observed(finished_early), True).message
    passing_first = [[0, [False, True, False]], *wrong]  # forged passes do not hide a failure
    assert assertions(case, observed(passing_first), True).fraction == 0.0
    assert "did not run" in assertions(case, observed([]), True).message
    forged = [[7, 1], [-1]]
    assert "tampered" in assertions(case, observed(forged), True).message
    raised = assertions(case, observed(None, ("KeyError", "3", "line 9")), True)
    assert raised.fraction == 0.0 and "the test raised KeyError" in raised.message


def test_the_gradescope_zip_carries_the_suite_and_the_student_package_does_not(tmp_path,
                                                                               monkeypatch):
    from harness.release.build import student_cases
    from harness.spec.loader import spec_files
    root = suite_root(tmp_path / "root")
    monkeypatch.setenv("GAMEGRADER_ROOT", str(root))
    assignment = find_assignment("adversarial_search")
    suite = (assignment.folder / "cases" / "dominoes_suite.py").resolve()
    assert suite in spec_files(assignment)
    package = student_cases(assignment)
    assert all(not str(name).endswith("dominoes_suite.py") for name in package.files)
    assert package.left_out[:4] == [
        "course suite: create_dominoes_game(3, 3) gives an empty board",
        "course suite: every top cell of an empty 3x3 board takes a vertical domino",
        "course suite: perform_move fills both cells of a vertical domino",
        "course suite: a full board is over for both players"]
    assert package.gradescope_only[0].needs == ("the course's test suite dominoes_suite.py",)


RAISING = SUITE_HEAD.replace("partial_credit, ", "hide_errors, ") + """\
    @weight(2)
    @visibility('after_due_date')
    def test_raises(self):
        game = create_dominoes_game(2, 2)
        with self.assertRaises(IndexError):
            game.perform_move(5, 5, True)
        self.assertEqual(len(game.get_board()), 2, msg='two rows')

    @hide_errors('Your board is off.')
    def test_hidden_errors(self):
        self.assertTrue(create_dominoes_game(1, 1).get_board())
"""


def test_assert_raises_messages_and_hide_errors_are_judged_as_unittest_would(tmp_path):
    hidden_errors, raises = load_suite(tmp_path, RAISING)  # in unittest's (name) order
    assert raises.points == 2 and raises.visibility.value == "after_due_date"
    sent = "\n".join(e.source for e in raises.examples)
    assert "IndexError" not in sent and "two rows" not in sent
    raised = [[0, ["IndexError", "LookupError", "Exception", "BaseException", "object"], "x"],
              [1, 2], [-1]]
    assert assertions(raises, observed(raised), False).fraction == 1.0
    not_raised = [[0, None, ""], [1, 2], [-1]]
    assert assertions(raises, observed(not_raised), True).message == \
        "line 11: assertRaises failed: IndexError not raised"
    other = [[0, ["KeyError", "LookupError"], "x"], [1, 2], [-1]]
    assert "raised KeyError, not IndexError" in assertions(raises, observed(other), True).message
    three_rows = [raised[0], [1, 3], [-1]]
    assert "3 != 2 : two rows" in assertions(raises, observed(three_rows), True).message
    short = [raised[0], [1], [-1]]  # a forged record without its value
    assert "tampered" in assertions(raises, observed(short), True).message
    judged = assertions(hidden_errors, observed([[0, []], [-1]]), True)
    assert judged.fraction == 0.0 and judged.message == "Your board is off."


COUNTING_SUITE = SUITE_HEAD.replace("class T(", '''
def slow():
    n = 0
    while True:
        n = abs(n) + 1


class T(''') + """\
    def test_moves(self):
        self.assertCountEqual(create_dominoes_game(1, 1).get_board(), [[1, 2], [3, 4]])

    def test_boards(self):
        self.assertListEqual(create_dominoes_game(1, 1).get_board(), [[0, 0]] * 5000)

    def test_slow(self):
        self.assertEqual(create_dominoes_game(1, 1).get_board(), slow())
"""


def test_judging_a_large_reply_takes_time_linear_in_it(tmp_path):
    """unittest's assertCountEqual is quadratic for unhashable elements (131 s for 60,000
    small lists); the judge's counts them by hashing, and reports a large failed list
    comparison without difflib's diff."""
    import time
    boards, moves, _ = load_suite(tmp_path, COUNTING_SUITE)
    reply = [[i, i + 1] for i in range(20_000)]
    started = time.monotonic()
    judged = assertions(moves, observed([[0, reply], [-1]]), True)
    assert time.monotonic() - started < 2.0  # unittest's own: 14 s here
    assert judged.fraction == 0.0 and "19998 element(s) of the first not in the second" \
        in judged.message
    assert assertions(moves, observed([[0, [[3, 4], [1, 2]]], [-1]]), True).fraction == 1.0
    assert assertions(moves, observed([[0, [(3, 4), [1, 2]]], [-1]]), True).fraction == 0.0
    started = time.monotonic()
    judged = assertions(boards, observed([[0, [[0, 1]] * 5000], [-1]]), True)
    assert time.monotonic() - started < 2.0
    assert judged.fraction == 0.0 and "too large to show the difference" in judged.message


def test_judging_that_outlasts_its_limit_fails_the_test_saying_why(tmp_path, monkeypatch):
    from harness.native import judge
    monkeypatch.setattr(judge, "JUDGE_SECONDS", 0.3)
    slow = load_suite(tmp_path, COUNTING_SUITE)[2]
    judged = assertions(slow, observed([[0, [[0]]], [-1]]), True)
    assert judged.fraction == 0.0
    assert judged.message == "your reply was too large to compare in the grader's time (0.3 s)"
