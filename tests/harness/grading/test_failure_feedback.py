"""Feedback on failures a student cannot see from their own machine: a setup line that raised
(``g = create_dominoes_game(2, 2)``, which expects no output), a file saved under the wrong name
or extension, syntax or a crash that depends on the grader's Python. Each message says what
happened and where, so an honest student can act on it.
"""
from __future__ import annotations

import signal
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from harness.compare.builtin import check_doctest
from harness.compare.verdict import per_example
from harness.intake.preflight import describe_process_failure, import_error_hint
from harness.intake.submission import find_files
from harness.records.observations import ErrorInfo, Observation
from harness.sandbox.execution import RawRun
from harness.sandbox.packages import python_version
from harness.spec.doctests import parse_transcript

pytestmark = pytest.mark.slow


def test_a_setup_line_that_raised_is_shown_with_its_exception() -> None:
    case = SimpleNamespace(examples=parse_transcript(
        ">>> g = create_dominoes_game(2, 2)\n>>> g.get_board()\n[[False, False]]\n"),
        options={})
    raised = Observation(error=ErrorInfo("ValueError", "rows must be positive",
                                         "adversarial_search.py, line 9, in create"))
    judgement = per_example(check_doctest)(case, [raised], True)
    assert judgement.fraction == 0.0
    assert ">>> g = create_dominoes_game(2, 2)\n  raised ValueError: rows must be positive" \
        in judgement.message
    assert "adversarial_search.py, line 9" in judgement.message
    assert ">>> g.get_board()\n  was not reached" in judgement.message


def test_a_setup_line_that_ran_adds_nothing() -> None:
    case = SimpleNamespace(examples=parse_transcript(
        ">>> g = create_dominoes_game(2, 2)\n>>> g.get_board()\n[[False, False]]\n"),
        options={})
    seen = [Observation(), Observation(value=[[False, False]], has_value=True)]
    assert per_example(check_doctest)(case, seen, True).message == ""


# --- a file under another extension -------------------------------------------------------------

@pytest.mark.parametrize("name", ["adversarial_search.PY", "adversarial_search.py.txt",
                                  "Adversarial_Search (1).py.txt"])
def test_a_missing_file_saved_under_another_extension_is_named(tmp_path: Path,
                                                                name: str) -> None:
    (tmp_path / name).write_text("x = 1\n")
    (tmp_path / "notes.md").write_text("mine\n")
    found = find_files(tmp_path, ("adversarial_search.py",))
    assert found.missing == ["adversarial_search.py"]
    note = found.notes[-1]
    assert "Other files submitted: " in note and "notes.md" in note
    assert f"{name} looks like adversarial_search.py under another extension" in note
    assert "rename it to adversarial_search.py" in note


def test_a_zip_inside_a_submission_is_explained(tmp_path: Path) -> None:
    (tmp_path / "submission.zip").write_bytes(b"PK\x03\x04")
    note = find_files(tmp_path, ("agent.py",)).notes[-1]
    assert "submission.zip" in note and "is not unpacked" in note


# --- what depends on the grader's Python --------------------------------------------------------

def test_a_syntax_error_names_the_graders_python() -> None:
    """Which feature needs which Python is vermin's to say (harness.intake.python_version), not a
    list kept in the hint."""
    error = ErrorInfo("SyntaxError", "f-string: unmatched '['", "agent.py, line 3: ...")
    hint = import_error_hint(error, "3.10")
    assert "runs under Python 3.10 here" in hint and "later Python" in hint
    assert import_error_hint(error, "") == ""  # version unknown: Python's message alone


def test_a_file_saved_as_utf16_is_explained() -> None:
    error = ErrorInfo("ValueError", "source code string cannot contain null bytes")
    assert "saved as UTF-16" in import_error_hint(error, "3.11")


def test_the_sandbox_python_version_is_read_from_its_abi() -> None:
    assert python_version(sys.executable) == f"{sys.version_info[0]}.{sys.version_info[1]}"


def test_a_segmentation_fault_points_at_deep_recursion() -> None:
    crashed = RawRun(reply=None, reply_problem="", output="", timed_out=False,
                     exit_status=-signal.SIGSEGV, seconds=0.1)
    message = describe_process_failure(crashed, "running this case", 5.0)
    assert "SIGSEGV" in message and "sys.setrecursionlimit" in message
