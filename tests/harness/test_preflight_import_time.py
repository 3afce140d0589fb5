"""Top-level code that takes long is named at the top of the results: every case imports the
student's file afresh, so a student's own tests left unguarded are paid by each case (in its time
limit and in the budget), and the plain "timed out" of the cases alone does not say why."""
from __future__ import annotations

from pathlib import Path

import pytest

from harness.preflight import SLOW_IMPORT_SECONDS, run_preflight
from harness.sandbox import Sandbox
from harness.spec.loader import parse_api_entry

ANSWER = "def answer():\n    return 42\n"
BUSY = ("import time\n_end = time.process_time() + {seconds}\n"
        "while time.process_time() < _end:\n    pass\n")


def preflight_of(tmp_path: Path, text: str):
    (tmp_path / "student.py").write_text(text)
    with Sandbox("student", {"student.py": tmp_path / "student.py"}) as box:
        return run_preflight(box, (parse_api_entry("answer()"),), timeout=30)


def test_a_slow_top_level_is_named_with_its_time_and_the_remedy(tmp_path: Path) -> None:
    checked = preflight_of(tmp_path, ANSWER + BUSY.format(seconds=SLOW_IMPORT_SECONDS + 0.3))
    assert checked.import_problem == "" and checked.broken == {}
    note = next(n for n in checked.notes if n.startswith("Importing your file took "))
    assert "runs again in every test" in note and 'if __name__ == "__main__":' in note


@pytest.mark.parametrize("text", [ANSWER, ANSWER + "print(answer())\n"])
def test_a_quick_import_gets_no_note(tmp_path: Path, text: str) -> None:
    assert preflight_of(tmp_path, text).notes == ()
