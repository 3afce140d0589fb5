"""Freeze an entrant's processes while it is not on move, so its clock is the only one it uses.

An entrant that keeps computing during its opponent's turn (threads, forked helpers) would take
CPU the opponent's clock is paying for; on a small machine it can starve the opponent into
losing on time. The referee therefore stops every process of the entrant not on move with
SIGSTOP and lets it go on with SIGCONT just before asking it for a move.

Which processes belong to an entrant: the process the sandbox started and all its descendants
(inside a pid namespace an orphan is adopted by the namespace's first process, so it stays a
descendant), plus, when the sandbox user is swept by uid (no pid namespace), every process of
that user carrying the sandbox's tag or adopted by the grader (a child subreaper: an orphan that
re-executed itself with an empty environment sheds the tag, never its parent), with all their
descendants. Freezing repeats its scan until a scan finds nothing new, each scan once the stops
of the previous one have landed, so a process forked during the scan is caught by the next one.

A stop can be swallowed: a process traced by another process of the entrant (``ptrace``, which
no sandbox forbids between processes of one user) only reports SIGSTOP to its tracer, which lets
it run on; two helpers tracing each other both kept computing through every opponent's turn. So
a freeze kills every process of the entrant that is traced: honest code is never traced, and an
entrant whose main process dies this way forfeits its next move as a crash.
"""
from __future__ import annotations

import os
import signal
import time
from dataclasses import dataclass, field
from typing import Iterable, Optional

# The sandbox's own tests for its processes, so both sweeps and freezes find the same ones.
from harness.sandbox.cleanup import _has_tag as has_sandbox_tag
from harness.sandbox.cleanup import adopted_orphans, kernel_children, status_field

SCAN_ROUNDS = 20
"""Most scans per freeze; each round stops what the previous one missed (fork races)."""
SETTLE_SECONDS = 1.0
"""How long a freeze waits for the stopped processes to report the stopped state."""
FIRST_CHECK_SECONDS = 0.00002
LAST_CHECK_SECONDS = 0.001
"""Pauses between checks of the stopped state: from the first, doubling up to the last."""


@dataclass(frozen=True)
class _Proc:
    pid: int
    ppid: int
    state: str
    uid: int


def _read_proc(pid: int) -> Optional[_Proc]:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        uid = os.stat(f"/proc/{pid}").st_uid
        return _Proc(pid, int(fields[1]), fields[0], uid)
    except (OSError, IndexError, ValueError):
        return None


def _table() -> list[_Proc]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            proc = _read_proc(int(entry))
            if proc is not None:
                found.append(proc)
    return found


def _descendants(root: int) -> Optional[list[int]]:
    """``root`` and its descendants through the kernel's per-thread children lists (fast: no
    scan of every process); None when the kernel does not offer them."""
    children = kernel_children(root)
    if children is None:
        return None
    found = [root] if os.path.isdir(f"/proc/{root}/task") else []
    todo = list(children)
    while todo:
        pid = todo.pop()
        children = kernel_children(pid) or []
        if os.path.isdir(f"/proc/{pid}/task"):  # else gone meanwhile
            found.append(pid)
            todo.extend(children)
    return found


def _gone_or_in(pid: int, states: tuple[str, ...]) -> bool:
    proc = _read_proc(pid)
    return proc is None or proc.state in states


def _traced(pid: int) -> bool:
    """Whether a process is traced: its tracer, not SIGSTOP, then decides whether it stops."""
    return status_field(pid, "TracerPid") not in (None, "", "0")


