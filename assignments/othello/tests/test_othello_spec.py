"""The othello grading spec: generated files, hand-written answers, checkers, probe, solution.

That the solution earns every point of the whole spec (its staff ladder and the games' hidden
twins included) is the release check's (``gamegrader validate --no-mutants`` in ``.ci/run``:
"reference solution passes every case", the same grading); the fairness tests grade it on
every case but those (tests/fairness/test_othello_fairness.py)."""
from __future__ import annotations

import ast
import itertools
import math
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from othello_support import REPO, TEMPLATE_DIR

from assignments.othello import checkers
from assignments.othello.generators import answer_entry
from harness.records.observations import ErrorInfo, Observation
from harness.records.spec import Case, Visibility
from harness.spec import find_assignment, load_case_file, parse_transcript
from harness.spec.loader import load_all_cases

pytestmark = pytest.mark.slow

BEST = "assignments.othello.checkers:best_answers"


def all_cases():
    assignment = find_assignment("othello")
    return [case for number, path in enumerate(assignment.case_files, start=1)
            for case in load_case_file(path, assignment, number)]


def make_case(transcript, options, visibility=Visibility.VISIBLE):
    return Case(id="t", number="1", group="g", name="n", points=1, visibility=visibility,
                timeout=1, file=Path("t.yaml"), examples=parse_transcript(transcript),
                compare=BEST, options=options)


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
        expected = [{k: v for k, v in a.items() if k != "unit"} for a in case.options["answers"]]
        assert answers == expected, case.name
        checked += 1
    assert checked == 4


def test_every_group_adds_up_to_the_handout_points():
    totals = {}
    for case in all_cases():
        totals[case.group] = round(totals.get(case.group, 0) + case.points, 6)
    assert totals == {"compute_utility": 5, "minimax": 20, "alphabeta": 20, "depth_limit": 20,
                      "caching": 12, "ordering": 13, "games": 10}


@pytest.mark.parametrize("assignment", ["othello", "othello_2025", "othello_valuefn",
                                        "othello_colour"])
def test_a_transcript_shows_select_move_returning_a_move(assignment):
    # issue 50 (messages): the visible ordering case showed select_move_alphabeta(board, 2, 5,
    # 0, 1) giving ((4, 4), 2), a (move, value) pair, where the handout asks for a (column, row)
    # tuple, which is all the case accepts
    shown = 0
    for case in load_all_cases(find_assignment(assignment)):
        for example in case.examples:
            if example.source.lstrip().startswith("select_move_") and example.want.strip():
                move = ast.literal_eval(example.want.strip())
                assert move is None or (type(move) is tuple and len(move) == 2
                                        and all(type(part) is int for part in move)), \
                    f"{case.name}: {example.source.strip()} shows {example.want.strip()}"
                shown += 1
    assert shown >= 10


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
    (_observed([(0, 1), 3]), NODE, 1.0, ""),
    (_observed([[3, 2], 3]), NODE, 1.0, ""),
    (_observed(((0, 1), 3, 7)), NODE, 0.0, "expected a (move, utility) pair, got ((0, 1), 3, 7)"),
    (_observed((None, 0)), LEAF, 1.0, ""),
    (_observed(((), 0)), LEAF, 1.0, ""),
    (_observed([[], 0]), LEAF, 1.0, ""),
    (_observed(((0, 1), True)), NODE, 0.5, "the utility should be a number, got True"),
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


ORDERED = {"shape": "ordered", "value": 4, "moves": [[3, 2], [2, 3]],
           "best": [[0, 1], [1, 1], [3, 2], [2, 3]], "unordered": [0, 1], "color": 1,
           "unit": "ordering"}


