"""The POSIX modules the sandbox uses, where this system has them (Windows has none).

``pwd`` (sandbox users), ``resource`` (limits) and ``fcntl`` (locks on leases and scratch
roots) are None where they are missing; the sandbox then runs each case in a plain child process
with a wall-clock timeout (``Level.PLAIN``), and the results say so. A student's checker must
run there too; grading hosts always have them.
"""
from __future__ import annotations

import os

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]
try:
    import pwd
except ImportError:  # Windows
    pwd = None  # type: ignore[assignment]
try:
    import resource
except ImportError:  # Windows
    resource = None  # type: ignore[assignment]

MISSING = tuple(name for name, module in (("pwd", pwd), ("resource", resource),
                                          ("fcntl", fcntl)) if module is None)
"""The modules this system lacks (empty on Linux and macOS)."""


def is_root() -> bool:
    """Whether the grader runs as root (never on a system without user ids)."""
    return hasattr(os, "geteuid") and os.geteuid() == 0


__all__ = ["MISSING", "fcntl", "is_root", "pwd", "resource"]
