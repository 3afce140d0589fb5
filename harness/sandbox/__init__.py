"""Running student code: the only package that starts student processes."""
from __future__ import annotations

from harness.sandbox.levels import Isolation, Level, detect
from harness.sandbox.limits import Limits
from harness.sandbox.programs import CallResult, CallServer, LineTooLong, StudentProgram
from harness.sandbox.session import Sandbox

__all__ = ["CallResult", "CallServer", "Isolation", "Level", "LineTooLong", "Limits", "Sandbox",
           "StudentProgram", "detect"]
