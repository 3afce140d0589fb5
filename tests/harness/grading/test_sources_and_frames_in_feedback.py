"""How feedback quotes the transcript and a traceback (issue 53's newcomer walk): a multi-line
source (a ``for`` loop) is shown in doctest form wherever it is printed, every line after the
first marked ``...``, as a student would paste it back; and every frame of a traceback is marked
``at`` and indented under the exception, the frames after the first included, so none reads as
one of the verdict's own lines.
"""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from assignments.othello.checkers import every_example
from assignments.search_and_games.checkers import find_solution
from assignments.search_and_games.lights_out_algebra import precomputed
from assignments.stonehenge import checkers as stonehenge
from harness.compare.builtin import check_doctest
from harness.compare.verdict import per_example
from harness.records.observations import ErrorInfo, Observation
from harness.records.spec import Case, Visibility
from harness.spec.doctests import parse_transcript, render_doctest

LOOP = (">>> p = create_puzzle(2, 3)\n"
        ">>> for row in range(2):\n"
        "...     for col in range(3):\n"
        "...         p.perform_move(row, col)\n"
        "...\n")
LOOP_SHOWN = (">>> for row in range(2):\n"
              "...     for col in range(3):\n"
              "...         p.perform_move(row, col)")
FRAMES = ("test code, line 1, in <module>: g = StonehengeGame(True)\n"
          "stonehenge.py, line 28, in __init__: raise NotImplementedError")
RAISED = ErrorInfo("NotImplementedError", "", FRAMES)


def _case(transcript: str, **options: object) -> Case:
    return Case(id="g::c", number="8.1", group="g", name="c", points=1.0,
                visibility=Visibility.VISIBLE, timeout=5.0, file=Path("cases.yaml"),
                examples=parse_transcript(transcript), options=options)


def test_an_example_shows_its_whole_source_in_doctest_form() -> None:
    loop = parse_transcript(LOOP + ">>> p.find_solution()\n[(0, 0)]\n")[1]
    assert loop.prompt == LOOP_SHOWN
    assert parse_transcript(">>> f(1)\n2\n")[0].prompt == ">>> f(1)"


def test_a_loop_not_reached_is_shown_whole_with_its_continuation_lines() -> None:
    """Search & Games 8.1: the loop raised, and the call after it was not reached."""
    options = {"board": ["X.X", "X.X"], "length": 2}
    case = _case(LOOP + ">>> p.find_solution()\n[(0, 0), (0, 2)]\n",
                 **options, precomputed=precomputed(options))
    raised = Observation(error=ErrorInfo("AttributeError", "no perform_move"))
    message = find_solution(case, [Observation(), raised], True).message
    assert message.startswith(LOOP_SHOWN + "\n  raised AttributeError"), message
    printing = ">>> for row in range(2):\n...     print(row)\n0\n1\n"
    not_reached = per_example(check_doctest)(
        SimpleNamespace(examples=parse_transcript(printing), options={}), [], True).message
    assert not_reached == ">>> for row in range(2):\n...     print(row)\n  was not reached"


def test_a_multi_line_call_is_shown_whole_by_each_assignments_checker() -> None:
    call = ">>> f(1,\n...   2)\n3\n"
    shown = ">>> f(1,\n...   2)"
    assert per_example(check_doctest)(SimpleNamespace(examples=parse_transcript(call),
                                                      options={}), [], True).message \
        == shown + "\n  was not reached"
    assert every_example(_case(call), [], True).message == shown + "\n  was not reached"
    loop = (">>> g = StonehengeGame(True)\n>>> for m in 'AB':\n...     g.make_move(m)\n"
            ">>> g.get_possible_moves()\n['C']\n")
    raised = stonehenge.states(_case(loop), [Observation(), Observation(error=RAISED)], True)
    assert (">>> for m in 'AB':\n...     g.make_move(m)\n  raised NotImplementedError\n"
            "    at test code") in raised.message, raised.message
    assert render_doctest(["for x in y:\n    z(x)"], "z(1)", 2) == \
        ">>> for x in y:\n...     z(x)\n>>> z(1)\n2\n"


def test_every_frame_of_a_traceback_is_marked_and_indented_under_the_exception() -> None:
    assert RAISED.describe().splitlines() == [
        "NotImplementedError",
        "    at test code, line 1, in <module>: g = StonehengeGame(True)",
        "    at stonehenge.py, line 28, in __init__: raise NotImplementedError"]
    case = SimpleNamespace(examples=parse_transcript(
        ">>> g = StonehengeGame(True)\n>>> g.get_board()\n'...'\n"), options={})
    lines = per_example(check_doctest)(case, [Observation(error=RAISED)], True) \
        .message.splitlines()
    assert lines[:4] == [">>> g = StonehengeGame(True)", "  raised NotImplementedError",
                         "    at test code, line 1, in <module>: g = StonehengeGame(True)",
                         "    at stonehenge.py, line 28, in __init__: raise "
                         "NotImplementedError"]
