"""Project-wide promises: Python 3.10 compatibility and generated cases in step with the
reference."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from gg_testing import ROOT

from harness.spec import list_assignments

pytestmark = pytest.mark.slow


def test_no_code_needs_a_python_newer_than_3_10():
    vermin = shutil.which("vermin", path=str(Path(sys.executable).parent))
    assert vermin, "vermin is a dev dependency (pip install -e '.[dev]')"
    done = subprocess.run([vermin, "-q", "--no-tips", "--violations", "-t=3.10-", "harness",
                           "reference", "assignments", "bench", "tests"], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0 and not done.stdout.strip(), done.stdout


def test_the_type_checker_accepts_harness_and_reference_for_python_3_10():
    mypy = shutil.which("mypy", path=str(Path(sys.executable).parent))
    assert mypy, "mypy is a dev dependency (pip install -e '.[dev]')"
    done = subprocess.run([mypy, "harness", "reference", "assignments"], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:]


def test_harness_core_names_no_assignment():
    """Assignment knowledge lives in specs and the reference; the engine never branches on it.
    (Checked on string literals and file names: "isolation" is also an ordinary word.)"""
    for path in (ROOT / "harness").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for name in list_assignments():
            pattern = re.compile(r"[\"'/]" + name + r"(\.py)?[\"'/]|\b" + name + r"\.py\b")
            assert not pattern.search(text), \
                f"{path.relative_to(ROOT)} names the assignment {name!r}"


GROUPED_MODULE = '''
import os
import pytest

pytestmark = pytest.mark.xdist_group("one_worker")


@pytest.mark.parametrize("number", range(6))
def test_note_the_worker(number, tmp_path_factory):
    folder = tmp_path_factory.getbasetemp().parent
    (folder / f"ran-{number}-on-{os.environ['PYTEST_XDIST_WORKER']}").touch()
'''


def test_grouped_modules_run_on_one_worker(tmp_path: Path) -> None:
    """scripts/test.sh relies on ``--dist loadgroup``: a module whose fixture grades everything
    its tests read is marked to run on one worker (pytest 9.2 silently broke this with xdist)."""
    (tmp_path / "test_grouped.py").write_text(GROUPED_MODULE, encoding="utf-8")
    base = tmp_path / "base"
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "2", "--dist", "loadgroup",
                           "-p", "no:cacheprovider", "--rootdir", str(tmp_path),
                           "--basetemp", str(base), str(tmp_path / "test_grouped.py")],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:]
    workers = {path.name.rsplit("-on-", 1)[1] for path in base.glob("ran-*")}
    assert len(list(base.glob("ran-*"))) == 6 and len(workers) == 1, sorted(base.iterdir())
