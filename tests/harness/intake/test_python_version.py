"""Code needing a newer Python than the grading image's is named, with file, line, feature and
version (issue 36, item 3); vermin decides, so the list of features is never ours to keep."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from harness.intake.python_version import parse_version, version_warning
from harness.records.spec import DEFAULT_GRADING_PYTHON
from harness.spec import SpecError
from harness.spec.assignments import load_assignment

pytestmark = pytest.mark.slow

EXCEPT_STAR = b"""def f():
    try:
        pass
    except* ValueError:
        pass
"""
ONLY_310 = b"""def f(x: int | None):
    match x:
        case 1:
            return (y := 1), f"{x=}"
"""


def test_except_star_is_named_with_its_line_and_version() -> None:
    warning = version_warning({"agent.py": EXCEPT_STAR}, "3.10")
    assert "Python 3.10" in warning.splitlines()[0]
    assert "agent.py, line 4: `except*` needs Python 3.11" in warning


def test_a_newer_module_is_named() -> None:
    warning = version_warning({"agent.py": b"x = 1\nimport tomllib\n"}, "3.10")
    assert "agent.py, line 2: 'tomllib' module needs Python 3.11" in warning


def test_a_type_statement_is_named_even_where_this_python_cannot_parse_it() -> None:
    """``type X = int`` is a syntax error before 3.12: vermin still knows what it needs."""
    warning = version_warning({"strategy.py": b"import os\ntype Board = list[int]\n"}, "3.10")
    assert "strategy.py, line 2" in warning and "needs Python 3.12" in warning


def test_code_the_grading_python_runs_gets_no_warning() -> None:
    assert version_warning({"agent.py": ONLY_310, "notes.txt": EXCEPT_STAR}, "3.10") == ""


def test_the_assignment_names_its_grading_python() -> None:
    assert version_warning({"agent.py": EXCEPT_STAR}, "3.11") == ""


@pytest.mark.parametrize("source", [b"x = (" * 300 + b")" * 300, b"\x00\xff\xfe",
                                    b"x = 1" + b" + 1" * 50_000])
def test_what_vermin_cannot_analyse_costs_only_the_warning(source: bytes) -> None:
    assert version_warning({"agent.py": source}, "3.10") == ""


def test_what_is_analysed_is_bounded() -> None:
    big = b"x = 1\n" * 50_000 + EXCEPT_STAR  # over MAX_FILE_BYTES: left alone
    assert version_warning({"agent.py": big}, "3.10") == ""


@pytest.mark.skipif(sys.version_info < (3, 11), reason="except* parses from 3.11 on")
def test_a_syntax_error_on_the_grading_python_that_parses_here_is_named() -> None:
    """Gradescope's 3.10 refuses ``except*``; this Python accepts it: the check must say so."""
    assert "needs Python 3.11" in version_warning({"player.py": EXCEPT_STAR}, "3.10")


def test_versions_parse() -> None:
    assert parse_version(DEFAULT_GRADING_PYTHON) == (3, 10)
    assert parse_version("!3.12") == (3, 12)
    with pytest.raises(ValueError):
        parse_version("three")


def test_grading_python_in_assignment_yaml_is_schema_checked(tmp_path: Path) -> None:
    folder = tmp_path / "demo"
    folder.mkdir()
    text = "name: demo\ntitle: Demo\nmodule: demo\ngrading_python: {}\n"
    (folder / "assignment.yaml").write_text(text.format('"3.12"'))
    assert load_assignment(folder).grading_python == "3.12"
    (folder / "assignment.yaml").write_text(text.format("three"))
    with pytest.raises(SpecError, match="grading_python"):
        load_assignment(folder)
    (folder / "assignment.yaml").write_text("name: demo\ntitle: Demo\nmodule: demo\n")
    assert load_assignment(folder).grading_python == "3.10"
