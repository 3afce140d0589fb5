"""What a local ``gamegrader check`` covers of an assignment's points, said in one line.

A student's total counts only the cases run on their machine, so the check says how much of the
assignment that is: the visible points it ran out of all visible points, the visible cases that
only Gradescope grades (and why), and the hidden points. In the repository every visible case
runs. The student package, which holds neither the hidden cases nor the visible ones it leaves
out, carries these numbers in ``test_specs/NAME/coverage.yaml``, written by
``gamegrader build --student`` (:func:`coverage_document`); the check reads them from there.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

from harness.records.spec import Assignment
from harness.spec.errors import SpecError
from harness.spec.loader import load_all_cases
from harness.spec.yaml_files import read_yaml

COVERAGE_FILE = "coverage.yaml"


@dataclass(frozen=True)
class LeftOut:
    """A visible case graded on Gradescope only: its name (``group: name``), its points, and
    the trusted code its grading needs that students do not get."""

    name: str
    points: float
    needs: tuple[str, ...]


@dataclass(frozen=True)
class Coverage:
    """An assignment's visible and hidden points, and the visible cases a check cannot run."""

    visible_points: float
    hidden_points: float
    gradescope_only: tuple[LeftOut, ...] = field(default_factory=tuple)
    because: str = ""
    """Why the ``gradescope_only`` cases cannot run here (completes "because ...")."""


def _number(value: float) -> str:
    return f"{value:g}"


def gradescope_only_reason(assignment: Assignment, left_out: list[LeftOut]) -> str:
    """Why ``left_out`` cannot run in the student package (it completes "graded on Gradescope
    only, because ..."): the assignment's own words, else the modules their grading needs."""
    needs = sorted({name for item in left_out for name in item.needs})
    return assignment.gradescope_only_because or (
        f"their grading needs trusted code this package does not hold ({', '.join(needs)})")


def coverage_document(assignment: Assignment, left_out: list[LeftOut]) -> bytes:
    """The package's ``coverage.yaml``: the numbers of the whole assignment (the package holds
    only part of it) and the visible cases it leaves out."""
    cases = load_all_cases(assignment)
    document = {
        "visible_points": sum(c.points for c in cases if c.visibility.value == "visible"),
        "hidden_points": sum(c.points for c in cases if c.visibility.value != "visible"),
        "because": gradescope_only_reason(assignment, left_out) if left_out else "",
        "gradescope_only": [{"case": item.name, "points": item.points, "needs": list(item.needs)}
                            for item in left_out],
    }
    header = "# Written by 'gamegrader build --student': what a local check covers.\n"
    return (header + yaml.safe_dump(document, sort_keys=False, allow_unicode=True,
                                    width=100)).encode()


def _read(path: Any) -> Coverage:
    """A package's coverage file.

    Raises:
        SpecError: the file is not what the build writes.
    """
    data = read_yaml(path)
    try:
        left = tuple(LeftOut(str(item["case"]), float(item["points"]),
                             tuple(str(n) for n in item["needs"]))
                     for item in data["gradescope_only"])
        return Coverage(float(data["visible_points"]), float(data["hidden_points"]), left,
                        str(data["because"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise SpecError(path, f"not a coverage file written by 'gamegrader build --student' "
                        f"({type(exc).__name__}: {exc})") from exc


def coverage_of(assignment: Assignment) -> Coverage:
    """The assignment's coverage here: read from the package's file, or (in the repository,
    where every case is present) counted from the cases."""
    path = assignment.folder / COVERAGE_FILE
    if path.is_file():
        return _read(path)
    cases = load_all_cases(assignment)
    return Coverage(sum(c.points for c in cases if c.visibility.value == "visible"),
                    sum(c.points for c in cases if c.visibility.value != "visible"))


def coverage_lines(coverage: Coverage, points_run: float) -> list[str]:
    """The check's statement of what its total means: one sentence ("Visible cases run here:
    5 of 45 visible points; 3 visible cases (40 points) are graded on Gradescope only, because
    ...; hidden cases: 55 points."), then the visible cases graded on Gradescope only, one a
    line."""
    parts = [f"Visible cases run here: {_number(points_run)} of "
             f"{_number(coverage.visible_points)} visible points"]
    left = coverage.gradescope_only
    if left:
        one = len(left) == 1
        parts.append(
            f"{len(left)} visible case{'' if one else 's'} "
            f"({_number(sum(item.points for item in left))} points) "
            f"{'is' if one else 'are'} graded on Gradescope only, because {coverage.because}")
    parts.append(f"hidden cases: {_number(coverage.hidden_points)} points, graded on "
                 "Gradescope only")
    return ["; ".join(parts) + "."] + [f"  Gradescope only: {item.name} "
                                        f"({_number(item.points)} points)" for item in left]


__all__ = ["COVERAGE_FILE", "Coverage", "LeftOut", "coverage_document", "coverage_lines",
           "coverage_of", "gradescope_only_reason"]
