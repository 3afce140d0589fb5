"""Metadata files shaped like Gradescope's submission_metadata.json, and small results
documents, for the policy tests."""
from __future__ import annotations

from typing import Any

DUE = "2026-11-20T23:59:00-05:00"


def results(score: float, *, hidden: int = 1, extra: dict[str, Any] | None = None,
            output: str = "Assignment: Dominoes") -> dict[str, Any]:
    """A final results document as the grader writes one: a visible and ``hidden`` hidden
    tests."""
    tests = [{"name": "visible check", "number": "1.1", "score": min(score, 10.0),
              "max_score": 10.0, "status": "passed", "output": "", "visibility": "visible"}]
    tests += [{"name": f"hidden check {i}", "number": f"2.{i + 1}", "score": 0.0,
               "max_score": 5.0, "status": "failed", "output": "wrong value",
               "visibility": "after_due_date"} for i in range(hidden)]
    return {"score": score, "execution_time": 3.5, "output": output, "output_format": "text",
            "tests": tests, "extra_data": {"final": True, **(extra or {})}}


def metadata(created_at: str, previous: list[dict[str, Any]] | None = None,
             due: str | None = DUE, late_due: str | None = None) -> dict[str, Any]:
    """Gradescope's metadata: ``previous`` entries are ``{submission_time, score, results?}``
    (Gradescope sends results with the most recent one only)."""
    return {
        "id": 123456, "created_at": created_at, "assignment_id": 42,
        "assignment": {"id": 42, "course_id": 7, "title": "Homework 4", "due_date": due,
                       "late_due_date": late_due, "release_date": "2026-11-01T00:00:00-05:00",
                       "group_submission": True, "group_size": 2, "total_points": "40.0"},
        "submission_method": "upload",
        "users": [{"email": "ada@example.edu", "id": 1, "name": "Ada"},
                  {"email": "bob@example.edu", "id": 2, "name": "Bob"}],
        "previous_submissions": [{"autograder_error": False, **entry}
                                 for entry in (previous or [])],
    }
