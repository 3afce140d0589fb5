"""The Homework 2 comparators on hand-made observations: what passes, what fails, and what the
feedback says."""
from __future__ import annotations

import math
from pathlib import Path

import pytest

from assignments.search_and_games.checkers import (
    find_path,
    find_solution,
    scramble,
    unordered_lines,
)
from assignments.search_and_games.lights_out_algebra import precomputed
from harness.records.observations import ErrorInfo, Observation
from harness.records.spec import Case, Visibility
from harness.spec import parse_transcript
from harness.wire.codec import Opaque

T, F = True, False
NO_VALUE = Observation()


def case(transcript: str, **options) -> Case:
    """A case with ``options``; a Lights Out case gets its board's rules as data, as the loader
    adds them from ``gamegrader generate``'s answers."""
    if "board" in options or "check" in options:  # find_solution, scramble
        options["precomputed"] = precomputed(options)
    return Case(id="g::c", number="1.1", group="g", name="c", points=1.0,
                visibility=Visibility.HIDDEN, timeout=5.0, file=Path("cases.yaml"),
                examples=parse_transcript(transcript), options=options)


def value(v) -> Observation:
    return Observation(value=v, has_value=True)


def judge(comparator, the_case: Case, final: Observation, reveal: bool = False):
    """Judge ``final`` as the last example's observation (the others showed nothing)."""
    return comparator(the_case, [NO_VALUE] * (len(the_case.examples) - 1) + [final], reveal)


def gated(comparator, the_case: Case, easy: Observation, final: Observation,
          reveal: bool = False):
    """Judge a case whose example 0 is the easy call opening the gate for a None answer."""
    middle = [NO_VALUE] * (len(the_case.examples) - 2)
    return comparator(the_case, [easy, *middle, final], reveal)


SOLUTION_CASE = case(">>> p = LightsOutPuzzle([[True, False, True], [True, False, True]])\n"
                     ">>> p.find_solution()\n[(0, 0), (0, 2)]\n",
                     board=["X.X", "X.X"], length=2)
UNSOLVABLE_CASE = case(">>> LightsOutPuzzle([[True]]).find_solution()\n[(0, 0)]\n"
                       ">>> p = LightsOutPuzzle([[True, False]])\n>>> p.find_solution()\nNone\n",
                       board=["X."], length=None, sanity={"example": 0, "board": ["X"],
                                                          "length": 1})


@pytest.mark.parametrize("answer", [[(0, 0), (0, 2)], [(0, 2), (0, 0)], [(1, 0), (1, 2)]])
def test_find_solution_accepts_any_optimal_solution(answer):
    assert judge(find_solution, SOLUTION_CASE, value(answer)).fraction == 1.0


@pytest.mark.parametrize("answer, message", [
    ([(0, 0), (0, 2), (1, 1), (1, 1)], "optimal solution has 2 fewer"),
    ([(0, 0)], "after your 1 move, 3 lights still on"),
    ([(0, 0), (2, 0)], "move 1, (2, 0), is off the 2x3 board"),
    ([(0, 0)] * 7, "your 7 moves are more than the board's 6 lights"),
    ([[0, 0], [0, 2]], "element 0 of the solution, [0, 0], is not a (row, col) tuple"),
    ([(0, True), (0, 2)], "element 0 of the solution"),
    (((0, 0), (0, 2)), "expected a list of (row, col) tuples"),
    (Opaque("Move"), "expected a list"),
])
def test_find_solution_rejects_with_a_precise_message(answer, message):
    verdict = judge(find_solution, SOLUTION_CASE, value(answer))
    assert verdict.fraction == 0.0 and message in verdict.message


def test_find_solution_none_for_a_solvable_board_fails():
    verdict = judge(find_solution, SOLUTION_CASE, NO_VALUE)
    assert verdict.fraction == 0.0 and "can be solved" in verdict.message


def test_find_solution_none_for_an_unsolvable_board_needs_the_easy_case_right():
    assert gated(find_solution, UNSOLVABLE_CASE, value([(0, 0)]), NO_VALUE).fraction == 1.0
    # Any valid solution opens the gate, optimal or not.
    assert gated(find_solution, UNSOLVABLE_CASE, value([(0, 0)] * 3), NO_VALUE).fraction == 1.0
    stub = gated(find_solution, UNSOLVABLE_CASE, NO_VALUE, NO_VALUE)
    assert stub.fraction == 0.0 and "before None earns points" in stub.message


def test_find_solution_empty_list_for_an_unsolvable_board_says_lights_stay_on():
    hidden = gated(find_solution, UNSOLVABLE_CASE, value([(0, 0)]), value([]))
    assert hidden.fraction == 0.0 and "1 light still on" in hidden.message
    assert "None" not in hidden.message
    shown = gated(find_solution, UNSOLVABLE_CASE, value([(0, 0)]), value([]), reveal=True)
    assert "cannot be solved, so the answer is None" in shown.message


