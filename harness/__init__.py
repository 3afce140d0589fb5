"""gamegrader's grading engine. It knows no assignment: everything specific lives in
``test_specs/``, ``reference/`` and ``student_template/``.

Public surface for assignment authors (comparators, generators, game runners); the records
they build and read (``Case``, ``Observation``, ``Judgement``, ``Verdict``, ``CaseResult``) are
imported from ``harness.records``, their one home. Its names are imported when first used, so
that starting a command costs only the modules it needs, and the ``gamegrader`` command can
start probing the sandbox before the heavy imports (``__main__``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from harness.lazy import lazy_names

_PUBLIC = {
    "per_example": "harness.compare", "show": "harness.compare",
    "strict_equal": "harness.compare",
    "CallResult": "harness.sandbox", "CallServer": "harness.sandbox",
    "Sandbox": "harness.sandbox", "StudentProgram": "harness.sandbox",
    "render_doctest": "harness.spec",
}

__all__ = sorted(_PUBLIC)
__getattr__ = lazy_names(__name__, _PUBLIC)

if TYPE_CHECKING:
    # 'X as X': re-exported names (PEP 484), not unused imports
    from harness.compare import per_example as per_example
    from harness.compare import show as show
    from harness.compare import strict_equal as strict_equal
    from harness.sandbox import CallResult as CallResult
    from harness.sandbox import CallServer as CallServer
    from harness.sandbox import Sandbox as Sandbox
    from harness.sandbox import StudentProgram as StudentProgram
    from harness.spec import render_doctest as render_doctest
