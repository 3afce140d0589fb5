"""Helpers shared by the test folders (import as ``from gg_testing import ...``).

A module of its own rather than ``conftest``: several test folders have a conftest.py, and
``from conftest import`` would pick whichever was imported first.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def run_gamegrader(*args: str, timeout: float = 600, env: dict[str, str] | None = None
                   ) -> subprocess.CompletedProcess[str]:
    """Run ``python -m harness ARGS`` from the repository root and capture its output."""
    return subprocess.run([sys.executable, "-m", "harness", *args], cwd=ROOT, text=True,
                          capture_output=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


def scores_by_group(document: dict[str, Any]) -> dict[str, float]:
    """Total score per case group (the part of a test name before ': ')."""
    totals: dict[str, float] = {}
    for test in document["tests"]:
        group = test["name"].split(": ", 1)[0]
        totals[group] = round(totals.get(group, 0.0) + test["score"], 4)
    return totals
