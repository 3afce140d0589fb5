"""A memory control group per sandbox: every byte its processes hold counts, and dies with it.

The address-space limit (``RLIMIT_AS``) bounds what one process maps. It does not see memory
that no process maps: the pages of a ``memfd_create`` file written with ``write``, of a tmpfs
(the sandbox's own scratch mounts, or one a student mounts in a user namespace of its own), or
the page cache. One case held 3.6 GB of host memory against a 512 MB limit that way, and the
kernel's out-of-memory killer, which chooses by resident memory, would then have killed someone
else's process. A memory control group charges all of these to the group that wrote them, so
``Limits.sandbox_memory_mb`` bounds the whole sandbox: its zygotes, cases, programs, helpers,
and the shared memory and files they wrote. Over it, the kernel kills inside the group only; the
grader sees the group's out-of-memory count rise and kills the rest of the case
(``session.Sandbox``), whose verdict is "out of memory".

Both control-group versions are handled: v1 (a ``memory`` hierarchy, as on the development
machine) and v2 (the unified hierarchy of newer hosts and containers). The group is made below
the grader's own group, so any bound the host sets on the grader still contains it. Where no
group can be made (not root, a read-only ``/sys/fs/cgroup``, no memory controller), ``find``
says why, results.json names the bound in force, and the fallback is the per-process limit
plus the system calls listed in ``FALLBACK_DENIED_CALLS``, which the sandbox's system-call
filter refuses at that level.

Student processes join the group before they run anything (``join_words``: a root shell writes
its own pid into the group, then execs the rest), and every student process, with or without a
group, has ``oom_score_adj`` 1000: if the host itself runs out of memory, the kernel kills
student code before the grader or anything else. Written by root, the value is also the floor
the process and its children can lower it to.
"""
from __future__ import annotations

import os
import secrets
import signal
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from harness.host import CGROUP_ROOT, own_cgroup_folder
from harness.records.limits import Limits

MiB = 1024 * 1024
GROUP_PREFIX = "gamegrader-"
STUDENT_OOM_SCORE_ADJ = 1000
# v2 only: a group may hold processes or enable controllers for its children, not both (but
# the root). A grader alone in its container's group moves itself into this leaf first.
GRADER_LEAF = "gamegrader-grader"
# What the system-call filter refuses where no memory group can be made (a launch whose
# ``Isolation.memory_procs`` is empty): the two ways to hold memory no process maps (a memfd; a
# tmpfs of one's own, which needs a user namespace first).
# Each entry: (call, the argument index and flag that must be set for it to be refused, or None
# for every call). clone3 passes its flags in memory a filter cannot read, so it is refused with
# ENOSYS and the C library falls back to clone, whose flags it can.
CLONE_NEWUSER = 0x10000000
FALLBACK_DENIED_CALLS: tuple[tuple[str, tuple[int, int] | None], ...] = (
    ("memfd_create", None),
    ("memfd_secret", None),
    ("unshare", (0, CLONE_NEWUSER)),
    ("clone", (0, CLONE_NEWUSER)),
    ("clone3", None),
)
# The shell that puts itself into a group and sets its out-of-memory score, then runs "$@";
# "$0" is the group's process file ("" for none), "$1" the score.
_JOIN = ('if [ -n "$0" ]; then echo $$ > "$0" || exit 95; fi; '
         'echo "$1" > /proc/self/oom_score_adj || exit 94; shift; exec "$@"')


def join_words(procs: str) -> list[str]:
    """The command words that run the rest inside the group whose process file is ``procs``
    ("" for none), with the student's out-of-memory score. They must run before any change of
    user: only root may move a process into the group."""
    return ["/bin/sh", "-c", _JOIN, procs, str(STUDENT_OOM_SCORE_ADJ)]


@dataclass(frozen=True)
class Hierarchy:
    """Where memory groups can be made: the control-group version and the parent folder."""

    version: int
    parent: Path

    @property
    def describe(self) -> str:
        return f"cgroup v{self.version} memory controller"


def find(root: Path = CGROUP_ROOT) -> tuple[Hierarchy | None, str]:
    """The hierarchy memory groups go in, or None and why there is none (``root``: for
    tests)."""
    if os.geteuid() != 0:
        return None, "not root"
    parent = own_cgroup_folder("memory", root) if (root / "memory").is_dir() else None
    if parent is not None:
        return _writable(Hierarchy(1, parent))
    parent = own_cgroup_folder("", root) if (root / "cgroup.controllers").exists() else None
    if parent is None:
        return None, "no memory control group hierarchy"
    if parent.name == GRADER_LEAF:  # moved there by an earlier sandbox of this process
        parent = parent.parent
    if "memory" not in _words(root / "cgroup.controllers"):
        return None, "cgroup v2 without the memory controller"
    why = _enable_memory_v2(parent)
    return (None, why) if why else _writable(Hierarchy(2, parent))


