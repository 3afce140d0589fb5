"""The othello grading spec: generated files, hand-written answers, checkers, probe, solution."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from harness.compare import ErrorInfo, Observation
from harness.spec import Case, Visibility, find_assignment, load_case_file, parse_transcript
from othello_support import REPO, SOLUTION, TEMPLATE_DIR, grade_cases, group_scores, load_module
from reference.othello import checkers, othello_probe
from reference.othello.generators import answer_entry

BEST = "reference.othello.checkers:best_answers"


def all_cases():
    assignment = find_assignment("othello")
    return [case for number, path in enumerate(assignment.case_files, start=1)
            for case in load_case_file(path, assignment, number)]


def make_case(transcript, options, visibility=Visibility.VISIBLE):
    return Case(id="t", number="1", group="g", name="n", points=1, visibility=visibility,
                timeout=1, file=Path("t.yaml"), examples=parse_transcript(transcript),
                compare=BEST, options=options)


def test_generated_files_are_up_to_date():
    done = subprocess.run([sys.executable, "-m", "harness", "generate", "othello", "--check"],
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def _recording_namespace(answers):
    """Functions with the agent API that record the reference's answer entry of each call."""

    def node(maximizing, window):
        def call(board, color, *args):
            limit = args[2] if window else args[0]
            answers.append(answer_entry("node", board, color, limit, maximizing))
        return call

    def select(board, color, limit, *flags):
        answers.append(answer_entry("move", board, color, limit, True))

    return {"minimax_max_node": node(True, False), "minimax_min_node": node(False, False),
            "alphabeta_max_node": node(True, True), "alphabeta_min_node": node(False, True),
            "select_move_minimax": select, "select_move_alphabeta": select}


def test_hand_written_answers_match_the_reference():
    checked = 0
    for case in all_cases():
        if case.generated or case.compare != BEST:
            continue
        answers = []
        namespace = _recording_namespace(answers)
        for example in case.examples:
            exec(example.source, namespace)
        assert answers == case.options["answers"], case.name
        checked += 1
    assert checked == 4


def test_every_group_adds_up_to_the_handout_points():
    totals = {}
    for case in all_cases():
        totals[case.group] = round(totals.get(case.group, 0) + case.points, 6)
    assert totals == {"compute_utility": 5, "minimax": 20, "alphabeta": 20, "depth_limit": 20,
                      "caching": 12, "ordering": 13, "games": 10}


def test_probe_counts_of_the_solution_match_the_generated_expectations(monkeypatch):
    shared = load_module(TEMPLATE_DIR / "othello_shared.py", "othello_shared")
    for name in othello_probe.HELPERS:  # restored after the test
        monkeypatch.setattr(shared, name, getattr(shared, name))
    monkeypatch.setitem(sys.modules, "othello_probe", othello_probe)
    monkeypatch.setitem(sys.modules, "agent", None)  # removed again after the test
    ordering = [case for case in all_cases() if case.group == "ordering"]
    assert len(ordering) == 6
    for case in ordering:
        agent = load_module(SOLUTION, "agent")  # fresh, as in a new process
        namespace = dict(vars(agent))
        shown = []
        for example in case.examples:
            code = compile(example.source, "<example>", "single")
            monkeypatch.setattr(sys, "displayhook", shown.append)
            exec(code, namespace)
            if example.want.strip():
                assert shown[-1] == ast.literal_eval(example.want), case.name
    assert sys.modules["agent"] is agent


def _observed(value=None, error=None):
    return Observation(value=value, has_value=value is not None, error=error)


NODE = {"shape": "node", "value": 3, "moves": [[0, 1], [3, 2]], "color": 1}
MOVE = {"shape": "move", "value": 3, "moves": [[0, 1], [3, 2]], "color": 1}
LEAF = {"shape": "node", "value": 0, "moves": [], "color": 1}


