"""gamegrader's grading engine. It knows no assignment: everything specific lives in
``assignments/`` and ``reference/``.

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
    # 'X as X': re-exported names (PEP 484), not unused imports
    from harness.compare import Judgement as Judgement
    from harness.compare import Observation as Observation
    from harness.compare import per_example as per_example
    from harness.compare import show as show
    from harness.compare import strict_equal as strict_equal
    from harness.grading.verdicts import CaseResult as CaseResult
    from harness.grading.verdicts import Verdict as Verdict
    from harness.sandbox import CallResult as CallResult
    from harness.sandbox import CallServer as CallServer
    from harness.sandbox import Sandbox as Sandbox
    from harness.sandbox import StudentProgram as StudentProgram
    from harness.spec import Case as Case
    from harness.spec import render_doctest as render_doctest
