"""Issue 53, item 4: ``check`` and ``grade`` on a terminal show each case as it finishes, on a
bar redrawn in place; with stderr not a terminal (a log, CI, Gradescope) they print no progress."""
from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from gg_testing import ROOT

from harness.release.validate import subset_root
from harness.spec import find_assignment

pytestmark = pytest.mark.slow

SOLUTION = ROOT / "assignments" / "adversarial_search" / "solution" / "adversarial_search.py"


def run(args: list[str], env: dict[str, str], terminal: bool) -> tuple[int, str, str]:
    """``python -m harness ARGS``, its stderr a pseudo-terminal when ``terminal``."""
    if not terminal:
        done = subprocess.run([sys.executable, "-m", "harness", *args], cwd=ROOT, text=True,
                              capture_output=True, env={**os.environ, **env}, timeout=600)
        return done.returncode, done.stdout, done.stderr
    master, slave = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "harness", *args], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL,
                               env={**os.environ, **env})
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(master, 1 << 16)
            except OSError:  # the terminal's other end closed: the command ended
                break
            if not chunk:
                break
            seen += chunk
        elif process.poll() is not None:
            break
    os.close(master)
    stdout = process.stdout.read().decode() if process.stdout else ""
    return process.wait(), stdout, seen.decode(errors="replace")


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = subset_root(find_assignment("adversarial_search"),
                       ["01_infrastructure", "02_get_best_move"],
                       tmp_path_factory.mktemp("root") / "root", generated=False)
    return {"GAMEGRADER_ROOT": str(root)}


@pytest.mark.parametrize("command", ["check", "grade"])
def test_each_case_shows_as_it_finishes_on_a_terminal_and_nothing_elsewhere(
        small: dict[str, str], tmp_path: Path, command: str) -> None:
    student = tmp_path / "adversarial_search.py"
    student.write_text(SOLUTION.read_text(encoding="utf-8"), encoding="utf-8")
    args = (["check", str(student)] if command == "check" else
            ["grade", "--assignment", "adversarial_search", "--submission", str(student),
             "--output", str(tmp_path / "results.json")])
    label = "checking" if command == "check" else "grading"
    status, _, stderr = run(args, small, terminal=True)
    assert status == 0, stderr[-2000:]
    assert f"{label} [" in stderr and " 1/22 " in stderr and " 22/22 " in stderr
    assert "PASS 2.1 empty 3x3 board" in stderr and "[4/4]" in stderr
    assert "\r\x1b[K" in stderr  # redrawn in place, one line

    status, _, stderr = run(args, small, terminal=False)
    assert status == 0, stderr[-2000:]
    assert f"{label} [" not in stderr and "." * 22 not in stderr


PLAYER = ROOT / "assignments" / "isolation" / "solution" / "player.py"


def test_play_shows_each_game_as_it_finishes_on_a_terminal_and_nothing_elsewhere(
        tmp_path: Path) -> None:
    student = tmp_path / "player.py"
    student.write_text(PLAYER.read_text(encoding="utf-8"), encoding="utf-8")
    args = ["play", str(student), "--bot", "random", "--games", "2", "--out",
            str(tmp_path / "games")]
    status, stdout, stderr = run(args, {}, terminal=True)
    assert status == 0, stderr[-2000:]
    assert "playing [" in stderr and " 1/2 " in stderr and " 2/2 " in stderr
    assert "random game 1: " in stderr and "random game 2: " in stderr
    assert "\r\x1b[K" in stderr  # redrawn in place, one line
    assert "random: won " in stdout  # the report itself is unchanged, on stdout

    status, stdout, stderr = run(args, {}, terminal=False)
    assert status == 0, stderr[-2000:]
    assert "playing [" not in stderr and "random: won " in stdout
