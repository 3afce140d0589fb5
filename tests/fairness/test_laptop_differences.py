"""Honest files that work on the student's laptop but cannot run on the grader, for reasons
that are the course's (its Python version, how Python reads source files): the loss is fair,
and the message at the top of the results says what differs and what to do.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from gradingfair_support import SOLUTIONS, grade

pytestmark = pytest.mark.slow

STEMS = ["01_infrastructure"]


def _document(tmp_path: Path, text: str, encoding: str = "utf-8") -> dict[str, Any]:
    submission = tmp_path / "adversarial_search.py"
    submission.write_text(text, encoding=encoding)
    return grade(tmp_path / "grading", "adversarial_search", submission, stems=STEMS)


def _graded(tmp_path: Path, text: str, encoding: str = "utf-8") -> str:
    return str(_document(tmp_path, text, encoding)["output"])


def test_newer_syntax_names_the_python_the_grader_runs(tmp_path: Path) -> None:
    source = SOLUTIONS["adversarial_search"].read_text(encoding="utf-8")
    # A typo every Python refuses: the message still says which Python ran the file.
    output = _graded(tmp_path, source + "\ndef broken(:\n    pass\n")
    assert "SyntaxError" in output and "your code runs under Python 3." in output


def test_a_file_saved_as_utf16_says_so(tmp_path: Path) -> None:
    source = SOLUTIONS["adversarial_search"].read_text(encoding="utf-8")
    output = _graded(tmp_path, "# Andr\u00e9\n" + source, encoding="utf-16")
    assert "null bytes" in output and "saved as UTF-16" in output


@pytest.mark.parametrize("line", ['GREETING = "Andr\u00e9"\n', "caf\u00e9 = 1\n"])
def test_a_file_saved_as_latin1_says_to_save_it_as_utf8(tmp_path: Path, line: str) -> None:
    # Latin-1 in a comment is skipped by Python and grades as usual; in a string or a name it is
    # a SyntaxError, which must not be blamed on the grader's Python version
    source = SOLUTIONS["adversarial_search"].read_text(encoding="utf-8")
    document = _document(tmp_path, line + source, encoding="latin-1")
    output = document["output"]
    assert "save it as UTF-8" in output and "Latin-1" in output
    assert "syntax added in a later Python" not in output
    # what a batch's gradebook and `grade` show for it: the encoding, not a "syntax error"
    assert document["extra_data"]["ungradable"] == "not saved as UTF-8 (line 1: save it as UTF-8)"
