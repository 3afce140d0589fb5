"""Feedback students would rather look at (issue 38, item 1): a failed case's position drawn
by its game's painter, written in Markdown in results.json and as text in ``check``.

The Markdown is checked with markdown-it-py, a CommonMark renderer (Gradescope renders ``md``
outputs as Markdown; CommonMark is the strict common ground): what a student wrote stays code,
never markup. The no-leak rule holds for pictures: a hidden case marks no expected move.
"""
from __future__ import annotations

import functools
from dataclasses import replace
from typing import Any

import pytest
from markdown_it import MarkdownIt

from harness.grading import feedback
from harness.grading import results as results_file
from harness.records.observations import Observation
from harness.records.spec import Case, Visibility
from harness.records.verdicts import CaseResult, Verdict
from harness.spec import find_assignment
from harness.spec.loader import load_all_cases


@functools.lru_cache(maxsize=None)
def _cases(assignment: str) -> dict[str, Case]:
    return {case.id: case for case in load_all_cases(find_assignment(assignment))}


def case_of(assignment: str, case_id: str) -> Case:
    return _cases(assignment)[case_id]


def seen(*values: Any) -> list[Observation]:
    """Observations of a transcript: None for a line that shows nothing."""
    return [Observation() if v is None else Observation(value=v, has_value=True) for v in values]


def html_of(markdown: str) -> str:
    return MarkdownIt("commonmark").render(markdown)


# --- the Markdown and its text ------------------------------------------------------------------

HOSTILE = "```\n**bold** <script>alert(1)</script> [link](http://x) ````` ~~~"


def hostile_result(case: Case) -> CaseResult:
    return CaseResult(case, Verdict.WRONG_ANSWER, 0.0, message=f"got {HOSTILE}",
                      output=f"debug {HOSTILE}\n", picture=f"board\n{HOSTILE}")


def test_student_text_in_the_markdown_stays_code() -> None:
    case = case_of("othello", "minimax::4x4 start, full depth (the second player wins by 6)")
    html = html_of(feedback.markdown(hostile_result(case)))
    assert "<script>" not in html and "<a " not in html
    assert html.count("<strong>") == 1  # the verdict line only
    assert html.count("<pre><code") == 3  # message, picture, printed text
    assert html.count("&lt;script&gt;alert(1)&lt;/script&gt;") == 3


def test_the_terminal_shows_the_same_lines_without_the_markup() -> None:
    case = case_of("othello", "minimax::4x4 start, full depth (the second player wins by 6)")
    result = hostile_result(case)
    text = feedback.as_text(feedback.markdown(result), feedback.MARKDOWN)
    assert text.splitlines() == [
        "Wrong answer (0/5 points)", f"got {HOSTILE.splitlines()[0]}", HOSTILE.splitlines()[1],
        "board", *HOSTILE.splitlines(), "Your code printed:", "debug ```",
        HOSTILE.splitlines()[1]]
    assert feedback.as_text("**not ours**", "text") == "**not ours**"


def test_only_a_test_with_a_picture_is_markdown_and_every_output_is_bounded() -> None:
    case = case_of("othello", "minimax::4x4 start, full depth (the second player wins by 6)")
    huge = CaseResult(case, Verdict.WRONG_ANSWER, 0.0, "m" * 50_000, "o" * 50_000,
                      picture="p" * 50_000)
    plain = replace(huge, picture="")
    document = results_file.build([huge], output="", execution_time=1.0)
    results_file.validate(document)
    drawn, = document["tests"]
    assert drawn["output_format"] == "md"
    assert len(drawn["output"]) <= results_file.OUTPUT_LIMIT + 100
    assert drawn["output"].rstrip().endswith("```")  # every fence closed within the bound
    assert "output_format" not in results_file.test_entry(plain)


# --- the painters, coordinates as each handout writes moves -------------------------------------

def test_othello_marks_a_move_at_column_then_row() -> None:
    from reference.othello.pictures import draw_text
    text = draw_text(((0, 0, 0), (0, 1, 2), (0, 0, 0)), {(2, 0): "*"})
    rows = text.splitlines()
    assert rows[2] == "row 0   . . *"  # (column 2, row 0)
    assert rows[3] == "    1   . X O"
    assert "a move is (column, row)" in text


def test_isolation_counts_from_one() -> None:
    from reference.isolation.pictures import draw_text
    text = draw_text([["x", "-", "-"], ["-", "*", "-"], ["-", "-", "o"]], {(3, 1): "@"})
    assert text.splitlines()[1] == "        1 2 3"
    assert text.splitlines()[4] == "    3   @ - o"  # (row 3, col 1)


