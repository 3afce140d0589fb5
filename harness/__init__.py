"""gamegrader's grading engine. It knows no assignment: everything specific lives in
``test_specs/``, ``reference/`` and ``student_template/``.

Public surface for assignment authors (comparators, generators, game runners):
"""
from __future__ import annotations

from harness.compare import Judgement, Observation, per_example, show, strict_equal
from harness.sandbox import CallResult, CallServer, Sandbox, StudentProgram
from harness.spec import Case, render_doctest
from harness.verdicts import CaseResult, Verdict

__all__ = ["CallResult", "CallServer", "Case", "CaseResult", "Judgement", "Observation",
           "Sandbox", "StudentProgram", "Verdict", "per_example", "render_doctest", "show",
           "strict_equal"]
