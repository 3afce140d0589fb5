"""Memory control groups (``harness.sandbox.memory_group``): finding the hierarchy under both
control-group versions, making a bounded group, reading its out-of-memory kills, and removing the
groups of graders that are gone. The file trees here are stand-ins for /sys/fs/cgroup; the real
kernel is exercised in test_sandbox.py."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness.sandbox import memory_group
from harness.sandbox.memory_group import Hierarchy, MemoryGroup

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(os.geteuid() != 0, reason="groups are made by root only")]


def _own_cgroup(monkeypatch, text: str) -> None:
    """Make /proc/self/cgroup read as ``text`` for ``harness.host``."""
    real = Path.read_text

    def read_text(path: Path, *args, **kwargs) -> str:
        return text if str(path) == "/proc/self/cgroup" else real(path, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", read_text)


def test_v1_groups_go_below_the_grader_s_own_memory_group(tmp_path, monkeypatch):
    own = tmp_path / "memory" / "jobs" / "grader"
    own.mkdir(parents=True)
    _own_cgroup(monkeypatch, "4:memory:/jobs/grader\n1:cpu:/\n0::/\n")
    assert memory_group.find(tmp_path) == (Hierarchy(1, own), "")


def test_v2_enables_the_memory_controller_for_the_children(tmp_path, monkeypatch):
    own = tmp_path / "grading"
    own.mkdir()
    (tmp_path / "cgroup.controllers").write_text("cpu io memory pids\n")
    (own / "cgroup.subtree_control").write_text("")
    _own_cgroup(monkeypatch, "0::/grading\n")
    assert memory_group.find(tmp_path) == (Hierarchy(2, own), "")
    assert (own / "cgroup.subtree_control").read_text() == "+memory"


def test_v2_alone_in_its_group_moves_itself_to_a_leaf_first(tmp_path, monkeypatch):
    """A group may not hold processes and give its children controllers: a grader alone in its
    container's group moves to a leaf of its own, then enables memory for the children."""
    (tmp_path / "cgroup.controllers").write_text("memory\n")
    (tmp_path / "cgroup.procs").write_text(f"{os.getpid()}\n")
    control = tmp_path / "cgroup.subtree_control"
    control.mkdir()  # writing fails the first time, as the kernel refuses it (EBUSY) ...
    moved = []

    def enable_after_move(path: Path) -> None:
        moved.append(path.read_text())
        control.rmdir()  # ... and succeeds once the group holds no process
        control.write_text("")

    real_write = Path.write_text

    def write_text(path: Path, data: str, *args, **kwargs):
        result = real_write(path, data, *args, **kwargs)
        if path.name == "cgroup.procs" and path.parent.name == memory_group.GRADER_LEAF:
            enable_after_move(path)
        return result

    monkeypatch.setattr(Path, "write_text", write_text)
    _own_cgroup(monkeypatch, "0::/\n")
    assert memory_group.find(tmp_path) == (Hierarchy(2, tmp_path), "")
    assert moved == [str(os.getpid())]
    assert control.read_text() == "+memory"


def test_v2_with_other_processes_in_the_group_says_why_there_is_no_group(tmp_path, monkeypatch):
    (tmp_path / "cgroup.controllers").write_text("memory\n")
    (tmp_path / "cgroup.procs").write_text(f"1\n{os.getpid()}\n")
    (tmp_path / "cgroup.subtree_control").mkdir()  # refused
    _own_cgroup(monkeypatch, "0::/\n")
    hierarchy, why = memory_group.find(tmp_path)
    assert hierarchy is None and "cannot enable the memory controller" in why


def test_no_memory_controller_is_reported(tmp_path, monkeypatch):
    (tmp_path / "cgroup.controllers").write_text("cpu pids\n")
    _own_cgroup(monkeypatch, "0::/\n")
    assert memory_group.find(tmp_path) == (None, "cgroup v2 without the memory controller")
    _own_cgroup(monkeypatch, "")
    assert memory_group.find(tmp_path / "none") == (None, "no memory control group hierarchy")


@pytest.mark.parametrize("version, files, events", [
    (1, {"memory.limit_in_bytes": "", "memory.memsw.limit_in_bytes": ""},
     ("memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill 3\n")),
    (2, {"memory.max": "", "memory.swap.max": "", "memory.oom.group": ""},
     ("memory.events", "low 0\nhigh 0\nmax 9\noom 2\noom_kill 3\n")),
])
def test_a_group_is_bounded_and_counts_its_kills(tmp_path, monkeypatch, version, files, events):
    real_mkdir = Path.mkdir

    def mkdir(path: Path, *args, **kwargs) -> None:  # the kernel fills a new group's folder
        real_mkdir(path, *args, **kwargs)
        for name, text in {**files, events[0]: events[1]}.items():
            (path / name).write_text(text)

    monkeypatch.setattr(Path, "mkdir", mkdir)
    group = MemoryGroup(Hierarchy(version, tmp_path), 96)
    assert group.path.parent == tmp_path and group.procs == str(group.path / "cgroup.procs")
    written = {name: (group.path / name).read_text() for name in files}
    assert written.pop("memory.oom.group", "1") == "1"
    assert written.pop("memory.swap.max", "0") == "0"
    assert set(written.values()) == {str(96 * 1024 * 1024)}
    assert group.oom_kills() == 3
    for name in [*files, events[0]]:
        (group.path / name).unlink()
    group.close()
    assert not group.path.exists()


def test_the_groups_of_graders_that_are_gone_are_removed(tmp_path):
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    abandoned = tmp_path / f"gamegrader-{gone}-0a1b"
    alive = tmp_path / f"gamegrader-{os.getppid()}-2c3d"
    leaf = tmp_path / memory_group.GRADER_LEAF
    for folder in (abandoned, alive, leaf):
        folder.mkdir()
    memory_group.sweep_abandoned(tmp_path)
    assert not abandoned.exists()
    assert alive.exists() and leaf.exists()


HEADERS = [Path("/usr/include/x86_64-linux-gnu/asm/unistd_64.h"),
           Path("/usr/include/asm-generic/unistd.h")]


@pytest.mark.skipif(not (Path("/usr/include/linux/sched.h").exists()
                         and any(h.exists() for h in HEADERS)), reason="no kernel headers")
def test_the_fallback_denials_name_real_calls_and_flags():
    """What the system-call filter refuses where no group can be made (read by its builder):
    every name is a system call of the kernel's headers, and the flag is CLONE_NEWUSER's."""
    calls = " ".join(h.read_text() for h in HEADERS if h.exists())
    for name, _ in memory_group.FALLBACK_DENIED_CALLS:
        assert f"__NR_{name} " in calls, name
    sched = Path("/usr/include/linux/sched.h").read_text().split()
    assert int(sched[sched.index("CLONE_NEWUSER") + 1], 16) == memory_group.CLONE_NEWUSER
    flags = dict(memory_group.FALLBACK_DENIED_CALLS)
    assert flags["unshare"] == flags["clone"] == (0, memory_group.CLONE_NEWUSER)
