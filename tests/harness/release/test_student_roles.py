"""The student package's grader code is declared by role (``student_package``: checkers,
pictures, games) and derived by the build: each role's module in the plug-in code of every
assignment whose cases are graded, with what it imports."""
from __future__ import annotations

import dataclasses

import pytest
from gg_testing import ROOT

from harness.release.build import shippable_code, shipped_modules
from harness.spec import SpecError, find_assignment


def test_a_variant_ships_the_modules_of_the_assignment_whose_cases_it_includes() -> None:
    assert shipped_modules(find_assignment("othello_2025")) == [
        "assignments.othello.checkers", "assignments.othello.pictures",
        "assignments.othello.runners"]
    assert shipped_modules(find_assignment("search_and_games")) == [
        "assignments.search_and_games.checkers", "assignments.adversarial_search.pictures",
        "assignments.search_and_games.pictures"]


def test_a_role_ships_its_module_with_what_it_imports_and_nothing_else() -> None:
    files = {path.relative_to(ROOT).as_posix() for path in
             shippable_code(find_assignment("stonehenge"))}
    assert files == {"assignments/__init__.py", "assignments/stonehenge/__init__.py",
                     "assignments/stonehenge/checkers.py", "assignments/stonehenge/board_text.py"}


def test_a_role_no_module_plays_is_a_spec_error_naming_the_field() -> None:
    assignment = dataclasses.replace(find_assignment("adversarial_search"),
                                     student_package=("checkers",))
    with pytest.raises(SpecError, match="no checkers.py plays the role 'checkers'") as error:
        shipped_modules(assignment)
    assert error.value.field == "student_package"