@pytest.mark.parametrize("returned, fraction, message", [
    ((3, 2), 1.0, ""),
    ((2, 3), 1.0, ""),  # ties in utility may be searched in any order
    ((0, 1), 0.0, "the first best move in column order"),
    ((1, 1), 0.0, "is a best move, but not the one a root searching highest"),
    ((0, 0), 0.0, "is not a best move"),
    ([3, 2], 0.0, "should be a (column, row) tuple"),
    (None, 0.0, "should be a (column, row) tuple"),
])
def test_the_roots_choice_shows_the_order_it_searched_in(returned, fraction, message):
    """Issue 39, item 4: ordering is judged from the root's choice, never a pruned node's move;
    the message says only what the answer shows (issue 39, item 7)."""
    got_fraction, got_message = checkers.judge_value(returned, ORDERED, reveal=False)
    assert (got_fraction, message in got_message) == (fraction, True), got_message
    assert "(3, 2)" not in got_message or returned == (3, 2)
    assert "column order" not in got_message or returned == (0, 1)


CUTOFF = {"shape": "cutoff", "beta": 2.5, "value": 4, "moves": [[3, 2], [2, 3]],
          "best": [[0, 1], [1, 1]], "unordered": [0, 1], "color": 1, "unit": "ordering"}


@pytest.mark.parametrize("returned, fraction, message", [
    (((3, 2), 4), 1.0, ""),
    ([[2, 3], 2.5], 1.0, ""),  # ties in utility may be searched in any order; fail-hard is fine
    ((None, math.inf), 1.0, ""),  # what a node returns when it stops is not fixed (issue 39, 4)
    (((), 3), 1.0, ""),
    (((1, 2), 3), 1.0, ""),  # nor is which move it names then
    (((0, 1), 3), 0.0, "the first move in column order whose value reaches beta"),
    (((1, 1), 5), 0.0, "a best move, with beta below the best value"),
    ((3, 2, 1), 0.0, "expected a (move, utility) pair"),
])
def test_a_pruning_node_fails_only_by_reaching_a_best_move(returned, fraction, message):
    got_fraction, got_message = checkers.judge_value(returned, CUTOFF, reveal=False)
    assert (got_fraction, message in got_message) == (fraction, True), got_message
    assert "(3, 2)" not in got_message


def test_a_unit_earns_what_its_weakest_example_earns():
    transcript = ">>> f()\n1\n>>> g()\n2\n>>> h()\n3\n"
    answers = [dict(NODE, unit="u"), dict(MOVE, unit="u"), MOVE]
    case = make_case(transcript, {"answers": answers})
    judgement = checkers.best_answers(
        case, [_observed(((0, 1), 3)), _observed((1, 1)), _observed((3, 2))], reveal=False)
    assert judgement.fraction == pytest.approx(1 / 3)
    assert "graded together" in judgement.message


CACHING = """\
>>> minimax_max_node(board, 1, 4, 0)
((0, 1), 3)
>>> work()
(100, 18, 80)
>>> minimax_max_node(board, 1, 4, 0)
((0, 1), 3)
>>> work()
(100, 18, 80)
>>> minimax_max_node(board, 1, 4, 1)
((0, 1), 3)
>>> work()
(80, 0, 62)
>>> minimax_max_node(board, 1, 4, 1)
((0, 1), 3)
>>> work()
(0, 0, 0)
>>> select_move_minimax(board, 1, 4, 1)
(0, 1)
>>> select_move_minimax(board, 1, 4, 0)
(0, 1)
"""

RIGHT = ((3, 2), 3)
OFF = [100, 18, 80]