def _words(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8").split()
    except OSError:
        return []


def _enable_memory_v2(parent: Path) -> str:
    """Let ``parent``'s children have memory bounds ("" when done, else why not). A group that
    holds processes cannot; when it holds only this process, it moves to a leaf of its own."""
    control = parent / "cgroup.subtree_control"
    if "memory" in _words(control):
        return ""
    try:
        control.write_text("+memory", encoding="utf-8")
        return ""
    except OSError as exc:
        first = exc
    if _words(parent / "cgroup.procs") != [str(os.getpid())]:
        return f"cannot enable the memory controller in {parent} ({first.strerror})"
    try:
        leaf = parent / GRADER_LEAF
        leaf.mkdir(exist_ok=True)
        (leaf / "cgroup.procs").write_text(str(os.getpid()), encoding="utf-8")
        control.write_text("+memory", encoding="utf-8")
    except OSError as exc:
        return f"cannot enable the memory controller in {parent} ({exc.strerror})"
    return ""


def _writable(hierarchy: Hierarchy) -> tuple[Hierarchy | None, str]:
    if not os.access(hierarchy.parent, os.W_OK):
        return None, f"{hierarchy.parent} is not writable"
    return hierarchy, ""


class MemoryGroup:
    """One sandbox's memory group: made with its bound, read for out-of-memory kills, removed
    (with whatever still runs in it) at ``close``."""

    def __init__(self, hierarchy: Hierarchy, limit_mb: int) -> None:
        self.hierarchy = hierarchy
        self.limit_mb = limit_mb
        sweep_abandoned(hierarchy.parent)
        self.path = hierarchy.parent / f"{GROUP_PREFIX}{os.getpid()}-{secrets.token_hex(4)}"
        self.path.mkdir(mode=0o755)
        try:
            limit = str(limit_mb * MiB)
            if hierarchy.version == 1:
                self._write("memory.limit_in_bytes", limit)
                self._write_if_there("memory.memsw.limit_in_bytes", limit)  # no swap beyond
            else:
                self._write("memory.max", limit)
                self._write_if_there("memory.swap.max", "0")
                self._write_if_there("memory.oom.group", "1")  # the kernel kills all together
        except BaseException:
            self.close()
            raise

    @property
    def procs(self) -> str:
        return str(self.path / "cgroup.procs")

    def _write(self, name: str, value: str) -> None:
        (self.path / name).write_text(value, encoding="utf-8")

    def _write_if_there(self, name: str, value: str) -> None:
        if (self.path / name).exists():
            self._write(name, value)

    def oom_kills(self) -> int:
        """How many processes the kernel killed in this group for want of memory so far."""
        name = "memory.oom_control" if self.hierarchy.version == 1 else "memory.events"
        try:
            lines = (self.path / name).read_text(encoding="utf-8").splitlines()
        except OSError:
            return 0
        for line in lines:
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value)
        return 0

    def close(self) -> None:
        """Kill what is left in the group and remove it."""
        remove_group(self.path)


def _pids(group: Path) -> list[int]:
    return [int(word) for word in _words(group / "cgroup.procs") if word.isdigit()]


def remove_group(group: Path, attempts: int = 50) -> bool:
    """Kill every process in ``group`` (only student code is ever put there) and remove it;
    False if it could not be removed (it is then left for a later sweep)."""
    for _ in range(attempts):
        for pid in _pids(group):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        try:
            group.rmdir()
            return True
        except FileNotFoundError:
            return True
        except OSError:
            time.sleep(0.02)  # killed processes leave the group once they are reaped
    return False


def sweep_abandoned(parent: Path) -> None:
    """Remove the groups of graders that are gone (killed before their ``close``): a group is
    named after the process that made it."""
    try:
        names = [p.name for p in parent.iterdir() if p.name.startswith(GROUP_PREFIX)]
    except OSError:
        return
    for name in names:
        owner = name[len(GROUP_PREFIX):].split("-", 1)[0]
        if owner.isdigit() and int(owner) != os.getpid() and not _alive(int(owner)):
            remove_group(parent / name, attempts=5)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@lru_cache(maxsize=None)
def _hierarchy() -> tuple[Hierarchy | None, str]:
    return find()


def open_memory_group(limits: Limits) -> tuple[MemoryGroup | None, str]:
    """A memory group bounded by ``limits.sandbox_memory_mb``, or None and why there is none
    (the hierarchy is looked for once per process)."""
    hierarchy, why = _hierarchy()
    if hierarchy is None:
        return None, why
    try:
        return MemoryGroup(hierarchy, limits.sandbox_memory_mb), ""
    except OSError as exc:
        return None, f"cannot make a group in {hierarchy.parent} ({exc.strerror})"
