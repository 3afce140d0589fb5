"""Assignment specs: the data that says what to grade (loading, validation, doctest parsing)."""
from __future__ import annotations

from harness.spec.assignments import find_assignment, list_assignments, load_assignment
from harness.spec.doctests import Example, parse_transcript, render_doctest
from harness.spec.errors import SpecError
from harness.spec.loader import load_case_file
from harness.spec.model import ApiEntry, Assignment, Case, Visibility

__all__ = ["ApiEntry", "Assignment", "Case", "Example", "SpecError", "Visibility",
           "find_assignment", "list_assignments", "load_assignment", "load_case_file",
           "parse_transcript", "render_doctest"]
