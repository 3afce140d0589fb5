"""Issue 53, item 2: a broken spec is refused by every command that grades or plays
(``grade``, ``gradescope``, ``check``, ``batch``, ``tournament``, ``play``), as ``list`` and
``build`` refuse it: a non-zero exit status and the file, line and field named, never a score
that looks real. On Gradescope the results say the autograder is misconfigured and the
submission was not graded. Also ``grade``'s exit statuses (graded, ungradable, misconfigured;
interrupted is in tests/workflows/test_interrupts.py)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from gg_testing import ROOT, run_gamegrader

from harness.release.validate import subset_root
from harness.spec import find_assignment

pytestmark = pytest.mark.slow

PLAYER = ROOT / "assignments" / "isolation" / "solution" / "player.py"
CASES = "assignments/isolation/cases/01_choose_move.yaml"

BREAKAGES = {  # name: (file, old text, new text, what the message must name)
    "misspelt key": (CASES, "\n  points:", "\n  pionts:", ["01_choose_move.yaml", "line ",
                                                             "field 'pionts'"]),
    "invalid YAML": (CASES, "cases:\n", "cases: [\n", ["01_choose_move.yaml", "not valid YAML",
                                                       "line "]),
    "broken assignment.yaml": ("assignments/isolation/assignment.yaml", "\nsubmission_files:",
                               "\nsubmision_files:", ["assignment.yaml", "line ",
                                                      "submision_files"]),
}


def broken_root(tmp_path: Path, breakage: str) -> Path:
    """A GAMEGRADER_ROOT with Isolation's first case file (no generated cases), broken."""
    root = subset_root(find_assignment("isolation"), ["01_choose_move"], tmp_path / "root",
                       generated=False)
    file, old, new, _ = BREAKAGES[breakage]
    text = (root / file).read_text(encoding="utf-8")
    assert old in text, (file, old)
    (root / file).write_text(text.replace(old, new, 1), encoding="utf-8")
    return root


def commands(tmp_path: Path) -> dict[str, list[str]]:
    student = tmp_path / "player.py"
    student.write_text(PLAYER.read_text(encoding="utf-8"), encoding="utf-8")
    gradescope = tmp_path / "autograder"
    (gradescope / "submission").mkdir(parents=True)
    (gradescope / "results").mkdir()
    (gradescope / "submission" / "player.py").write_text(student.read_text())
    class_folder = tmp_path / "class" / "ada"
    class_folder.mkdir(parents=True)
    (class_folder / "player.py").write_text(student.read_text())
    return {
        "grade": ["grade", "--assignment", "isolation", "--submission", str(student),
                  "--output", str(tmp_path / "results.json")],
        "gradescope": ["gradescope", "--root", str(gradescope), "--assignment", "isolation"],
        "check": ["check", str(student)],
        "batch": ["batch", "--assignment", "isolation", str(tmp_path / "class"), "--out",
                  str(tmp_path / "batch")],
        "tournament": ["tournament", "isolation", f"a={student}", "house:random", "--out",
                       str(tmp_path / "cup")],
        "play": ["play", str(student), "--out", str(tmp_path / "games")],
    }


@pytest.mark.parametrize("command", ["grade", "gradescope", "check", "batch", "tournament",
                                     "play"])
@pytest.mark.parametrize("breakage", list(BREAKAGES))
def test_every_command_refuses_a_broken_spec_naming_file_line_and_field(
        tmp_path: Path, breakage: str, command: str) -> None:
    root = broken_root(tmp_path, breakage)
    done = run_gamegrader(*commands(tmp_path)[command], env={"GAMEGRADER_ROOT": str(root)})
    assert done.returncode == 2, (done.returncode, done.stdout[-2000:], done.stderr[-2000:])
    for part in BREAKAGES[breakage][3]:
        assert part in done.stderr, (part, done.stderr[-2000:])
    assert "Score:" not in done.stdout
    if command in ("grade", "gradescope"):
        output = (tmp_path / "results.json" if command == "grade"
                  else tmp_path / "autograder" / "results" / "results.json")
        document = json.loads(output.read_text(encoding="utf-8"))
        assert document["output"].startswith(
            "The autograder is misconfigured; your submission was not graded.")
        assert not document["extra_data"]["final"] and document["tests"] == []
    if command == "batch":
        assert not (tmp_path / "batch" / "gradebook.csv").exists()


def test_grade_says_by_its_exit_status_whether_it_graded(tmp_path: Path) -> None:
    root = subset_root(find_assignment("isolation"), ["01_choose_move"], tmp_path / "root",
                       generated=False)
    env = {"GAMEGRADER_ROOT": str(root)}
    for text, status in ((PLAYER.read_text(encoding="utf-8"), 0),
                         ("def choose_move(board, player, time_left:\n", 3)):
        student = tmp_path / "player.py"
        student.write_text(text, encoding="utf-8")
        done = run_gamegrader("grade", "--assignment", "isolation", "--submission",
                              str(student), "--output", str(tmp_path / "results.json"),
                              "--quiet", env=env)
        assert done.returncode == status, done.stderr[-2000:]
        assert json.loads((tmp_path / "results.json").read_text())["extra_data"]["final"]
