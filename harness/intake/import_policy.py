"""What a student's file may import, and the one message when an import of a package fails.

The sandbox offers Python's standard library, the student's own files and the packages the
assignment's ``allowed_packages`` lists. A file importing anything else fails to import; rather
than a bare ``ModuleNotFoundError`` on every case, the student reads once, at the top, which
import is refused and what is allowed. An allowed package that is missing is the grader's fault,
and the message says so, for the instructor.
"""
from __future__ import annotations

import re
import sys
from typing import Sequence

from harness.intake.python2 import MODULES as PYTHON2_MODULES
from harness.intake.python2 import python2_note
from harness.records.observations import ErrorInfo
from harness.records.spec import AllowedPackage

_MISSING = re.compile(r"No module named '([A-Za-z_][\w.]{0,200})'")


def missing_module(error: ErrorInfo) -> str | None:
    """The dotted name a ModuleNotFoundError could not find, or None for any other error."""
    if error.type != "ModuleNotFoundError":
        return None
    match = _MISSING.fullmatch(error.message.strip())
    return match.group(1) if match else None


def allowed_text(allowed: Sequence[AllowedPackage]) -> str:
    return ", ".join(p.module for p in allowed) or "Python's standard library only"


def imports_rule(allowed: Sequence[AllowedPackage]) -> str:
    """The one sentence that states what a student's file may import, word for word the same in
    the template, the assignment's docs page and the student package's README, so they cannot
    say different things (tests/harness/spec/test_imports_rule.py checks them)."""
    if not allowed:
        return "Imports: Python's standard library only."
    return f"Imports: Python's standard library plus {', '.join(p.module for p in allowed)}."


def refused_import(error: ErrorInfo, allowed: Sequence[AllowedPackage],
                   python: str = "") -> str | None:
    """The message for an import that failed because of what this course allows or what this
    grader has installed, or because the module is Python 2's (``python``: the grader's version,
    for the message); None when the failure is something else (a bug, a stdlib module the
    machine lacks, a missing submodule of an installed package)."""
    name = missing_module(error)
    if name is None:
        return None
    top = name.split(".")[0]
    if top in sys.stdlib_module_names:
        return None
    if top in PYTHON2_MODULES:
        return (f"{python2_note(error, python)} (if {top} is a module of your own, submit "
                f"{top}.py with your file)")
    if top in {package.module for package in allowed}:
        if name != top:
            return None  # the package is there; the submodule is not
        return (f"your file imports {top}, which this course allows, but it is not installed on "
                f"this grader; please tell your instructor (instructors: run 'gamegrader "
                f"packages install' where the grader runs; see the README, 'Allowed packages')")
    return (f"your file imports {top}, which this course does not allow; allowed: "
            f"{allowed_text(allowed)}. Remove the import and the code that uses it (if {top} is "
            f"a module of your own, submit {top}.py with your file)")

