"""Helpers for the workflow tests: a small copy of the Dominoes spec, and submission folders.

The small spec (``small_root``) keeps the 18 infrastructure cases and the 2 handout cases of
``get_best_move`` (8 points) and drops the 64 generated cases, so a submission grades in a few
seconds; everything else (assignment.yaml, comparators, the sandbox) is the real thing.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from harness.release.validate import subset_root
from harness.spec import find_assignment

REPO = Path(__file__).resolve().parents[2]
ASSIGNMENT = "adversarial_search"
SPEC = REPO / "assignments" / ASSIGNMENT
SOLUTION = SPEC / "solution" / "adversarial_search.py"
TEMPLATE = SPEC / "template" / "adversarial_search.py"
SMALL_TOTAL = 8.0


def small_root(folder: Path) -> dict[str, str]:
    """Make a GAMEGRADER_ROOT under ``folder`` with the small spec; return the env to use."""
    subset_root(find_assignment(ASSIGNMENT), ["01_infrastructure", "02_get_best_move"], folder,
                generated=False)
    return {"GAMEGRADER_ROOT": str(folder)}


def mutant_text(old: str, new: str) -> str:
    """The reference solution with ``old`` replaced by ``new`` (which must occur)."""
    text = SOLUTION.read_text()
    assert old in text
    return text.replace(old, new)


LEAVES_TWICE = ("leaves[0] += 1", "leaves[0] += 2")


def gamegrader(*args: str, env: dict[str, str] | None = None, cwd: Path = REPO,
               timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """``python -m harness ARGS`` with ``env`` added to this process's environment."""
    return subprocess.run([sys.executable, "-m", "harness", *args], cwd=cwd, text=True,
                          capture_output=True, timeout=timeout, env={**os.environ, **(env or {})})


def comparable(document: dict[str, Any]) -> dict[str, Any]:
    """A results document without what varies between two runs of the same grading (times)."""
    tests = [{k: v for k, v in t.items() if k != "extra_data"}
             | {"verdict": t.get("extra_data", {}).get("verdict")} for t in document["tests"]]
    return {"score": document["score"], "output": document["output"], "tests": tests}


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))
