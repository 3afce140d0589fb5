"""docs/adding_an_assignment.md is the tested path: its list of the files to write is exactly the
connect-four fixture's files, its stated count is that list's length, and a copy of the fixture
built from that list alone grades (``gamegrader validate``: the reference passes every case, each
wrong implementation fails exactly its cases)."""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from gg_testing import ROOT, run_gamegrader

DOC = ROOT / "docs" / "adding_an_assignment.md"
FIXTURE = ROOT / "tests" / "fixtures" / "connect_four"
MARK = "<!-- files to write -->"


def files_to_write(text: str) -> tuple[int, list[str]]:
    """The count the page states (``## The files to write: N``) and the listed paths (the
    ``- `path`...`` lines after the mark, up to the first other line)."""
    stated = re.search(r"^## The files to write: (\d+)$", text, re.MULTILINE)
    assert stated, f"{DOC.name} states no count ('## The files to write: N')"
    assert MARK in text, f"{DOC.name} has no list marked {MARK}"
    listed = []
    for line in text.split(MARK, 1)[1].lstrip("\n").splitlines():
        found = re.match(r"- `([^`]+)`", line)
        if not found:
            break
        listed.append(found.group(1))
    return int(stated.group(1)), listed


def fixture_files() -> set[str]:
    return {path.relative_to(FIXTURE).as_posix() for path in FIXTURE.rglob("*")
            if path.is_file() and "__pycache__" not in path.parts}


def test_the_page_lists_exactly_the_fixture_s_files_in_one_folder_and_counts_them() -> None:
    count, listed = files_to_write(DOC.read_text(encoding="utf-8"))
    assert count == len(listed) == len(set(listed))
    assert set(listed) == fixture_files()
    assert {path.split("/")[:2] == ["assignments", "connect_four"] for path in listed} == {True}
    assert "assignments/connect_four/mutants.yaml" in listed
    assert "assignments/connect_four/README.md" in listed  # its page, and its tests:
    assert [path for path in listed if path.startswith("assignments/connect_four/tests/")]


def test_the_reader_sees_a_file_left_out_of_the_list() -> None:
    text = DOC.read_text(encoding="utf-8")
    shorter = text.replace("- `assignments/connect_four/README.md`", "README.md")
    count, listed = files_to_write(shorter)
    assert len(listed) == count - 1 and set(listed) != fixture_files()


@pytest.mark.slow  # starts processes (gamegrader)
def test_a_fixture_built_from_the_page_s_list_grades(tmp_path: Path) -> None:
    _, listed = files_to_write(DOC.read_text(encoding="utf-8"))
    for name in listed:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(FIXTURE / name, tmp_path / name)
    env = {"GAMEGRADER_ROOT": str(tmp_path),
           "PYTHONPATH": os.pathsep.join(p for p in (str(tmp_path), os.environ.get("PYTHONPATH"))
                                         if p)}
    done = run_gamegrader("validate", "connect_four", env=env)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "reference solution passes every case" in done.stdout
    assert "wrong implementation 'keeps_no_move' fails exactly its cases" in done.stdout
