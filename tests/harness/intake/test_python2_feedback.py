"""Issue 39, item 13: code written for Python 2 is told it is Python 2 (not that ``Queue`` is a
package the course refuses, nor a bare "invalid syntax"), and an import that fails in a helper
or starter module names that module as the cause."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from gg_testing import FINISHED_GRADING, ROOT, run_gamegrader

from harness.intake.import_policy import refused_import
from harness.intake.preflight import failing_module
from harness.intake.python2 import python2_note
from harness.records.observations import ErrorInfo
from harness.records.spec import AllowedPackage

pytestmark = pytest.mark.slow

SOLUTION = ROOT / "reference/solutions/adversarial_search/adversarial_search.py"
NUMPY = (AllowedPackage(module="numpy", requirement="numpy"),)


@pytest.mark.parametrize(("error", "words"), [
    (ErrorInfo("ModuleNotFoundError", "No module named 'Queue'"),
     "it imports Queue, which is queue"),
    (ErrorInfo("ModuleNotFoundError", "No module named 'cPickle'"), "which is pickle"),
    (ErrorInfo("SyntaxError", "Missing parentheses in call to 'print'. Did you mean print(...)? "
               "(x.py, line 3)"), "print x is written print(x)"),
    (ErrorInfo("SyntaxError", "multiple exception types must be parenthesized (x.py, line 9)"),
     "except E as e:"),
    (ErrorInfo("NameError", "name 'xrange' is not defined"), "it uses xrange, which is range"),
    (ErrorInfo("NameError", "name 'raw_input' is not defined"), "which is input"),
    (ErrorInfo("AttributeError", "'dict' object has no attribute 'iteritems'"),
     "it calls .iteritems(), which is items()"),
    (ErrorInfo("AttributeError", "'generator' object has no attribute 'next'"), "next(iterator)"),
])
def test_python2_forms_are_named(error: ErrorInfo, words: str) -> None:
    note = python2_note(error, "3.10")
    assert note.startswith("your code is written for Python 2: ")
    assert words in note and "The grader runs Python 3.10" in note


@pytest.mark.parametrize("error", [
    ErrorInfo("ModuleNotFoundError", "No module named 'pandas'"),
    ErrorInfo("SyntaxError", "invalid syntax (x.py, line 3)"),
    ErrorInfo("NameError", "name 'board_size' is not defined"),
    ErrorInfo("AttributeError", "'Game' object has no attribute 'next'"),
    ErrorInfo("AttributeError", "'list' object has no attribute 'iteritem'"),
])
def test_python3_errors_are_not_called_python2(error: ErrorInfo) -> None:
    assert python2_note(error) == ""


def test_a_python2_module_is_not_called_a_refused_package() -> None:
    message = refused_import(ErrorInfo("ModuleNotFoundError", "No module named 'Queue'"), NUMPY,
                             "3.11") or ""
    assert "Python 2" in message and "does not allow" not in message
    other = refused_import(ErrorInfo("ModuleNotFoundError", "No module named 'pandas'"), NUMPY)
    assert other is not None and "does not allow" in other


def test_the_failing_module_is_the_innermost_place() -> None:
    nested = ErrorInfo("TypeError", "f() takes 0 positional arguments but 1 was given",
                       "agent.py, line 3, in <module>: import helpers\n"
                       "helpers.py, line 6, in <module>: f(2)")
    assert failing_module(nested, "agent.py") == "helpers.py"
    syntax = ErrorInfo("SyntaxError", "invalid syntax", "game_interface.py, line 14: print 'x'")
    assert failing_module(syntax, "stonehenge.py") == "game_interface.py"
    own = ErrorInfo("NameError", "name 'x' is not defined", "agent.py, line 9, in <module>: x")
    assert failing_module(own, "agent.py") == "" == failing_module(ErrorInfo("E", "m"), "a.py")


def _graded(folder: Path, files: dict[str, str]) -> dict:
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    output = folder.parent / f"{folder.name}.json"
    done = run_gamegrader("grade", "--assignment", "adversarial_search", "--submission",
                          str(folder), "--output", str(output), "--quiet",
                          "--timeout-cap", "5")
    assert done.returncode in FINISHED_GRADING, done.stderr[-2000:]
    document: dict = json.loads(output.read_text(encoding="utf-8"))
    return document


def test_gradings_of_python2_code_say_python2(tmp_path: Path) -> None:
    solution = SOLUTION.read_text(encoding="utf-8")
    assert "import random\n" in solution and "for row in range(self.rows):" in solution
    queue = _graded(tmp_path / "queue", {"adversarial_search.py": solution.replace(
        "import random\n", "import random\nimport Queue\n")})
    assert "it imports Queue, which is queue in Python 3" in queue["output"]
    assert "does not allow" not in queue["output"]
    printing = _graded(tmp_path / "print", {"adversarial_search.py": solution.replace(
        "import random\n", "import random\nprint 'loaded'\n")})
    assert "print x is written print(x) in Python 3" in printing["output"]
    ranges = _graded(tmp_path / "xrange", {"adversarial_search.py": solution.replace(
        "for row in range(self.rows):", "for row in xrange(self.rows):")})
    assert "it uses xrange, which is range in Python 3" in ranges["output"]
    assert ranges["output"].count("xrange") == 1  # said once, at the top


def test_a_helper_module_that_fails_to_import_is_named(tmp_path: Path) -> None:
    solution = SOLUTION.read_text(encoding="utf-8").replace("import random\n",
                                                            "import random\nimport board_utils\n")
    document = _graded(tmp_path / "helper", {"adversarial_search.py": solution,
                                             "board_utils.py": "X = 1\nprint X\n"})
    assert ("importing your file failed in board_utils.py, a module it imports: board_utils.py "
            "raised SyntaxError") in document["output"]
    assert "Python 2" in document["output"]
