"""The project's tests live in tests/ and in each assignments/NAME/tests/, served by one plugin
(tests/gg_suite.py, registered by the repository's conftest.py): its hooks act on those tests
only, so a course-suite run from the repository (``pytest -p harness.pytest_plugin
assignments/NAME``) collects and grades exactly as it did without them."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from gg_suite import is_project_test
from gg_testing import ROOT

COURSE_RUN = [sys.executable, "-m", "pytest", "-p", "harness.pytest_plugin", "-p",
              "no:cacheprovider", "-q"]


@pytest.mark.parametrize(("path", "expected"), [
    ("tests/test_layers.py", True), ("tests/harness/spec", True),
    ("assignments/othello/tests/test_othello_rules.py", True), ("assignments/othello/tests", True),
    ("assignments/othello/cases/01_rules.yaml", False), ("assignments/othello/kit.py", False),
    ("assignments/tests", False), ("harness/pytest_plugin.py", False)])
def test_the_project_tests_are_those_under_tests_folders(path, expected):
    assert is_project_test(ROOT / path) is expected


def course_run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*COURSE_RUN, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)


@pytest.mark.slow
def test_a_course_suite_run_collects_the_cases_as_without_the_project_suite():
    """The same items as the run with no conftest at all and the assignment's tests/ left out
    (the folder as it was before its tests moved in): no project test, no reordering."""
    folder = "assignments/othello"
    ours = course_run("--collect-only", folder)
    bare = course_run("--collect-only", "--noconftest", f"--ignore={folder}/tests", folder)
    assert ours.returncode == 0, ours.stdout[-2000:] + ours.stderr[-2000:]
    items = [line for line in ours.stdout.splitlines() if "::" in line]
    assert items and items == [line for line in bare.stdout.splitlines() if "::" in line]
    assert not [item for item in items if "/tests/" in item]


@pytest.mark.slow
def test_a_course_suite_run_grades_its_cases_as_without_the_project_suite(tmp_path: Path):
    """A case grading starts processes: the fast tier's guard, had it acted on the course's
    items, would have failed it."""
    results = tmp_path / "results.json"
    done = course_run("assignments/adversarial_search/cases/01_infrastructure.yaml",
                      "-k", "create_dominoes_game and 2x3", "--gg-submission",
                      str(ROOT / "assignments/adversarial_search/solution/adversarial_search.py"),
                      "--gg-results", str(results))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "1 passed" in done.stdout and results.is_file()
