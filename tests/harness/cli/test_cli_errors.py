"""Command-line mistakes: exit status 2 and a message saying what is wrong, never a traceback
and never a zero-score results.json (only `gradescope` always writes one)."""
from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from gg_testing import ROOT, run_gamegrader

pytestmark = pytest.mark.slow

SOLUTION = ROOT / "assignments/adversarial_search/solution/adversarial_search.py"


def assert_usage_error(done: subprocess.CompletedProcess[str], *messages: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    assert "Traceback" not in done.stderr
    for message in messages:
        assert message in done.stderr, done.stderr[-2000:]


@pytest.mark.parametrize("command", [
    ["grade", "--assignment", "adversarial_serch", "--submission", str(SOLUTION),
     "--output", "{out}/r.json"],
    ["check", str(SOLUTION), "--assignment", "adversarial_serch"],
    ["batch", "--assignment", "adversarial_serch", "{out}", "--out", "{out}/batch"],
    ["build", "--assignment", "adversarial_serch", "--out", "{out}/a.zip"],
    ["generate", "adversarial_serch", "--check"],
])
def test_a_misspelt_assignment_name_suggests_the_close_one(command, tmp_path):
    done = run_gamegrader(*(part.replace("{out}", str(tmp_path)) for part in command))
    assert_usage_error(done, "no assignment named 'adversarial_serch'; "
                             "did you mean adversarial_search?")
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # nothing written


def test_check_of_a_missing_file_says_so(tmp_path):
    done = run_gamegrader("check", str(tmp_path / "missing.py"))
    assert_usage_error(done, f"no such file or folder: {tmp_path / 'missing.py'}")


def test_grade_of_a_missing_submission_says_so_and_writes_nothing(tmp_path):
    done = run_gamegrader("grade", "--assignment", "adversarial_search", "--submission",
                          str(tmp_path / "missing"), "--output", str(tmp_path / "r.json"))
    assert_usage_error(done, f"no such file or folder: {tmp_path / 'missing'}")
    assert not (tmp_path / "r.json").exists()


def test_gradescope_with_a_missing_root_creates_nothing(tmp_path):
    root = tmp_path / "does" / "not" / "exist"
    done = run_gamegrader("gradescope", "--root", str(root), "--assignment",
                          "adversarial_search")
    assert_usage_error(done, f"no such autograder root folder: {root}")
    assert not (tmp_path / "does").exists()


def test_list_into_a_closed_pipe_ends_quietly():
    command = f"{sys.executable} -m harness list | head -n 1"
    done = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=ROOT, text=True,
                          capture_output=True, timeout=120)
    assert done.stdout.count("\n") == 1
    assert "BrokenPipeError" not in done.stderr and "Traceback" not in done.stderr


@pytest.fixture(scope="module")
def student_package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("student-package")
    done = run_gamegrader("build", "--assignment", "adversarial_search", "--student", "--out",
                          str(folder / "student.zip"))
    assert done.returncode == 0, done.stderr
    zipfile.ZipFile(folder / "student.zip").extractall(folder / "package")
    return folder / "package"


@pytest.mark.parametrize("command", [
    ["generate"], ["validate"], ["build", "--assignment", "adversarial_search", "--out", "x.zip"],
    ["batch", "--assignment", "adversarial_search", ".", "--out", "out"],
    ["tournament", "isolation", "a.py", "b.py"]])
def test_instructor_commands_in_the_student_package_say_who_they_are_for(command,
                                                                          student_package):
    done = subprocess.run([sys.executable, "-m", "harness", *command], cwd=student_package,
                          text=True, capture_output=True, timeout=120)
    assert_usage_error(done, f"'{command[0]}' is for instructors", "gamegrader check PATH")


def test_the_student_package_still_checks_a_file(student_package):
    done = subprocess.run([sys.executable, "-m", "harness", "check", str(SOLUTION)],
                          cwd=student_package, text=True, capture_output=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Total on the cases run here: 8/8 points" in done.stdout


@pytest.mark.parametrize("kind", [[], ["--student"]])
def test_a_zip_build_into_an_existing_folder_says_to_name_the_zip(tmp_path, kind):
    """``--out`` names the zip to write; a folder there was a traceback (IsADirectoryError)."""
    done = run_gamegrader("build", "--assignment", "adversarial_search", *kind,
                          "--out", str(tmp_path))
    assert_usage_error(done, f"--out {tmp_path} is a folder", "adversarial_search.zip")
    assert list(tmp_path.iterdir()) == []  # nothing written
