"""The grading host's details (isolation level, bounds, host speed) are the instructor's: they
go to results.json's extra_data and ``grade``'s own output, never to the output a student reads
on Gradescope or in ``check`` (where only a weaker local isolation is worth a line)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from gg_testing import ROOT, run_gamegrader

from harness.grading.api import weaker_isolation_line

pytestmark = pytest.mark.slow

SOLUTION = ROOT / "assignments" / "adversarial_search" / "solution" / "adversarial_search.py"
HOST_WORDS = ("Isolation:", "Bounds:", "cgroup", "seccomp", "Host speed", "host speed")


def test_students_see_no_host_details_and_instructors_keep_them(tmp_path: Path) -> None:
    output = tmp_path / "results.json"
    done = run_gamegrader("grade", "--assignment", "adversarial_search", "--submission",
                          str(SOLUTION), "--output", str(output), "--quiet")
    assert done.returncode == 0, done.stderr[-3000:]
    document = json.loads(output.read_text(encoding="utf-8"))
    shown = document["output"] + "".join(test.get("output", "") for test in document["tests"])
    assert not [word for word in HOST_WORDS if word in shown], document["output"]
    host = "\n".join(document["extra_data"]["grading_host"])
    assert "Isolation: " in host and "Bounds: memory" in host  # the host speed: test_calibration
    assert "Isolation: " in done.stdout and "Bounds: memory" in done.stdout  # grade's own

    mine = tmp_path / "mine"
    mine.mkdir()
    shutil.copy(SOLUTION, mine / SOLUTION.name)
    checked = run_gamegrader("check", str(mine / SOLUTION.name))
    assert checked.returncode == 0, checked.stderr[-3000:]
    top = checked.stdout.split("\nPASS ", 1)[0]
    local = weaker_isolation_line(document["extra_data"]["isolation_level"])
    assert not [word for word in HOST_WORDS[1:] if word in top], top
    assert ("Isolation:" in top) == bool(local), top


def test_a_weaker_local_isolation_is_one_line_for_the_student() -> None:
    assert weaker_isolation_line("USER_NAMESPACED") == ""
    line = weaker_isolation_line("PLAIN")
    assert line.startswith("Isolation: plain child process with a wall-clock timeout")
    assert line.endswith("results on this computer may differ from the grader's")
    assert weaker_isolation_line("bogus") == ""