@dataclass
class Freezer:
    """Stops and resumes the processes of one sandboxed entrant.

    Attributes:
        root: pid of the process the sandbox started for the entrant.
        uid: the sandbox user, when leftovers of that user are found by uid (else None).
        tag: the sandbox's tag (see ``harness.sandbox.cleanup``), required with ``uid``.
    """

    root: int
    uid: Optional[int] = None
    tag: str = ""
    stopped: set[int] = field(default_factory=set)

    def members(self) -> list[int]:
        """Pids of the entrant's processes now alive (the root first)."""
        roots = [self.root]
        if self.uid is not None:  # orphans of the user, re-parented to the grader
            roots += [pid for pid in adopted_orphans(self.uid) if pid != self.root]
        if self.uid is not None and self.tag:  # tagged processes of the user, and below them
            # the untagged children they made: a process whose parent is exiting is in no tree
            # and no orphan yet, and its child may have shed the tag (an empty environment).
            roots += [p.pid for p in _table() if p.uid == self.uid and p.pid not in roots
                      and has_sandbox_tag(str(p.pid), self.tag)]
        found: list[int] = []
        for root in roots:
            found += [pid for pid in self._tree(root) if pid not in found]
        return found

    @staticmethod
    def _tree(root: int) -> list[int]:
        """``root`` and its descendants now alive."""
        found = _descendants(root)
        if found is None:  # a kernel without /proc/PID/task/TID/children: scan every process
            table = _table()
            children: dict[int, list[int]] = {}
            for proc in table:
                children.setdefault(proc.ppid, []).append(proc.pid)
            found = []
            todo = [root] if any(p.pid == root for p in table) else []
            while todo:
                pid = todo.pop()
                found.append(pid)
                todo.extend(children.get(pid, ()))
        return found

    def pause(self) -> None:
        """SIGSTOP every process of the entrant and wait (briefly) until they are stopped.

        Each round stops what the scan found and waits for those stops to land before scanning
        again: a process stopped in the middle of ``fork`` completes it first, so its child is
        visible only once the parent has stopped. Traced processes are then killed (see the
        module's doc); their orphans turn up in the next round."""
        for _ in range(SCAN_ROUNDS):
            new = [pid for pid in self.members() if pid not in self.stopped]
            if not new:
                break
            for pid in new:
                try:
                    os.kill(pid, signal.SIGSTOP)
                    self.stopped.add(pid)
                except (ProcessLookupError, PermissionError):
                    pass
            self._settle(new, ("T", "t", "Z", "X"))
            traced = [pid for pid in self.stopped if _traced(pid)]
            for pid in traced:
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            self._settle(traced, ("Z", "X"))  # a killed process runs until it has exited

    @staticmethod
    def _settle(pids: list[int], states: tuple[str, ...]) -> None:
        """Wait (up to ``SETTLE_SECONDS``) until each process is gone or in one of ``states``."""
        # A stopped process cannot run user code even before /proc says so, but the freeze
        # promises the stopped state: wait for it, checking again after short, growing pauses
        # (a stop usually lands within tens of microseconds; a fixed 1 ms sleep cost more than
        # the rest of a move's overhead together).
        deadline = time.monotonic() + SETTLE_SECONDS
        delay = FIRST_CHECK_SECONDS
        waiting = [pid for pid in pids if not _gone_or_in(pid, states)]
        while waiting and time.monotonic() < deadline:
            time.sleep(delay)
            delay = min(2 * delay, LAST_CHECK_SECONDS)
            waiting = [pid for pid in waiting if not _gone_or_in(pid, states)]

    def frozen_members(self) -> list[int]:
        """The processes :meth:`pause` stopped (the members found now when none is stopped):
        what the entrant's CPU time is read from while it is frozen."""
        return sorted(self.stopped) if self.stopped else self.members()

    @staticmethod
    def running_members(known: Iterable[int]) -> list[int]:
        """``known`` processes and their descendants now, through the kernel's children lists
        only (no scan of every process, which costs milliseconds each time with a sandbox user
        swept by uid): what a wait reads the CPU time of, many times a move, while the entrant
        runs. A process outside these trees is found by the next freeze."""
        found: list[int] = []
        for pid in known:
            tree = _descendants(pid)
            found += [member for member in (tree if tree is not None else [pid])
                      if member not in found]
        return found

    def resume(self) -> None:
        """SIGCONT every process stopped by :meth:`pause` (and any member found now)."""
        for pid in set(self.stopped) | set(self.members()):
            try:
                os.kill(pid, signal.SIGCONT)
            except (ProcessLookupError, PermissionError):
                pass
        self.stopped.clear()


def freezer_for(process_pid: int, isolation: object, tag: str) -> Freezer:
    """The freezer of a sandboxed process (a ``StudentProgram`` or a ``CallServer``)."""
    uid = getattr(isolation, "uid", None) if getattr(isolation, "kill_by_uid", False) else None
    return Freezer(process_pid, uid, tag)


__all__ = ["Freezer", "freezer_for"]
