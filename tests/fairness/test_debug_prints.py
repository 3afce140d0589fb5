"""Class 4 of issue 18: printing is not answering. Honest references with debug prints in every
function earn exactly the reference's score; only what the transcript itself prints (e.g.
``print(find_path(...))``, or the handout's ``for m, new_g in g.successors(True): print(...)``)
and the values it shows are judged, except in cases about printing (``options.printing``).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from gradingfair_support import GENERATED, grade_reference, grade_variant, per_case

from harness.compare.builtin import check_doctest
from harness.records.observations import Observation

pytestmark = pytest.mark.slow

DEF_LINE = r"re:^([ \t]*)def (\w+)\((.*)\):\n"
STYLES = {  # what each honest variant inserts as the first line of every function
    "a line at every function's start": r'\1def \2(\3):\n\1    print("debug: in \2")\n',
    "no newline (end=' ')": r'\1def \2(\3):\n\1    print("in \2", end=" ")\n',
    "sys.stdout.write": r'\1def \2(\3):\n\1    __import__("sys").stdout.write("[\2]\\n")\n',
}
STEMS = {
    "adversarial_search": ["01_infrastructure", "02_get_best_move"],
    "search_and_games": ["06_copy", "07_successors", "08_find_solution", "09_find_path"],
    "isolation": ["01_choose_move"],
}


@pytest.fixture(scope="module")
def references(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    return {name: grade_reference(tmp_path_factory.mktemp(name), name, stems=stems,
                                  generated=GENERATED.get(name))
            for name, stems in STEMS.items()}


@pytest.mark.parametrize("assignment", sorted(STEMS))
@pytest.mark.parametrize("style", sorted(STYLES))
def test_debug_prints_in_every_function_cost_nothing(
        assignment: str, style: str, references: dict[str, dict[str, Any]],
        tmp_path: Path) -> None:
    document = grade_variant(tmp_path, assignment, [(DEF_LINE, STYLES[style])],
                             stems=STEMS[assignment], generated=GENERATED.get(assignment))
    reference = references[assignment]
    assert reference["score"] == sum(t["max_score"] for t in reference["tests"]) > 0
    assert per_case(document) == per_case(reference)


# --- the comparator's rule, case by case --------------------------------------------------------

def test_a_printed_none_is_judged_without_the_students_debug_lines() -> None:
    seen = Observation(stdout="exploring (0, 0)\nNone\n", transcript_stdout="None\n")
    assert check_doctest("None\n", seen, {}, True).fraction == 1.0


def test_a_shown_value_is_judged_without_the_students_debug_lines() -> None:
    seen = Observation(value=True, has_value=True, stdout="checking\n", transcript_stdout="")
    assert check_doctest("True\n", seen, {}, True).fraction == 1.0


def test_a_wrong_answer_still_fails_among_debug_lines() -> None:
    seen = Observation(stdout="None\n[(0, 0)]\n", transcript_stdout="[(0, 0)]\n")
    judgement = check_doctest("None\n", seen, {}, True)
    assert judgement.fraction == 0.0 and "[(0, 0)]" in judgement.message


def test_in_a_case_about_printing_the_students_prints_are_the_answer() -> None:
    seen = Observation(stdout="| x | o |\n", transcript_stdout="")
    assert check_doctest("| x | o |\n", seen, {"printing": True}, True).fraction == 1.0
    assert check_doctest("| x | o |\n", seen, {}, True).fraction == 0.0


def test_a_stonehenge_board_is_judged_without_the_students_debug_lines() -> None:
    from reference.stonehenge.checkers import _check_board
    board = "      @   @\n     /   /\n@ - A - B\n     \\ / \\\n  @ - C   @\n       \\\n        @\n"
    debug = "computing __str__ for side 1\n"
    seen = Observation(stdout=debug + board, transcript_stdout=board)
    assert _check_board(board, seen, True)[0] == 1.0
    assert _check_board(board, Observation(stdout=debug), True)[0] == 0.0