def test_dominoes_marks_both_squares_of_the_domino() -> None:
    case = case_of("adversarial_search",
                   "get_best_move::3x3 board after (0, 1) vertical, horizontal, limits 1 and 2 "
                   "(handout)")
    from reference.adversarial_search.pictures import case_picture
    observations = seen(None, None, None, ((2, 1), 0, 1), ((2, 1), 0, 1))
    visible = case_picture(case, observations, reveal=True)
    assert "row 0   . X ." in visible  # the setup's perform_move(0, 1, True)
    assert "    2   + # *" in visible  # horizontal: expected (2, 0)-(2, 1), yours (2, 1)-(2, 2)
    hidden = case_picture(case, observations, reveal=False)
    assert "    2   . * *" in hidden and "expected" not in hidden


# --- no hidden expected value in a picture ------------------------------------------------------

OTHELLO_START = "minimax::4x4 start, full depth (the second player wins by 6)"


@pytest.mark.parametrize("reveal", [True, False])
def test_othello_marks_best_moves_only_where_the_case_reveals_them(reveal: bool) -> None:
    from reference.othello.pictures import case_picture
    case = case_of("othello", OTHELLO_START)
    observations = seen(None, ((0, 1), -6), ((0, 1), 6), (3, 3))  # select_move is wrong
    picture = case_picture(case, observations, reveal)
    assert "select_move_minimax(board, 1, -1, 0)" in picture
    assert "* your move (3, 3)" in picture
    assert ("+ a best move" in picture) is reveal
    assert (picture.count("+") >= 4) is reveal  # (0, 1), (1, 0), (2, 3), (3, 2)


def test_a_hidden_isolation_case_marks_no_legal_move() -> None:
    from reference.isolation.pictures import case_picture
    case = next(c for c in _cases("isolation").values() if c.options.get("legal")
                and c.visibility is not Visibility.VISIBLE)
    picture = case_picture(case, seen(*([None] * (len(case.examples) - 1)), (8, 8)), False)
    assert "your move" in picture and "+" not in picture


def test_a_hidden_search_case_names_no_optimum() -> None:
    from reference.search_and_games.pictures import path_picture
    case = next(c for c in _cases("search_and_games").values() if c.group == "find_path"
                and c.options.get("length") and "sanity" not in c.options
                and c.visibility is not Visibility.VISIBLE)
    start, goal = tuple(case.options["start"]), tuple(case.options["goal"])
    observations = seen(*([None] * (len(case.examples) - 1)), [start])
    hidden = path_picture(case, observations, reveal=False)
    assert "[no] ends at the goal" in hidden and f"{case.options['length']:.6f}" not in hidden
    assert f"{case.options['length']:.6f}" in path_picture(case, observations, reveal=True)
    assert start != goal


@pytest.mark.parametrize("reveal", [True, False])
def test_stonehenge_marks_the_cell_played_in_the_handouts_layout(reveal: bool) -> None:
    from reference.games.stonehenge import Stonehenge
    from reference.stonehenge.pictures import case_picture
    case = next(c for c in _cases("stonehenge").values()
                if c.options.get("game") == "stonehenge" and "recursion" not in c.options)
    accepted = case.options["precomputed"]["accepted"]
    game = Stonehenge(case.options["side"])
    state = game.initial_state()
    for move in case.options["moves"]:
        state = game.play(state, move)
    wrong = next(m for m in game.actions(state) if m not in accepted)
    judged = [i for i, e in enumerate(case.examples) if e.want.strip()]
    observations = seen(*[wrong if i in judged else None for i in range(len(case.examples))])
    picture = case_picture(case, observations, reveal)
    assert f"* your move {wrong}" in picture
    assert ("+ an optimal move" in picture) is reveal
    board_lines = picture.splitlines()[1:2 * case.options["side"] + 6]
    assert not any(f" {wrong} " in f" {line} " for line in board_lines)  # its letter marked


def test_a_batch_reads_a_markdown_test_as_the_text_it_holds() -> None:
    """Common failures and grade changes group by the verdict and first message line."""
    from harness.batch.failures import pattern_of
    case = case_of("othello", OTHELLO_START)
    drawn = CaseResult(case, Verdict.WRONG_ANSWER, 0.0, "move (3, 3) is not a best move",
                       picture="a board")
    entry = results_file.test_entry(drawn)
    plain = results_file.test_entry(replace(drawn, picture=""))
    assert entry["output_format"] == "md" and entry["output"] != plain["output"]
    assert pattern_of(feedback.output_text(entry)) == pattern_of(plain["output"])
    assert pattern_of(feedback.output_text(entry)).startswith("Wrong answer: move")
