"""Helpers shared by the test folders (import as ``from gg_testing import ...``).

A module of its own rather than ``conftest``: several test folders have a conftest.py, and
``from conftest import`` would pick whichever was imported first.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# Flags that start Debian's Chromium headless as root on a machine with no network.
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]
NO_CHROMIUM = ("Chromium is not installed: scripts/test.sh installs Debian's chromium when run "
               "as root (CI does); elsewhere apt-get install chromium")


def chromium(*args: str, profile: Path) -> subprocess.CompletedProcess[str]:
    """Run headless Chromium with a fresh profile folder (e.g. ``--dump-dom URL``)."""
    assert CHROMIUM is not None, NO_CHROMIUM
    return subprocess.run([CHROMIUM, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
                          capture_output=True, text=True, timeout=120)


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


def shared_folder(prefix: str = "gg-shared-") -> Path:
    """A new world-writable folder every sandbox user can reach, for marks left by student code.

    Not under /tmp, /var/tmp, /dev/shm or /run/lock: at the namespaced levels student code sees
    private mounts there, so a mark it left would never reach the test. The caller removes it.
    """
    import tempfile
    base = None
    if os.geteuid() == 0:
        base = Path("/var/lib/gamegrader-tests")
        base.mkdir(mode=0o755, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix=prefix, dir=base))
    os.chmod(folder, 0o1777)
    return folder