@pytest.mark.parametrize("seen, fraction, message", [
    ([RIGHT, OFF, RIGHT, OFF, RIGHT, [60, 0, 50], RIGHT, [0, 0, 0], (3, 2), (3, 2)], 1.0,
     "calls into othello_shared: 100 without caching, 60 with caching; positions explored "
     "again: 18 without caching, 0 with caching"),
    # a wrong search that caching leaves unchanged is charged in its own group, not here
    ([((1, 1), 5), OFF, ((1, 1), 5), OFF, [[1, 1], 5], [60, 0, 50], ((1, 1), 5), [0, 0, 0],
      (1, 1), (1, 1)], 1.0, "with and without caching"),
    # issue 50: select_move searching one ply less (its root's limit - 1) answers the same
    # without caching: charged in the depth-limit cases, never as "caching changed the answer"
    ([RIGHT, OFF, RIGHT, OFF, RIGHT, [60, 0, 50], RIGHT, [0, 0, 0], (1, 1), (1, 1)], 1.0,
     "(1, 1) with and without caching (move (1, 1) is not a best move): a mistake of the "
     "search itself"),
    # a cache whose side effects cost a few calls (pruned bounds stored in alpha-beta) still
    # explores fewer positions again
    ([RIGHT, OFF, RIGHT, OFF, RIGHT, [107, 0, 70], RIGHT, [0, 0, 0], (3, 2), (3, 2)], 1.0,
     "107 with caching"),
    # issue 39, item 2: fewer calls alone is not a cache at work (one that holds only leaves,
    # or is looked up where nothing is stored): searched again it generates every successor
    ([RIGHT, OFF, RIGHT, OFF, RIGHT, [90, 18, 80], RIGHT, [70, 18, 80], (3, 2), (3, 2)], 0.0,
     "a position found in the cache is not explored again"),
    # issue 50: an exact alpha-beta cache keyed by the window finds nothing within one search
    # where no window repeats, and finds the root when searched again: used and re-used
    ([RIGHT, OFF, RIGHT, OFF, RIGHT, [100, 18, 80], RIGHT, [0, 0, 0], (3, 2), (3, 2)], 1.0,
     "searched again with the cache kept: 0 successors generated (80 without caching), "
     "stored values re-used"),
    # issue 39, item 3: a cache read with caching=0 shows as a second uncached search doing less
    ([RIGHT, OFF, RIGHT, [1, 0, 0], RIGHT, [1, 0, 0], RIGHT, [0, 0, 0], (3, 2), (3, 2)], 0.0,
     "the same search without caching a second time generated 0 successors (80 the first "
     "time): with caching=0 the cache must not be read"),
    # issue 50: a cache filled (never read) with caching=0 whose filling calls a helper only
    # the first time makes fewer calls the second time, and generates every successor again
    ([RIGHT, OFF, RIGHT, [90, 18, 80], RIGHT, [60, 0, 50], RIGHT, [0, 0, 0], (3, 2), (3, 2)],
     1.0, "100 without caching, 60 with caching"),
    ([RIGHT, 100, RIGHT, 100, RIGHT, 60, RIGHT, 0, (3, 2), (3, 2)], 1.0,
     "100 without caching, 60 with caching"),
    ([RIGHT, OFF, RIGHT, OFF, RIGHT, [100, "18", 3], RIGHT, [0, 0, 0], (3, 2), (3, 2)], 0.0,
     "could not read the work counts"),
    ([RIGHT, OFF, RIGHT, OFF, ((1, 1), 5), [60, 0, 50], RIGHT, [0, 0, 0], (3, 2), (3, 2)], 0.0,
     ">>> minimax_max_node(board, 1, 4, 1)\n  caching changed the answer: ((3, 2), 3) without "
     "caching, ((1, 1), 5) with caching"),
    ([RIGHT, OFF, RIGHT, OFF, RIGHT, [60, 0, 50], RIGHT, [0, 0, 0], None, (3, 2)], 0.0,
     ">>> select_move_minimax(board, 1, 4, 1)\n  caching changed the answer"),
    ([(None, 0), [0, 0, 0], (None, 0), [0, 0, 0], (None, 0), [0, 0, 0], (None, 0), [0, 0, 0],
      (0, 0), (0, 0)], 0.0, "no calls into othello_shared were seen"),
    ([RIGHT, "instrumentation disabled: othello_shared.play_move was replaced", RIGHT,
      [10, 0, 0], RIGHT, [10, 0, 0], RIGHT, [0, 0, 0], (3, 2), (3, 2)], 0.0,
     "instrumentation disabled: othello_shared.play_move"),
])
def test_caching_keeps_the_answers_saves_work_and_obeys_the_switch(seen, fraction, message):
    case = make_case(CACHING, {"answers": [NODE, NODE, NODE, NODE, MOVE, MOVE]})
    judgement = checkers.caching(case, [_observed(value) for value in seen], reveal=False)
    assert judgement.fraction == fraction, judgement.message
    assert message in judgement.message
    assert judgement.message.startswith("tested: the minimax search's cache")


