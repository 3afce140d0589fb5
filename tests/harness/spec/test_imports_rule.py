"""One rule per assignment, said once: what a student's file may import comes from the
assignment's ``allowed_packages``, and the template, the assignment's docs page and the student
package's README state it in the same sentence (``imports_rule``), so none can drift from
assignment.yaml (issue 53: Isolation's template and docs said standard library only while its
assignment.yaml, the import check and the README allowed numpy)."""
from __future__ import annotations

import functools
import re
import tempfile
import zipfile
from pathlib import Path

import pytest

from harness.intake.import_policy import imports_rule
from harness.paths import project_root
from harness.records.spec import Assignment
from harness.release.build import README_WIDTH, build_student
from harness.spec import find_assignment, list_assignments

ROOT = project_root()
NAMES = list_assignments()
EVERY_PACKAGE = {package.module for name in NAMES
                 for package in find_assignment(name).allowed_packages}


def handed_in_templates(assignment: Assignment) -> list[Path]:
    """The template files a student hands in: those named in submission_files, or the folder's
    one file when it is renamed on submission (Isolation's player_account.py)."""
    folder = assignment.folder / "template"
    named = [folder / name for name in assignment.submission_files if (folder / name).is_file()]
    if named:
        return named
    files = sorted(folder.glob("*.py"))
    assert len(files) == 1, f"{folder}: which template file is handed in?"
    return files


def docs_page(assignment: Assignment) -> Path:
    """The assignment's page, assignments/NAME/README.md, or for a variant the page of the
    assignment it varies (othello's for othello_2025)."""
    page = (assignment.variant_of or assignment.folder) / "README.md"
    assert page.is_file(), f"no page for {assignment.name}: {page}"
    return page


def assert_states_the_rule(text: str, assignment: Assignment, where: str) -> None:
    """``text`` holds the assignment's rule, and no other statement of what may be imported:
    no other mention of the standard library, no package the assignment does not allow."""
    rule = imports_rule(assignment.allowed_packages)
    flat = " ".join(text.split())
    assert rule in flat, f"{where} does not say {rule!r}"
    rest = flat.replace(rule, "")
    assert not re.search(r"standard[ -]library", rest, re.IGNORECASE), \
        f"{where} states another rule besides {rule!r}"
    allowed = {package.module for package in assignment.allowed_packages}
    for package in EVERY_PACKAGE - allowed:
        assert not re.search(rf"\b{re.escape(package)}\b", rest), \
            f"{where} mentions {package}, which {assignment.name} does not allow"


@pytest.mark.parametrize("name", NAMES)
def test_the_template_states_the_assignments_rule(name: str) -> None:
    assignment = find_assignment(name)
    for path in handed_in_templates(assignment):
        assert_states_the_rule(path.read_text(), assignment, str(path.relative_to(ROOT)))


@pytest.mark.parametrize("name", NAMES)
def test_the_docs_page_states_the_assignments_rule(name: str) -> None:
    assignment = find_assignment(name)
    page = docs_page(assignment)
    assert_states_the_rule(page.read_text(), assignment, str(page.relative_to(ROOT)))


@functools.lru_cache(maxsize=None)
def student_readme(name: str) -> str:
    """The README of ``name``'s student package (built once for the module's tests)."""
    with tempfile.TemporaryDirectory() as folder:
        build_student(name, Path(folder) / "student.zip")
        with zipfile.ZipFile(Path(folder) / "student.zip") as package:
            return package.read("README.md").decode()


@pytest.mark.parametrize("name", NAMES)
def test_the_student_package_readme_states_the_assignments_rule(name: str) -> None:
    assert_states_the_rule(student_readme(name), find_assignment(name),
                           f"{name}'s student README")


@pytest.mark.parametrize("name", NAMES)
def test_the_student_package_readme_wraps_each_paragraph_evenly(name: str) -> None:
    """The rule and the other text put into the README's paragraphs do not leave a line too
    long and the next one a word long ("... is not run, on Gradescope as" / "here."): each
    prose line is within the width, and none could have taken the next line's first word.
    A group worth one point says "1 point"."""
    readme = student_readme(name)
    assert not re.search(r"\b1 points\b", " ".join(readme.split()))
    lines = readme.split("\n")
    prose = [i for i, line in enumerate(lines)
             if line.strip() and not line.startswith(("    ", "#", "- "))]
    assert [lines[i] for i in prose if len(lines[i]) > README_WIDTH] == []
    uneven = [f"{lines[i]!r} / {lines[i + 1]!r}" for i in prose if i + 1 in prose
              and len(lines[i]) + 1 + len(lines[i + 1].split()[0]) <= README_WIDTH]
    assert uneven == []


def test_isolation_allows_the_standard_library_only() -> None:
    """The course's notes for Isolation: "Only the standard library is allowed"."""
    assert find_assignment("isolation").allowed_packages == ()
