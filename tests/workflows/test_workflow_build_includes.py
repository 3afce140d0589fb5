"""Packages of an assignment whose case files include another assignment's."""
from __future__ import annotations

import zipfile

import pytest
from gg_testing import ROOT, run_gamegrader

pytestmark = pytest.mark.slow


def test_autograder_zip_carries_included_case_files_and_loads_every_case(tmp_path, monkeypatch):
    out = tmp_path / "autograder.zip"
    assert run_gamegrader("build", "--assignment", "search_and_games", "--out",
                          str(out)).returncode == 0
    names = set(zipfile.ZipFile(out).namelist())
    assert "test_specs/adversarial_search/cases/02_get_best_move.yaml" in names
    assert "test_specs/adversarial_search/generated/02_get_best_move.random_boards.yaml" in names
    assert not any(n.startswith("test_specs/othello") for n in names)
    source = tmp_path / "source"
    zipfile.ZipFile(out).extractall(source)
    monkeypatch.setenv("GAMEGRADER_ROOT", str(source))
    from harness.spec import find_assignment
    from harness.spec.loader import load_all_cases
    cases = load_all_cases(find_assignment("search_and_games", source / "test_specs"))
    in_tree = load_all_cases(find_assignment("search_and_games", ROOT / "test_specs"))
    assert [c.id for c in cases] == [c.id for c in in_tree] and sum(c.points for c in cases) == 100


def test_student_package_inlines_visible_included_cases_only(tmp_path, monkeypatch):
    out = tmp_path / "student.zip"
    assert run_gamegrader("build", "--assignment", "search_and_games", "--student", "--out",
                          str(out)).returncode == 0
    archive = zipfile.ZipFile(out)
    names = set(archive.namelist())
    # No included case file of adversarial_search (its painter, declared safe, ships as code).
    assert not any("/generated/" in n or ("adversarial_search" in n
                                         and not n.startswith("reference/")) for n in names)
    text = archive.read("test_specs/search_and_games/cases/11_get_best_move.yaml").decode()
    assert "((0, 1), 3, 10)" in text and "#01" not in text  # handout cases in, hidden ones out