SHORT_ROOT = {"shape": "ordered", "value": 3, "moves": [[3, 2]],
              "best": [[0, 1], [3, 2], [4, 4]], "unordered": [0, 1], "color": 1,
              "shallower": [[0, 1], [4, 4]], "one_ply_less": [[4, 4]]}


@pytest.mark.parametrize("move, fraction, message", [
    ((3, 2), 1.0, ""),
    # issue 50: a root searching limit - 1 in the handout's order, where that shows the order
    # as well: the ordering is right, and the depth limit is charged in its own group
    ((4, 4), 1.0, "the depth limit is charged in the depth_limit cases, not here"),
    # where it chooses what a root ignoring ordering chooses, the case cannot tell which: both
    # are named, neither as a fact
    ((0, 1), 0.0, "as a root that does not order its successors would"),
    ((0, 1), 0.0, "this case cannot tell which"),
])
def test_an_ordered_root_one_ply_short_is_told_from_an_ordering_mistake(move, fraction,
                                                                         message):
    assert checkers.judge_value(move, SHORT_ROOT, reveal=False)[0] == fraction
    assert message in checkers.judge_value(move, SHORT_ROOT, reveal=False)[1]


UNTOLD_SHORT_ROOT = {**SHORT_ROOT, "one_ply_less": []}
"""A position where the handout's order one ply short chooses (0, 1), the first best move in
column order (what a root ignoring ordering chooses), or (4, 4), which another mistake chooses."""
DEEPER = {"limit": 5, "moves": [[3, 2]], "best": [[0, 1]]}
ORDERING_PROBED = (">>> select_move_alphabeta(b, 1, 4, 0, 1)\n(3, 2)\n"
                   ">>> select_move_alphabeta(b, 1, 5, 0, 1)  # not graded: one ply deeper\n")


@pytest.mark.parametrize("at_limit, deeper, fraction, message", [
    # issue 50: a root one ply short in the handout's order chooses at the next limit what
    # that order chooses at this one, no best move there: its ordering is right
    ((0, 1), (3, 2), 1.0, "(0, 1) is what a root searching one ply less than the limit chooses "
     "in the handout's order, and with limit 5 your root chose as that order does one ply "
     "short of it, no move a search to that limit chooses: the ordering is right; the depth "
     "limit is charged in the depth_limit cases, not here"),
    ((4, 4), (3, 2), 1.0, "the ordering is right"),  # ties in utility in another order
    # a root reaching the limit chooses a best move there whatever its order: ordering ignored,
    # and the root one ply short is no longer named beside it
    ((0, 1), (0, 1), 0.0, "as a root that does not order its successors would: with"),
    # neither: the case cannot tell, and says so
    ((0, 1), (1, 1), 0.0, "this case cannot tell which"),
    ((0, 1), None, 0.0, "this case cannot tell which"),
    ((0, 1), [3, 2], 0.0, "this case cannot tell which"),  # select_move returns a tuple
    # the right answer needs nothing one ply deeper, and an ordering mistake gains nothing
    ((3, 2), (0, 1), 1.0, ""),
    ((1, 1), (3, 2), 0.0, "is not a best move"),
])
def test_select_move_one_ply_deeper_tells_a_root_one_ply_short_from_an_ordering_mistake(
        at_limit, deeper, fraction, message):
    case = make_case(ORDERING_PROBED, {"answers": [UNTOLD_SHORT_ROOT], "deeper": DEEPER})
    judgement = checkers.best_answers(case, [_observed(at_limit), _observed(deeper)],
                                      reveal=False)
    assert (judgement.fraction, message in judgement.message) == (fraction, True), \
        judgement.message
    assert "cannot tell which" not in judgement.message or deeper not in ((0, 1), (3, 2))