def test_an_error_in_the_transcript_earns_nothing_and_is_quoted():
    raised = Observation(error=ErrorInfo("ZeroDivisionError", "division by zero"))
    verdict = find_solution(SOLUTION_CASE, [NO_VALUE, raised], False)
    assert verdict.fraction == 0.0
    assert ">>> p.find_solution()" in verdict.message and "ZeroDivisionError" in verdict.message


#  . . . .
#  . X X .
#  . . . .
PATH_OPTIONS = dict(scene=["....", ".XX.", "...."], start=[1, 0], goal=[1, 3],
                    length=1 + 2 * math.sqrt(2))


def path_case(**options) -> Case:
    return case(">>> scene = [[c == 'X' for c in row] for row in '.... .XX. ....'.split()]\n"
                ">>> find_path((1, 0), (1, 3), scene)\n[(1, 0), (0, 1), (0, 2), (1, 3)]\n",
                **{**PATH_OPTIONS, **options})


PATH_CASE = path_case()


@pytest.mark.parametrize("answer", [[(1, 0), (0, 1), (0, 2), (1, 3)],
                                    [(1, 0), (2, 1), (2, 2), (1, 3)]])
def test_find_path_accepts_any_optimal_path(answer):
    assert judge(find_path, PATH_CASE, value(answer)).fraction == 1.0


@pytest.mark.parametrize("answer, message", [
    ([(1, 0), (0, 1), (0, 2), (0, 3), (1, 3)], "4.414214 is 0.585786 longer than the shortest"),
    ([(1, 0), (1, 1), (1, 2), (1, 3)], "point 1 of the path, (1, 1), is on an obstacle"),
    ([(1, 0), (0, 1), (0, 3), (1, 3)], "step 2 of the path, (0, 1) -> (0, 3), is not one of"),
    ([(1, 0), (0, 1), (0, 2), (0, 2), (1, 3)], "step 3 of the path, (0, 2) -> (0, 2)"),
    ([(1, 0), (0, 1), (-1, 2), (0, 3), (1, 3)], "(-1, 2), is outside the 3x4 scene"),
    ([(0, 1), (0, 2), (1, 3)], "starts at (0, 1), not at the start (1, 0)"),
    ([(1, 0), (0, 1), (0, 2)], "ends at (0, 2), not at the goal (1, 3)"),
    ([], "the path is empty"),
    ([(1, 0), (0, 0)] * 6 + [(1, 3)], "the path has 13 points, more than the scene's 12 cells"),
    ([(1, 0), (0, 1), (0, 2), [1, 3]], "element 3 of the path, [1, 3]"),
])
def test_find_path_names_the_first_problem(answer, message):
    verdict = judge(find_path, PATH_CASE, value(answer))
    assert verdict.fraction == 0.0 and message in verdict.message, verdict.message


SAME_POINT_CASE = case(">>> find_path((0, 1), (0, 1), [[True, False]])\n[(0, 1)]\n",
                       scene=["X."], start=[0, 1], goal=[0, 1], length=0.0)


@pytest.mark.parametrize("answer, right", [
    ([(0, 1)], True), ([(0, 1), (0, 1)], True), ([(0, 1), (0, 1), (0, 1)], False),
    ([(0, 1), (0, 0), (0, 1)], False)])
def test_find_path_from_a_point_to_itself_may_list_it_as_start_and_goal(answer, right):
    """The handout asks for both the start and the goal in the path: [start, goal] when they
    are one point is that, literally; more points than that are not."""
    assert judge(find_path, SAME_POINT_CASE, value(answer)).fraction == (1.0 if right else 0.0)


def test_find_path_tolerance_is_absolute_and_configurable():
    optimal = value([(1, 0), (0, 1), (0, 2), (1, 3)])
    a_bit_short = PATH_OPTIONS["length"] - 5e-7
    assert judge(find_path, path_case(length=a_bit_short), optimal).fraction == 1.0
    strict = path_case(length=a_bit_short, tolerance=1e-9)
    assert judge(find_path, strict, optimal).fraction == 0.0


NO_PATH_CASE = case(">>> find_path((0, 0), (0, 1), [[False, False]])\n[(0, 0), (0, 1)]\n"
                    ">>> scene = [[c == 'X' for c in row] for row in '.X.'.split()]\n"
                    ">>> find_path((0, 0), (0, 2), scene)\nNone\n",
                    scene=[".X."], start=[0, 0], goal=[0, 2], length=None,
                    sanity={"example": 0, "scene": [".."], "start": [0, 0], "goal": [0, 1],
                            "length": 1.0})


