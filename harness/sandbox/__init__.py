"""Running student code: the only package that starts student processes.

The names below are imported on first use (PEP 562), so ``harness.sandbox.levels`` can be
imported, and the host probed, without loading the whole package (see ``prefetch``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from harness.lazy import lazy_names

_PUBLIC = {
    "Isolation": "harness.sandbox.levels", "Level": "harness.sandbox.levels",
    "detect": "harness.sandbox.levels",
    "CallResult": "harness.sandbox.programs", "CallServer": "harness.sandbox.programs",
    "LineTooLong": "harness.sandbox.programs", "StudentProgram": "harness.sandbox.programs",
    "Sandbox": "harness.sandbox.session",
}

__all__ = sorted(_PUBLIC)
__getattr__ = lazy_names(__name__, _PUBLIC)

if TYPE_CHECKING:
    # 'X as X': re-exported names (PEP 484), not unused imports
    from harness.sandbox.levels import Isolation as Isolation
    from harness.sandbox.levels import Level as Level
    from harness.sandbox.levels import detect as detect
    from harness.sandbox.programs import CallResult as CallResult
    from harness.sandbox.programs import CallServer as CallServer
    from harness.sandbox.programs import LineTooLong as LineTooLong
    from harness.sandbox.programs import StudentProgram as StudentProgram
    from harness.sandbox.session import Sandbox as Sandbox