def test_select_move_one_ply_deeper_that_raised_credits_nothing():
    case = make_case(ORDERING_PROBED, {"answers": [UNTOLD_SHORT_ROOT], "deeper": DEEPER})
    error = ErrorInfo("RecursionError", "maximum recursion depth exceeded", "agent.py, line 9")
    judgement = checkers.best_answers(case, [_observed((0, 1)), _observed(error=error)],
                                      reveal=False)
    assert judgement.fraction == 0.0
    assert "this case cannot tell which" in judgement.message


def test_a_set_up_call_that_raises_fails_the_caching_case():
    # issue 50: a cache that raises on every miss stored the root before raising in the set-up
    # call, so the later searches found it and made no calls at all; the set-up's error is the
    # verdict
    set_up = (">>> othello_probe.set_up(lambda: select_move_alphabeta(((0, 0, 0, 0), (0, 2, 1, 0),"
              " (0, 1, 2, 0), (0, 0, 0, 0)), 1, 1, 1, 0), work)\n")
    case = make_case(set_up + CACHING, {"answers": [NODE, NODE, NODE, NODE, MOVE, MOVE]})
    error = ErrorInfo("KeyError", "((0, 0, 0, 0), (0, 2, 1, 0))", "agent.py, line 40, in lookup")
    judgement = checkers.caching(case, [_observed(error=error)], reveal=False)
    assert judgement.fraction == 0.0
    assert (">>> select_move_alphabeta(((0, 0, 0, 0), (0, 2, 1, 0), (0, 1, 2, 0), (0, 0, 0, 0)), "
            "1, 1, 1, 0)\n  (the set-up: a game's first turn, caching on) raised KeyError"
            ) in judgement.message
    assert "agent.py, line 40" in judgement.message
    assert judgement.message.startswith("tested: the alpha-beta search's cache")


TURNS = """\
>>> [select_move_alphabeta(board, 1, 4, 0, 0) for board in turns]
[(0, 1), (3, 2)]
>>> work()
(50, 9)
>>> [select_move_alphabeta(board, 1, 4, 0, 0) for board in turns]
[(0, 1), (3, 2)]
>>> work()
(50, 9)
>>> [select_move_alphabeta(board, 1, 4, 1, 0) for board in turns]
[(0, 1), (3, 2)]
>>> work()
(40, 2)
"""


@pytest.mark.parametrize("cached, fraction, message", [
    ([(0, 1), (3, 2)], 1.0, ""),
    # a cache keyed without the depth answers a later turn from a shallower search: legal
    ([(0, 1), (2, 3)], 1.0, ""),
    # issue 39, item 1: a stored leaf's placeholder handed back as a turn's move
    ([(0, 1), None], 0.0, "turn 2 with caching"),
    ([(0, 1), (0, 0)], 0.0, "turn 2 with caching"),
])
def test_a_turn_at_a_depth_limit_needs_a_legal_move_never_a_placeholder(cached, fraction,
                                                                        message):
    limited = {**MOVE, "legal": [[0, 1], [1, 0], [2, 3], [3, 2]]}
    case = make_case(TURNS, {"turns": [limited, limited]})
    seen = [[(0, 1), (3, 2)], [50, 9], [(0, 1), (3, 2)], [50, 9], cached, [40, 2]]
    judgement = checkers.caching(case, [_observed(value) for value in seen], reveal=False)
    assert judgement.fraction == fraction, judgement.message
    assert message in judgement.message


