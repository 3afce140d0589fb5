"""Pictures end to end (issue 38, item 1): a failing Othello grading's results.json draws the
position in Markdown, and a results document renders in headless Chromium with the board drawn
(the unit tests of the Markdown and the painters are in ``test_feedback_pictures.py``).
"""
from __future__ import annotations

from typing import Any

import pytest
from gg_testing import ROOT
from test_feedback_pictures import OTHELLO_START, _cases, case_of, html_of, seen

from harness.grading import results as results_file
from harness.grading.report import render
from harness.records.verdicts import CaseResult, Verdict
from harness.spec import find_assignment

pytestmark = pytest.mark.slow  # a grading and a browser


# --- through the grader: a failing Othello grading ----------------------------------------------

def test_a_failing_othello_grading_draws_the_position_in_markdown(tmp_path) -> None:
    from harness.grading.api import GradingOptions, GradingSession
    agent = (ROOT / "reference/solutions/othello/agent.py").read_text()
    wrong = agent.replace(
        "def select_move_minimax(board, color, limit, caching=0):\n",
        "def select_move_minimax(board, color, limit, caching=0):\n"
        "    from othello_shared import get_possible_moves\n"
        "    return get_possible_moves(board, color)[-1]\n", 1)
    assert wrong != agent
    (tmp_path / "agent.py").write_text(wrong)
    assignment = find_assignment("othello")
    cases = [case_of("othello", "minimax::4x4 position 27fcda36, 8 moves in, dark to move, "
                                "full depth")]  # visible: the best move is marked too
    session = GradingSession(tmp_path, GradingOptions(timeout_cap=60, lanes=1))
    session.plan(assignment, cases)
    session.grade_all(assignment, cases)
    document = session.finish(cases)
    results_file.validate(document)
    test, = document["tests"]
    assert test["status"] == "failed" and test["output_format"] == "md"
    html = html_of(test["output"])
    assert "    2   X X O *\n    3   + O X ." in html  # yours (3, 2), the best (0, 3)
    assert "X dark (1), O light (2); a move is (column, row)" in html
    shown = render(document)
    assert "```" not in shown and "* your move (3, 2)" in shown


# --- rendered as a student sees it --------------------------------------------------------------

def results_page(document: dict[str, Any]) -> str:
    """results.json as a page: each test's output rendered by its ``output_format`` (Markdown
    through CommonMark, text as preformatted), which is how Gradescope shows them."""
    import html
    sections = []
    for test in document["tests"]:
        body = (html_of(test["output"]) if test.get("output_format") == "md"
                else f"<pre>{html.escape(test['output'])}</pre>")
        sections.append(f"<section><h2>{html.escape(test['name'])}</h2>{body}</section>")
    return ("<!DOCTYPE html><html><head><meta charset='utf-8'><style>body{font-family:sans-serif;"
            "max-width:60em;margin:1em auto}pre{background:#f4f4f4;padding:.5em}</style></head>"
            f"<body><h1>Results</h1><pre>{html.escape(document['output'])}</pre>"
            f"{''.join(sections)}</body></html>")


def test_results_render_in_headless_chromium_with_the_board_drawn(tmp_path) -> None:
    from gg_testing import CHROMIUM, NO_CHROMIUM, chromium

    from reference.othello.pictures import case_picture
    if CHROMIUM is None:
        pytest.fail(NO_CHROMIUM)
    case = case_of("othello", OTHELLO_START)
    observations = seen(None, ((0, 1), -6), ((0, 1), 6), (3, 3))
    failed = CaseResult(case, Verdict.WRONG_ANSWER, 3.33, "move (3, 3) is not a best move",
                        picture=case_picture(case, observations, True))
    passed = CaseResult(case_of("othello", next(iter(_cases("othello")))), Verdict.PASSED, 0.25)
    document = results_file.build([failed, passed], output="Assignment: Othello",
                                  execution_time=1.0)
    page = tmp_path / "results.html"
    page.write_text(results_page(document), encoding="utf-8")
    dom = chromium("--dump-dom", page.as_uri(), profile=tmp_path / "profile")
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert "<strong>Wrong answer</strong>" in dom.stdout
    assert "row 0   . + . ." in dom.stdout and "    3   . . + *" in dom.stdout
    shot = tmp_path / "results.png"
    done = chromium(f"--screenshot={shot}", "--window-size=900,900", page.as_uri(),
                    profile=tmp_path / "profile")
    assert done.returncode == 0 and shot.stat().st_size > 10_000, done.stderr[-2000:]