def test_find_path_none_exactly_when_required():
    assert gated(find_path, NO_PATH_CASE, value([(0, 0), (0, 1)]), NO_VALUE).fraction == 1.0
    through = gated(find_path, NO_PATH_CASE, value([(0, 0), (0, 1)]),
                    value([(0, 0), (0, 1), (0, 2)]))
    assert through.fraction == 0.0 and "is on an obstacle" in through.message
    missing = judge(find_path, PATH_CASE, NO_VALUE)
    assert missing.fraction == 0.0 and "a path exists" in missing.message
    stub = gated(find_path, NO_PATH_CASE, NO_VALUE, NO_VALUE)
    assert stub.fraction == 0.0 and "before None earns points" in stub.message


def scramble_case(check: str, start: list[str] | None = None) -> Case:
    return case(">>> boards = 1\n>>> boards\n[]\n", check=check, start=start or ["...", "..."])


def boards(*rows: str) -> Observation:
    return value([[[c == "X" for c in row] for row in board.split("/")] for board in rows])


SOLVABLE_2x3 = ["X.X/X.X", "XX./X..", ".XX/..X", "XXX/.X.", "X.X/X.X"]


def test_scramble_passes_every_property_on_good_runs():
    for check in ("solvable", "changes", "seeds_differ"):
        assert judge(scramble, scramble_case(check), boards(*SOLVABLE_2x3)).fraction == 1.0


@pytest.mark.parametrize("check, runs, message", [
    ("solvable", SOLVABLE_2x3 + ["X../..."], "every scrambled board can be solved\n  run 5 gave"),
    ("changes", ["X.X/X.X", ".../...", ".../...", ".../..."], "only 1 of 4 runs changed"),
    ("seeds_differ", ["X.X/X.X"] * 3 + ["XX./X.."], "4 runs with different seeds gave only 2"),
])
def test_scramble_names_the_failed_property(check, runs, message):
    verdict = judge(scramble, scramble_case(check), boards(*runs))
    assert verdict.fraction == 0.0 and "property failed: " in verdict.message
    assert message in verdict.message, verdict.message


@pytest.mark.parametrize("observed, message", [
    (NO_VALUE, "expected the list of scrambled boards; got None"),
    (value([[[T, F, F], [F, F]]]), "the board after run 0 is"),
    (value([[[1, 0, 0], [0, 0, 0]]]), "not a 2x3 list of lists of True/False"),
])
def test_scramble_refuses_malformed_runs(observed, message):
    verdict = judge(scramble, scramble_case("changes"), observed)
    assert verdict.fraction == 0.0 and message in verdict.message


def test_scramble_refuses_an_unknown_check():
    with pytest.raises(ValueError, match="unknown scramble check 'fast'"):
        judge(scramble, scramble_case("fast"), boards(*SOLVABLE_2x3))


LINES_CASE = case(">>> for m in 'ab':\n...     print(m, 1)\n...\na 1\nb  1\n")


@pytest.mark.parametrize("printed, fraction", [
    ("a 1\nb 1\n", 1.0), ("b 1\na   1\n", 1.0), ("a 1\n", 0.0), ("a 1\nb 1\nb 1\n", 0.0)])
def test_unordered_lines_compares_printed_lines_in_any_order(printed, fraction):
    assert unordered_lines(LINES_CASE, [Observation(stdout=printed)], False).fraction == fraction


def test_unordered_lines_reveals_missing_lines_only_when_allowed():
    hidden = unordered_lines(LINES_CASE, [Observation(stdout="a 1\n")], False)
    shown = unordered_lines(LINES_CASE, [Observation(stdout="a 1\n")], True)
    assert "1 expected ones missing" in hidden.message and "b 1" not in hidden.message
    assert "missing: b 1" in shown.message


def test_unordered_lines_shows_the_student_s_unexpected_lines():
    """What was printed instead is the student's own text: shown even in hidden cases, so a
    near miss (``(np.int64(0), 1)`` for ``(0, 1)``, an extra space) can be seen."""
    verdict = unordered_lines(LINES_CASE, [Observation(stdout="a 1\nb 2\n")], False)
    assert verdict.fraction == 0.0 and "unexpected (yours): b 2" in verdict.message
    many = "".join(f"x {n}\n" for n in range(12))
    verdict = unordered_lines(LINES_CASE, [Observation(stdout=many)], False)
    assert "; ... 4 more" in verdict.message


def test_a_lights_out_case_without_its_precomputed_rules_is_a_clear_spec_error():
    bare = Case(id="g::c", number="1.1", group="g", name="c", points=1.0,
                visibility=Visibility.HIDDEN, timeout=5.0, file=Path("cases.yaml"),
                examples=SOLUTION_CASE.examples, options={"board": ["X.X", "X.X"], "length": 2})
    with pytest.raises(ValueError, match="precompute"):
        judge(find_solution, bare, value([(0, 0), (0, 2)]))
