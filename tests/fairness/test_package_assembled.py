"""Issue 51, item 2: what the student package gives earns nothing alone. The package holds some
of the grader's modules (rules, house bots, pictures, checkers: ``student_package``) so
that ``check`` and ``play`` run locally; handed in as helper files, under their own paths or
any other name, they are left out of the grading (``harness/intake/shipped.py``), so a
submission assembled from them earns what the untouched template earns."""
from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest
from gg_testing import ROOT, run_gamegrader
from gradingfair_support import TEMPLATES, grade

from harness.intake.shipped import withhold_shipped
from harness.intake.submission import find_files
from harness.spec.assignments import find_assignment

pytestmark = pytest.mark.slow

ASSIGNMENTS = sorted(p.name for p in (ROOT / "assignments").iterdir()
                     if (p / "assignment.yaml").is_file())


def package_modules(tmp_path: Path, assignment: str) -> dict[str, bytes]:
    """The grader's modules the student package of ``assignment`` holds: path -> text."""
    archive = tmp_path / "student.zip"
    done = run_gamegrader("build", "--assignment", assignment, "--student", "--out", str(archive))
    assert done.returncode == 0, done.stderr[-2000:]
    with zipfile.ZipFile(archive) as package:
        return {name: package.read(name) for name in package.namelist()
                if name.startswith(("reference/", "assignments/")) and name.endswith(".py")
                and "/template/" not in name}


def assemble(folder: Path, files: dict[str, bytes], template: str) -> Path:
    """A submission folder: the untouched template's files and ``files`` beside them."""
    for source in (ROOT / "assignments" / template / "template").glob("*.py"):
        shutil.copy(source, folder / source.name)
    for name, data in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    return folder


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_package_s_own_modules_are_left_out_of_a_submission(tmp_path: Path,
                                                                 assignment: str) -> None:
    spec = find_assignment(assignment)
    shipped = package_modules(tmp_path, assignment)
    renamed = {"helpers/" + name.replace("/", "_"): data for name, data in shipped.items()}
    (tmp_path / "submission").mkdir()
    folder = assemble(tmp_path / "submission", {**shipped, **renamed}, assignment)
    found = find_files(folder, spec.submission_files,
                       tuple(p.name for p in (*spec.support_files, *spec.probe_files)))
    left_out = withhold_shipped(found)
    meaningful = [name for name, data in shipped.items() if data.strip()]
    assert sorted(left_out) == sorted([*meaningful,
                                       *("helpers/" + n.replace("/", "_") for n in meaningful)])
    assert all(not file.data.strip() for path, file in found.extras.items()
               if path.startswith(("reference/", "assignments/", "helpers/")))  # empty __init__s
    assert any("modules of the grader" in note for note in found.notes)


WRAPPER = '''\
from assignments.isolation.rules import Isolation, parse_board
from assignments.isolation.house_players import GreedyPlayer


def choose_move(board, player, time_left):
    move = GreedyPlayer(Isolation()).choose_move(parse_board(board, player), time_left)
    return (None, None) if move is None else move
'''


def test_a_wrapper_of_the_package_s_greedy_player_earns_what_the_template_earns(
        tmp_path: Path) -> None:
    """Graded at 82% (49.1 of 60) on main before issue 51, 12.5 with the deep cases alone."""
    files = {**package_modules(tmp_path, "isolation"), "player_ab123.py": WRAPPER.encode()}
    folder = tmp_path / "submission"
    for name, data in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    wrapper = grade(tmp_path / "wrapper", "isolation", folder)
    template = grade(tmp_path / "template", "isolation", TEMPLATES["isolation"])
    assert wrapper["score"] == template["score"] == 0
    assert "assignments.isolation.house_players" in json.dumps(wrapper)
