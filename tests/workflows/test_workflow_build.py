"""``gamegrader build``: the Gradescope zip, the Docker build folder and the student package."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from workflow_support import ASSIGNMENT, REPO, SOLUTION, SPEC, gamegrader

from harness.paths import TESTS
from harness.release.build import autograder_files, shippable_code
from harness.spec import find_assignment, list_assignments
from harness.spec.loader import load_all_cases

pytestmark = pytest.mark.slow

TOP_LEVEL = {"ASSIGNMENT", "README.md", "assignments", "harness", "pyproject.toml", "reference",
             "run_autograder", "setup.sh"}


def repo_files(folder: Path) -> set[str]:
    """Repository-relative names of the files under ``folder`` a package carries."""
    return {p.relative_to(REPO).as_posix() for p in folder.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"}


def build(tmp_path: Path, *args: str) -> Path:
    out = tmp_path / "package.zip"
    done = gamegrader("build", "--assignment", ASSIGNMENT, "--out", str(out), *args)
    assert done.returncode == 0, done.stderr[-2000:]
    return out


def test_autograder_zip_holds_exactly_what_grading_needs(tmp_path):
    archive = zipfile.ZipFile(build(tmp_path))
    names = archive.namelist()
    assert len(names) == len(set(names))
    assert {name.split("/")[0] for name in names} == TOP_LEVEL
    assert archive.read("ASSIGNMENT") == b"adversarial_search\n"
    for script in ("setup.sh", "run_autograder"):
        assert archive.getinfo(script).external_attr >> 16 & 0o777 == 0o755
    assert {n for n in names if n.startswith("assignments/")} == repo_files(SPEC) - \
        repo_files(SPEC / "solution") - repo_files(SPEC / "template") - repo_files(SPEC / "tests") \
        - {f"{SPEC.relative_to(REPO)}/{name}" for name in ("mutants.yaml",
                                                          "mutants.equivalent.yaml", "README.md")} \
        | {"assignments/__init__.py"}
    assert {n for n in names if n.startswith("harness/")} == repo_files(REPO / "harness")
    assert {n for n in names if n.startswith("reference/")} == repo_files(REPO / "reference")
    assert not [n for n in names if n.startswith(("tests/", ".venv/"))]
    # Reproducible: the same tree gives the same bytes.
    assert build(tmp_path / "again").read_bytes() == (tmp_path / "package.zip").read_bytes()


@pytest.mark.parametrize("name", list_assignments())
def test_no_autograder_holds_an_assignments_own_tests(name):
    """Each assignment's tests/ (the project's test suite) stay out of the course build."""
    names = autograder_files(find_assignment(name))
    assert [n for n in names if n.startswith("assignments/") and TESTS in n.split("/")[2:3]] == []
    assert any((folder / TESTS).is_dir() for folder in (REPO / "assignments").iterdir())


def test_the_unzipped_autograder_grades_a_submission_in_a_gradescope_layout(tmp_path):
    root = tmp_path / "autograder"
    source = root / "source"
    zipfile.ZipFile(build(tmp_path)).extractall(source)
    (root / "submission").mkdir()
    (root / "results").mkdir()
    (root / "submission" / "adversarial_search.py").write_text(SOLUTION.read_text())
    (root / "submission_metadata.json").write_text(json.dumps({"id": 1, "users": []}))
    shutil.copy(source / "run_autograder", root / "run_autograder")
    # Gradescope installs source/ into its own venv; here the repository's venv stands in, and
    # the working directory puts source/ first on sys.path, so the zip's harness is the one run.
    env = {"AUTOGRADER_ROOT": str(root), "GAMEGRADER_VENV": str(Path(sys.executable).parents[1]),
           "PATH": "/usr/bin:/bin"}
    where = subprocess.run([sys.executable, "-c", "import harness; print(harness.__file__)"],
                           cwd=source, capture_output=True, text=True, env=env)
    assert where.stdout.strip() == str(source / "harness" / "__init__.py")
    done = subprocess.run(["bash", str(root / "run_autograder")], cwd=source, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    document = json.loads((root / "results" / "results.json").read_text())
    assert document["score"] == 40 and len(document["tests"]) == 85


def test_docker_context_is_the_autograder_plus_the_dockerfile(tmp_path):
    folder = tmp_path / "context"
    done = gamegrader("build", "--assignment", ASSIGNMENT, "--out", str(folder),
                      "--docker-context")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "docker build --build-arg ASSIGNMENT=adversarial_search" in done.stdout
    zipped = set(zipfile.ZipFile(build(tmp_path)).namelist())
    unpacked = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    assert unpacked == zipped | {"Dockerfile"}
    assert (folder / "run_autograder").stat().st_mode & 0o111


def hidden_expected_values() -> set[str]:
    """Expected outputs of non-visible cases that no visible case shows (so must not ship)."""
    cases = load_all_cases(find_assignment(ASSIGNMENT))
    shown = "\n".join(e.want + e.source for c in cases if c.visibility.reveals_expected
                      for e in c.examples)
    return {e.want.strip() for c in cases if not c.visibility.reveals_expected
            for e in c.examples if e.want.strip() and e.want.strip() not in shown}


def _declared_files(name: str) -> set[str]:
    """The files of the modules an assignment's ``student_package`` roles ship, with every
    module they import and their packages' __init__."""
    return {path.relative_to(REPO).as_posix() for path in shippable_code(find_assignment(name))}


def test_student_package_has_visible_cases_only_and_no_hidden_expected_value(tmp_path):
    archive = zipfile.ZipFile(build(tmp_path, "--student"))
    names = archive.namelist()
    declared = _declared_files("adversarial_search")  # its painters, declared safe to ship
    assert not [n for n in names if "/generated/" in n or n.startswith("tests/")
                or (n.startswith("reference/") and n not in declared)]
    assert not {"setup.sh", "run_autograder", "ASSIGNMENT"} & set(names)
    hidden = hidden_expected_values()
    assert len(hidden) > 30
    text = "\n".join(archive.read(n).decode("utf-8", "replace") for n in names)
    assert [value for value in hidden if value in text] == []
    assert "#01 5x1 board" not in text  # nor a hidden case's name

    folder = tmp_path / "student"
    archive.extractall(folder)
    listing = gamegrader("list", cwd=folder)
    assert "adversarial_search" in listing.stdout and "(8 in visible cases, 22 cases)" in \
        listing.stdout
    checked = gamegrader("check", str(SOLUTION), cwd=folder)
    assert checked.returncode == 0, checked.stderr[-2000:]
    assert "Total on the cases run here: 8/8 points" in checked.stdout


@pytest.mark.parametrize("name", list_assignments())
def test_every_student_package_loads_with_exactly_the_visible_cases(name, tmp_path, monkeypatch):
    """...that it can grade: visible cases whose grading needs reference code not declared safe
    for students are left out, and named in the package's README."""
    from harness.release.build import build_student, student_cases
    build_student(name, tmp_path / "student.zip")
    left_out = student_cases(find_assignment(name)).left_out
    visible = [c.id for c in load_all_cases(find_assignment(name))
               if c.visibility.reveals_expected and f"{c.group}: {c.name}" not in left_out]
    readme = zipfile.ZipFile(tmp_path / "student.zip").read("README.md").decode()
    assert all(f"- {case} (" in readme for case in left_out)
    zipfile.ZipFile(tmp_path / "student.zip").extractall(tmp_path / "student")
    monkeypatch.setenv("GAMEGRADER_ROOT", str(tmp_path / "student"))
    assert [c.id for c in load_all_cases(find_assignment(name))] == visible
