"""Running student code: the only package that starts student processes.

The names below are imported on first use (PEP 562), so ``harness.sandbox.levels`` can be
imported, and the host probed, without loading the whole package (see ``prefetch``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from harness.lazy import lazy_names

_PUBLIC = {
    "Isolation": "harness.sandbox.levels", "Level": "harness.sandbox.levels",
    "detect": "harness.sandbox.levels", "Limits": "harness.sandbox.limits",
    "CallResult": "harness.sandbox.programs", "CallServer": "harness.sandbox.programs",
    "LineTooLong": "harness.sandbox.programs", "StudentProgram": "harness.sandbox.programs",
    "Sandbox": "harness.sandbox.session",
}

__all__ = sorted(_PUBLIC)
__getattr__ = lazy_names(__name__, _PUBLIC)

if TYPE_CHECKING:
    from harness.sandbox.levels import Isolation, Level, detect
    from harness.sandbox.limits import Limits
    from harness.sandbox.programs import CallResult, CallServer, LineTooLong, StudentProgram
    from harness.sandbox.session import Sandbox
