"""The project's tests live in ``tests/`` and in each assignment's ``assignments/NAME/tests/``:
one plugin serves both (``tests/gg_suite.py``: fixtures and hooks, acting only on those tests, so
a course-suite run from here is unchanged), and the suite's helper modules (``tests/gg_*.py``)
are imported by name from both places."""
from __future__ import annotations

import sys
from pathlib import Path

_SUITE = str(Path(__file__).resolve().parent / "tests")
if _SUITE not in sys.path:
    sys.path.insert(0, _SUITE)

pytest_plugins = ["gg_suite"]
