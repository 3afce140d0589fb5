"""A failure's place shows the transcript's failing call, not an empty line (issue 50 item 5):
"at test code, line 1, in <module>: g2 = g.copy()" tells the student which call raised."""
from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

from harness.worker.run import run_examples


@pytest.fixture(autouse=True)
def _kept_hooks(monkeypatch: pytest.MonkeyPatch) -> None:
    """run_examples sets the display hook and standard output, as in its worker process."""
    monkeypatch.setattr(sys, "displayhook", sys.displayhook)
    monkeypatch.setattr(sys, "stdout", sys.stdout)


def test_an_error_in_a_transcript_line_shows_that_line(tmp_path: Path) -> None:
    student = tmp_path / "game.py"
    student.write_text("class Game:\n    pass\n", encoding="utf-8")
    module = types.ModuleType("game")
    exec(compile(student.read_text(), str(student), "exec"), vars(module))
    observations = run_examples(module, ("g = Game()", "for m in g.successors(True):\n"
                                         "    print(m)\n"), str(student))
    where = observations[1]["error"]["where"]
    assert where == "test code, line 1, in <module>: for m in g.successors(True):"


def test_an_error_inside_the_student_s_code_shows_the_call_and_the_student_s_line(
        tmp_path: Path) -> None:
    student = tmp_path / "game.py"
    student.write_text("def best(limit):\n    return 1 // limit\n", encoding="utf-8")
    module = types.ModuleType("game")
    exec(compile(student.read_text(), str(student), "exec"), vars(module))
    observations = run_examples(module, ("best(0)",), str(student))
    assert observations[0]["error"]["where"].splitlines() == [
        "test code, line 1, in <module>: best(0)",
        "game.py, line 2, in best: return 1 // limit"]