def test_the_probe_refuses_tampering_with_its_instruments(tmp_path):
    # in a child process: the probe's audit hook would outlive the test in this one
    (tmp_path / "helpers.py").write_text(
        "import othello_shared\n"
        "def successors(board, player, moves_of=othello_shared.get_possible_moves):\n"
        "    return moves_of(board, player)\n")
    script = tmp_path / "check.py"
    script.write_text(textwrap.dedent("""\
        import sys, types
        sys.path[:0] = [sys.argv[1], sys.argv[2]]
        import othello_shared, helpers, othello_probe
        from othello_shared import get_score as score
        board = ((0, 0, 0, 0), (0, 2, 1, 0), (0, 1, 2, 0), (0, 0, 0, 0))
        work = othello_probe.install()
        helpers.successors(board, 1); score(board); othello_shared.play_move(board, 1, 0, 1)
        helpers.successors(board, 1); helpers.successors(board, 2)
        othello_shared.play_move(board, 1, 1, 0); othello_shared.play_move(board, 1, 0, 1)
        rows = [list(row) for row in board]  # a list board: explored again all the same
        othello_shared.play_move(rows, 2, 0, 2); othello_shared.play_move(rows, 2, 0, 2)
        print(work(), work())
        try:
            othello_shared.get_score.__code__ = (lambda board: (0, 0)).__code__
        except RuntimeError as error:
            print(error)
        try:
            import gc; gc.get_referrers(work)
        except RuntimeError as error:
            print(error)
        helpers.othello_shared.play_move = lambda *args: None
        print(work())
        """))
    done = subprocess.run([sys.executable, str(script), str(TEMPLATE_DIR),
                           str(REPO / "assignments" / "othello")], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.stdout.splitlines() == [
        # a default argument in a helper module, a renamed import, a module attribute; then
        # (calls, positions explored again: a square played again from the same board,
        # successors generated), and
        # the next window starts afresh
        "(9, 2, 5) (0, 0, 0)",
        "instrumentation disabled: the code of othello_shared.get_score was changed",
        "instrumentation disabled: gc.get_referrers is not allowed while work is measured",
        "instrumentation disabled: othello_shared.play_move was replaced"], done.stderr


STUB_RESULTS = {"node": [(None, 0), ((0, 0), 0), [None, 0]], "move": [(0, 0), None],
                "cutoff": [(None, 0), ((0, 0), 0)], "ordered": [(0, 0), None]}


def test_no_constant_answer_earns_anything_on_any_case():
    """Issue 18, class 6: every answer a stub could give is paired with one it cannot."""
    checked = 0
    for case in all_cases():
        if case.compare == BEST:
            answers = case.options["answers"]
            for shape_answers in itertools.product(*(STUB_RESULTS[a["shape"]] for a in answers)):
                judgement = checkers.best_answers(
                    case, [_observed(v) for v in _spread(case, shape_answers)], reveal=False)
                assert judgement.fraction == 0, (case.name, shape_answers)
        elif case.compare.endswith(":every_example"):
            judgement = checkers.every_example(
                case, [_observed(0) for _ in case.examples], reveal=False)
            assert judgement.fraction == 0, case.name
        else:
            continue
        checked += 1
    assert checked == 59


def _spread(case, values):
    """Observations for every example: ``values`` at the graded ones, nothing elsewhere."""
    values = iter(values)
    return [next(values) if example.want.strip() else None for example in case.examples]


def test_the_packages_carry_the_game_manager(tmp_path):
    from harness.release.build import build_autograder, build_student
    for build in (build_autograder, build_student):
        built = build("othello", tmp_path / f"{build.__name__}.zip")
        assert "assignments/othello/template/othello_game.py" in built.entries, build.__name__
        assert "assignments/othello/othello_probe.py" in built.entries, build.__name__
