"""gamegrader's grading engine. It knows no assignment: everything specific lives in
``test_specs/``, ``reference/`` and ``student_template/``.

Public surface for assignment authors (comparators, generators, game runners). Its names are
imported when first used, so that starting a command costs only the modules it needs, and the
``gamegrader`` command can start probing the sandbox before the heavy imports (``__main__``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from harness.lazy import lazy_names

_PUBLIC = {
    "Judgement": "harness.compare", "Observation": "harness.compare",
    "per_example": "harness.compare", "show": "harness.compare",
    "strict_equal": "harness.compare",
    "CallResult": "harness.sandbox", "CallServer": "harness.sandbox",
    "Sandbox": "harness.sandbox", "StudentProgram": "harness.sandbox",
    "Case": "harness.spec", "render_doctest": "harness.spec",
    "CaseResult": "harness.grading.verdicts", "Verdict": "harness.grading.verdicts",
}

__all__ = sorted(_PUBLIC)
__getattr__ = lazy_names(__name__, _PUBLIC)

if TYPE_CHECKING:
    from harness.compare import Judgement, Observation, per_example, show, strict_equal
    from harness.grading.verdicts import CaseResult, Verdict
    from harness.sandbox import CallResult, CallServer, Sandbox, StudentProgram
    from harness.spec import Case, render_doctest
