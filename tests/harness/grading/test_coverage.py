"""What ``gamegrader check`` says it covers (issue 36): in the repository every visible case
runs; a student package's ``coverage.yaml`` (written by the build) carries the numbers of the
whole assignment and the visible cases graded on Gradescope only, with why."""
from __future__ import annotations

from dataclasses import replace

import pytest

from harness.grading.coverage import (
    COVERAGE_FILE,
    Coverage,
    LeftOut,
    coverage_document,
    coverage_lines,
    coverage_of,
)
from harness.spec import SpecError, find_assignment
from harness.spec.loader import load_all_cases


def test_in_the_repository_every_visible_point_runs_and_the_hidden_points_are_counted():
    assignment = find_assignment("adversarial_search")
    cases = load_all_cases(assignment)
    coverage = coverage_of(assignment)
    assert coverage == Coverage(sum(c.points for c in cases if c.visibility.value == "visible"),
                                sum(c.points for c in cases if c.visibility.value != "visible"))
    assert coverage.hidden_points > 0 and coverage.gradescope_only == ()
    assert coverage_lines(coverage, coverage.visible_points) == [
        f"Visible cases run here: {coverage.visible_points:g} of {coverage.visible_points:g} "
        f"visible points; hidden cases: {coverage.hidden_points:g} points, graded on Gradescope "
        "only."]


def test_a_package_file_names_each_case_left_out_and_why(tmp_path):
    assignment = replace(find_assignment("isolation"), folder=tmp_path,
                         gradescope_only_because="their referee needs the rules you write")
    left = [LeftOut("games: a", 5.0, ("reference.x.runners",)),
            LeftOut("games: b", 15.0, ("reference.x.runners",))]
    (tmp_path / COVERAGE_FILE).write_bytes(coverage_document(assignment, left))
    coverage = coverage_of(assignment)
    assert coverage.gradescope_only == tuple(left)
    assert coverage.because == assignment.gradescope_only_because != ""
    lines = coverage_lines(coverage, 5)
    assert lines[0] == (
        f"Visible cases run here: 5 of {coverage.visible_points:g} visible points; 2 visible "
        f"cases (20 points) are graded on Gradescope only, because {coverage.because}; hidden "
        f"cases: {coverage.hidden_points:g} points, graded on Gradescope only.")
    assert lines[1:] == ["  Gradescope only: games: a (5 points)",
                         "  Gradescope only: games: b (15 points)"]


def test_without_a_reason_of_its_own_the_modules_needed_are_named(tmp_path):
    assignment = replace(find_assignment("isolation"), folder=tmp_path, gradescope_only_because="")
    (tmp_path / COVERAGE_FILE).write_bytes(
        coverage_document(assignment, [LeftOut("g: c", 1.0, ("reference.x.runners",))]))
    line = coverage_lines(coverage_of(assignment), 0)[0]
    assert "1 visible case (1 points) is graded on Gradescope only, because their grading " \
           "needs trusted code this package does not hold (reference.x.runners); hidden " \
           "cases" in line


def test_a_broken_coverage_file_is_a_clear_error(tmp_path):
    assignment = replace(find_assignment("isolation"), folder=tmp_path)
    (tmp_path / COVERAGE_FILE).write_text("visible_points: 3\n")
    with pytest.raises(SpecError, match="not a coverage file written by 'gamegrader build "
                                        "--student'"):
        coverage_of(assignment)
