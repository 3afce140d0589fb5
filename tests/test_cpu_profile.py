"""The per-test CPU profile (tests/gg_cpu_profile.py) finds the group that counts a process's
CPU time on either cgroup version, reads its usage, and ranks what the log holds; the run's
total (scripts/core_seconds.sh) comes with the host's speed and its nominal-speed equivalent."""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from gg_cpu_profile import own_group, summarize, usage_microseconds

V1 = "12:cpu,cpuacct:/gamegrader-tests-7\n11:memory:/\n1:name=systemd:/init.scope\n"
V2 = "0::/user.slice/gamegrader-tests-7\n"


def test_cgroup_v1_s_cpuacct_hierarchy_is_found_under_its_mount_name(tmp_path: Path) -> None:
    (tmp_path / "cpu,cpuacct").mkdir()
    assert own_group(V1, tmp_path) == (tmp_path / "cpu,cpuacct" / "gamegrader-tests-7",
                                       "cpuacct.usage")


def test_cgroup_v2_s_group_is_used_where_v1_has_no_cpuacct(tmp_path: Path) -> None:
    (tmp_path / "cgroup.controllers").write_text("cpu memory\n")
    assert own_group(V2, tmp_path) == (tmp_path / "user.slice" / "gamegrader-tests-7",
                                       "cpu.stat")
    assert own_group(V1, tmp_path) is None  # v1 lines but no cpuacct mounted here


def test_nothing_is_measured_without_a_control_group_file_system(tmp_path: Path) -> None:
    assert own_group(V2, tmp_path) is None


def test_usage_is_read_in_microseconds_on_both_versions(tmp_path: Path) -> None:
    (tmp_path / "cpuacct.usage").write_text("2500000000\n")
    (tmp_path / "cpu.stat").write_text("usage_usec 2500000\nuser_usec 2000000\n")
    assert usage_microseconds(tmp_path, "cpuacct.usage") == 2_500_000
    assert usage_microseconds(tmp_path, "cpu.stat") == 2_500_000


def test_the_summary_adds_phases_and_parameters_per_function_and_per_file() -> None:
    log = ["1500000\tsetup\ttests/a.py::test_x[one]@group\n",
           "2000000\tcall\ttests/a.py::test_x[two]\n",
           "500000\tcall\ttests/b.py::test_y\n",
           "not a line\n"]
    functions, files = summarize(log)
    assert functions == {"tests/a.py::test_x": 3.5, "tests/b.py::test_y": 0.5}
    assert files == {"tests/a.py": 3.5, "tests/b.py": 0.5}


@pytest.mark.slow
def test_a_run_s_core_seconds_come_with_the_host_s_speed_and_their_nominal_equivalent() -> None:
    """A run sourcing scripts/core_seconds.sh (as scripts/test.sh does) ends by printing its
    core-seconds, the host's speed measured before and after, and the count at nominal speed."""
    repo = Path(__file__).resolve().parents[1]
    env = {name: value for name, value in os.environ.items()  # as a run on its own, quiet
           if name not in ("GG_BESIDE_BURNERS", "GG_SPEED_BEFORE")}
    done = subprocess.run(["bash", "-c", "source scripts/core_seconds.sh; "
                           "python3 -c 'sum(range(3_000_000))'"],
                          cwd=repo, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    used = re.search(r"^core-seconds: (\d+) used by this run", done.stdout, re.M)
    speed = re.search(r"^host speed: ([\d.]+)x nominal before the run, ([\d.]+)x after: "
                      r"about (\d+) core-seconds at nominal speed$", done.stdout, re.M)
    assert used and speed, done.stdout
    before, after, nominal = float(speed[1]), float(speed[2]), int(speed[3])
    assert 0.1 <= before <= 10 and 0.1 <= after <= 10
    assert abs(nominal - int(used[1]) * (before + after) / 2) <= 1
