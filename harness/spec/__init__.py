"""Assignment specs: the data that says what to grade (loading, validation, doctest parsing);
its records are ``harness.records.spec``."""
from __future__ import annotations

from harness.spec.assignments import find_assignment, list_assignments, load_assignment
from harness.spec.doctests import parse_transcript, render_doctest
from harness.spec.errors import SpecError
from harness.spec.loader import load_case_file

__all__ = ["SpecError", "find_assignment", "list_assignments", "load_assignment", "load_case_file",
           "parse_transcript", "render_doctest"]