@pytest.mark.parametrize("observation, answer, fraction, message", [
    (_observed(((3, 2), 3)), NODE, 1.0, ""),
    (_observed(((1, 1), 3)), NODE, 0.5, "move (1, 1) is not a best move"),
    (_observed(((0, 1), 5)), NODE, 0.5, "utility 5 is not the node's value (yours is too high)"),
    (_observed(((0, 1), 3.0)), NODE, 1.0, ""),
    (_observed([(0, 1), 3]), NODE, 0.0, "expected a (move, utility) tuple, got [(0, 1), 3]"),
    (_observed((None, 0)), LEAF, 1.0, ""),
    (_observed((None, 3)), NODE, 0.0, "the move is None, but the player to move has legal"),
    (_observed(((0, 1), 0)), LEAF, 0.5, "the move should be None here"),
    (_observed((0, 1)), MOVE, 1.0, ""),
    (_observed([0, 1]), MOVE, 0.0, "the move should be a (column, row) tuple of ints"),
    (_observed(), MOVE, 0.0, "got None"),
    (_observed(error=ErrorInfo("KeyError", "7")), MOVE, 0.0, "raised KeyError: 7"),
    (None, MOVE, 0.0, "not reached"),
])
def test_judge_answer_on_hidden_cases_never_shows_the_expected(observation, answer, fraction,
                                                               message):
    got_fraction, got_message = checkers.judge_answer(observation, answer, reveal=False)
    assert got_fraction == fraction
    assert message in got_message
    assert "best:" not in got_message and "should be 3" not in got_message


def test_best_answers_on_a_visible_case_shows_the_best_moves():
    case = make_case(">>> select_move_minimax(b, 1, 2)\n(0, 1)\n", {"answers": [MOVE]})
    judgement = checkers.best_answers(case, [_observed((1, 1))], reveal=True)
    assert judgement.fraction == 0.0
    assert judgement.message == (">>> select_move_minimax(b, 1, 2)\n  move (1, 1) is not a best "
                                 "move; best: (0, 1), (3, 2) (value 3)")


ORDERING = """\
>>> probe.reset()
>>> select_move_alphabeta(board, 1, 5, 0, 0)
(0, 1)
>>> probe.counts()["get_possible_moves"]
100
>>> probe.reset()
>>> select_move_alphabeta(board, 1, 5, 0, 1)
(0, 1)
>>> probe.counts()["get_possible_moves"]
80
"""


@pytest.mark.parametrize("off, on, fraction, message", [
    (815, 812, 1.0, "ordering on: 812 positions expanded, off: 815"),
    (815, 815, 0.5, "ordering on: 815 positions expanded, off: 815; ordering should expand "
                    "fewer positions"),
    (0, 0, 0.5, "no calls to othello_shared.get_possible_moves were seen"),
])
def test_ordering_work_reports_what_it_saw(off, on, fraction, message):
    case = make_case(ORDERING, {"answer": MOVE, "measure": "get_possible_moves"})
    observations = [_observed(), _observed((0, 1)), _observed(off), _observed(),
                    _observed((3, 2)), _observed(on)]
    judgement = checkers.ordering_work(case, observations, reveal=False)
    assert judgement.fraction == fraction
    assert message in judgement.message


def test_the_solution_earns_every_point(grade):
    document = grade("othello", SOLUTION)
    assert document["score"] == 100
    assert [t["name"] for t in document["tests"] if t["score"] != t["max_score"]] == []


def test_the_template_earns_only_what_its_stubs_get_right(tmp_path):
    document = grade_cases(TEMPLATE_DIR / "agent.py", tmp_path / "r.json",
                           "01_compute_utility.yaml", "02_minimax.yaml", "07_games.yaml")
    # A zero utility is sometimes right, and so is the stub's move (0, 0) where a corner is best.
    assert group_scores(document) == {"compute_utility": 1.25, "minimax": 0.625, "games": 0.0}


def test_the_packages_carry_the_game_manager(tmp_path):
    from harness.build import build_autograder, build_student
    for build in (build_autograder, build_student):
        built = build("othello", tmp_path / f"{build.__name__}.zip")
        assert "student_template/othello/othello_game.py" in built.entries, build.__name__
        assert "reference/othello/othello_probe.py" in built.entries, build.__name__
