"""Make sure nothing a student started outlives its case."""
from __future__ import annotations

import functools
import itertools
import os
import signal
import subprocess
import time
from typing import IO, Callable, Protocol

from harness.sandbox.levels import SCRATCH_FOLDERS, Isolation
from harness.sandbox.process_times import process_times, run_queue_seconds
from harness.sandbox.removal import empty_folder, remove_tree


class StudentProcess(Protocol):
    """A started student process: a ``subprocess.Popen``, or a program a zygote forked
    (``forkserver.ForkedProgram``)."""

    @property
    def pid(self) -> int: ...

    @property
    def stdin(self) -> IO[bytes] | None: ...

    @property
    def stdout(self) -> IO[bytes] | None: ...

    @property
    def stderr(self) -> IO[bytes] | None: ...

    def poll(self) -> int | None: ...

    def wait(self, timeout: float | None = None) -> int: ...

    def kill(self) -> None: ...


def _kill_group(pgid: int) -> None:
    if not hasattr(os, "killpg"):  # Windows: no process groups; the process is killed alone
        return
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


TAG_VARIABLE = "GG_SANDBOX"
_LIVE: set[int] = set()  # processes this grader started and still supervises
_PR_SET_CHILD_SUBREAPER = 36
_SUBREAPER = [False]


def supervise(pid: int) -> None:
    """Record a process the launcher started (it is not an orphan to sweep)."""
    _LIVE.add(pid)


_SUBREAPER_HOLDERS = [0]  # sandboxes of this process that need it now


def become_subreaper() -> None:
    """Make orphans of student processes children of this process instead of init's, until
    every sandbox that asked has called ``leave_subreaper``.

    Without a pid namespace, an orphan can leave the process group and shed the sandbox tag
    (by exec'ing with a clean environment); as our child it is still found and killed.
    """
    _SUBREAPER_HOLDERS[0] += 1
    if _SUBREAPER[0]:
        return
    _SUBREAPER[0] = _set_subreaper(1)


def leave_subreaper() -> None:
    """For a sandbox that called ``become_subreaper``, when it closes. After the last one,
    every orphan it adopted is killed and reaped (generation after generation, while orphans
    still come to it), then orphans go to init again.

    A process that stayed a subreaper adopted the orphans of every grading it started later
    (a test run, a tournament, a notebook), and left them unreaped: each such zombie counts
    against its sandbox user's process limit (``RLIMIT_NPROC``) for every later grading on
    the host that leases that user, until a zygote could no longer fork and a student's
    threads could be refused.
    """
    _SUBREAPER_HOLDERS[0] = max(0, _SUBREAPER_HOLDERS[0] - 1)
    if _SUBREAPER_HOLDERS[0] or not _SUBREAPER[0]:
        return
    kill_adopted_orphans(None)
    _SUBREAPER[0] = not _set_subreaper(0)


def _set_subreaper(value: int) -> bool:
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_CHILD_SUBREAPER, value, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def remove_user_files(uid: int) -> None:
    """Delete what ``uid`` left at the top of the shared scratch folders (``SCRATCH_FOLDERS``),
    so nothing carries over to later cases or submissions. Only for a user of the sandbox's
    own, never for ``nobody`` or the grader's user; no link is followed (``removal``)."""
    for folder in SCRATCH_FOLDERS:
        try:
            folder_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            for name in os.listdir(folder_fd):
                try:
                    if os.stat(name, dir_fd=folder_fd, follow_symlinks=False).st_uid == uid:
                        remove_tree(name, folder_fd)
                except OSError:
                    continue
        finally:
            os.close(folder_fd)


def namespace_init(process: subprocess.Popen[bytes]) -> int | None:
    """The host pid of the first process of the namespace ``process`` (unshare) started."""
    children = _children(process.pid)
    return children[0] if len(children) == 1 else None


def wipe_private_scratch(init_pid: int, unshare_pid: int) -> None:
    """Empty the sandbox's private scratch mounts (``SCRATCH_FOLDERS``) between two cases.

    They are reached from the host through ``/proc/PID/root`` of the namespace's first process
    (the zygote), pinned by a descriptor of ``/proc/PID``, and only if that process is still the
    child of our ``unshare`` and the folder is not the host's own (a reused pid could otherwise
    point at the host's ``/tmp``). Call it only when no case runs (the zygote has swept).
    """
    try:
        proc_fd = os.open(f"/proc/{init_pid}", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return
    try:
        with open(os.open("stat", os.O_RDONLY | os.O_CLOEXEC, dir_fd=proc_fd), "rb") as stat:
            if int(stat.read().rsplit(b")", 1)[1].split()[1]) != unshare_pid:
                return
        for folder in SCRATCH_FOLDERS:
            try:
                folder_fd = os.open(f"root{folder}", os.O_RDONLY | os.O_DIRECTORY
                                    | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=proc_fd)
            except OSError:
                continue
            try:
                if os.fstat(folder_fd).st_dev != os.stat(folder).st_dev:
                    empty_folder(folder_fd)
            finally:
                os.close(folder_fd)
    except (OSError, ValueError, IndexError):
        return
    finally:
        os.close(proc_fd)


def adopted_orphans(uid: int | None) -> list[int]:
    """Children of this process (a subreaper) owned by ``uid`` (None: by any user but ours)
    that it did not start: orphans of student processes. Trusted children run as our own
    user, so their ``subprocess`` objects keep their exit status."""
    mine = os.geteuid()
    found = []
    for pid in _children(os.getpid()):
        if pid in _LIVE:
            continue
        try:
            owner = os.stat(f"/proc/{pid}").st_uid
        except OSError:
            continue
        if owner == uid if uid is not None else owner != mine:
            found.append(pid)
    return found


ORPHAN_ROUNDS = 1000
"""Most passes of :func:`kill_adopted_orphans`; each pass kills one generation of a chain."""


def kill_adopted_orphans(uid: int | None) -> None:
    """SIGKILL and reap every child of this process owned by ``uid`` (None: by any user but
    ours) that is not supervised, repeating until none is left: once an orphan is reaped, its
    own children are orphans adopted by this process in turn (a chain of untagged processes,
    each in a session of its own, used to lose one generation per case and outlive the last
    one)."""
    for _ in range(ORPHAN_ROUNDS):
        orphans = adopted_orphans(uid)
        if not orphans:
            return
        for pid in orphans:
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)  # reaped: its children have been handed to us already
            except (ProcessLookupError, ChildProcessError, PermissionError):
                pass


def _has_tag(pid: str, tag: str) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as environ:
            return f"{TAG_VARIABLE}={tag}".encode() in environ.read().split(b"\0")
    except OSError:
        return False


def status_field(pid: int, name: str) -> str | None:
    """The value of one field of ``/proc/PID/status`` (``"TracerPid"``, ``"NSpid"``), or None
    when the process is gone or has no such field."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith(f"{name}:"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def _pids_of_user(uid: int, tag: str = "") -> list[int]:
    """Processes of ``uid``; with ``tag``, only those started by one sandbox (see launcher)."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status", encoding="ascii", errors="replace") as status:
                for line in status:
                    if line.startswith("State:") and line.split()[1:2] in (["Z"], ["X"]):
                        break  # dead, only waiting to be reaped: nothing left to kill
                    if line.startswith("Uid:"):
                        if int(line.split()[1]) == uid and (not tag or _has_tag(entry, tag)):
                            pids.append(int(entry))
                        break
        except OSError:
            continue
    return pids


def kill_user_processes(uid: int, tag: str = "", rounds: int = 5, seconds: float = 0.0) -> None:
    """SIGKILL every process of ``uid`` (carrying ``tag``, if given), repeating while new ones
    appear (fork races) or killed ones have not finished exiting: at least ``rounds`` passes,
    and while any is left, until ``seconds`` have passed."""
    deadline = time.monotonic() + seconds
    for round_number in itertools.count():
        pids = _pids_of_user(uid, tag)
        if not pids or (round_number >= rounds and time.monotonic() > deadline):
            return
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        time.sleep(0.01)


LEASED_SWEEP_ROUNDS = 50
"""Most passes of :func:`kill_leased_user_processes` (fork races; ``RLIMIT_NPROC`` bounds how
many processes each pass can meet)."""
LEASED_SWEEP_SECONDS = 5.0
"""How long the sweep of a leased user keeps at it while processes remain: on a loaded machine
killed processes can take more than the rounds' half second to exit, and until they do they
count against the next holder's ``RLIMIT_NPROC`` (under a load average of 11 a test program was
once refused one of its two dozen threads; leftovers still exiting are one way that happens)."""


def kill_leased_user_processes(uid: int) -> None:
    """SIGKILL every process of ``uid``, tagged or not, and reap those adopted by this process.

    Only for a user this process holds the host-wide lease of (``users``): then no other
    grading runs as it, so every process of that user is either this sandbox's or a leftover of
    a sandbox whose grader died before it could sweep (a batch job or a tournament game killed
    at its deadline leaves its students' processes running, in sessions of their own, without
    a pid namespace). The tag cannot decide here: a leftover may shed it or carry a made-up one.
    """
    kill_user_processes(uid, rounds=LEASED_SWEEP_ROUNDS, seconds=LEASED_SWEEP_SECONDS)
    if _SUBREAPER[0]:
        kill_adopted_orphans(uid)


def sweep_free_users() -> None:
    """Kill the leftovers of every pool user no sandbox holds now: for a caller that has just
    killed a job (a batch grading or a tournament game at its deadline) whose sandboxes never
    closed. A user someone holds is left alone; its holder swept it when leasing it."""
    from harness.sandbox.users import NoFreeUser, lease_user, pool
    for name in pool():
        try:
            lease = lease_user([name], wait_seconds=0)
        except (NoFreeUser, OSError, KeyError):
            continue  # held by a live sandbox, or no lease folder of ours (not root)
        try:
            kill_leased_user_processes(lease.uid)
        finally:
            lease.release()


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) of a process, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return fields[0], int(fields[1])
    except (OSError, IndexError, ValueError):
        return None


@functools.lru_cache(maxsize=1)
def _kernel_lists_children() -> bool:
    return os.path.exists(f"/proc/{os.getpid()}/task/{os.getpid()}/children")


def kernel_children(parent: int) -> list[int] | None:
    """The children of ``parent`` from the kernel's per-thread lists (no scan of every
    process: a grading ends hundreds of processes, each with a few hundred others on the
    machine); [] once it is gone; None when the kernel keeps no such lists."""
    if not _kernel_lists_children():
        return None
    try:
        tasks = os.listdir(f"/proc/{parent}/task")
    except OSError:
        return []
    found: list[int] = []
    for task in tasks:
        try:
            with open(f"/proc/{parent}/task/{task}/children", encoding="ascii") as handle:
                found.extend(int(child) for child in handle.read().split())
        except (OSError, ValueError):
            continue  # a thread that ended meanwhile
    return found


def tree_cpu_seconds(parent: int) -> float | None:
    """CPU seconds used so far by every process below ``parent`` (not ``parent`` itself): each
    one's own and that of its children it has reaped. None when no such process could be read.
    Read before a timed-out case is killed, it tells a case that ran out of time computing
    from one that got no CPU to compute with."""
    total, read, pending = 0.0, False, list(_children(parent))
    while pending:
        pid = pending.pop()
        times = process_times(pid)
        if times is None:
            continue
        total, read = total + sum(times), True
        pending.extend(_children(pid))
    return total if read else None


def tree_held_back_seconds(top: int, *, with_top: bool) -> float:
    """Seconds the processes below ``top`` (and ``top`` itself when ``with_top``) have waited,
    runnable, for a CPU that other programs held (``process_times.run_queue_seconds``): how
    much of a case's wall time a busy host took from it. 0.0 when none could be read."""
    total, pending = 0.0, [top] if with_top else list(_children(top))
    while pending:
        pid = pending.pop()
        total += run_queue_seconds(pid) or 0.0
        pending.extend(_children(pid))
    return total


def held_back_extension(started: float, wall: float, patience: float,
                        held_back: Callable[[], float]) -> Callable[[float], float] | None:
    """A case's deadline counted in time the host let it run: ``wall`` seconds after
    ``started``, moved on by the seconds ``held_back`` reads (its wait for a CPU others held),
    up to ``patience`` times ``wall`` (a wall backstop). None when ``patience`` is 1 or less:
    a plain wall deadline. A process that computes or sleeps through its wait ends at it,
    whatever the load; one that a busy host kept from the CPU gets that time back."""
    if patience <= 1:
        return None
    return lambda deadline: min(started + wall * patience, started + wall + held_back())


def process_tree_cpu_seconds(pid: int) -> float | None:
    """CPU seconds used so far by process ``pid`` and every process below it (a case run in a
    fresh interpreter, which is its own tree's top); None when ``pid`` could not be read."""
    times = process_times(pid)
    if times is None:
        return None
    return sum(times) + (tree_cpu_seconds(pid) or 0.0)


def _children(parent: int) -> list[int]:
    found = kernel_children(parent)
    if found is not None:
        return found
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            info = _stat(int(entry))
            if info is not None and info[1] == parent:
                found.append(int(entry))
    return found


def _wait_gone(pids: list[int], seconds: float = 2.0) -> None:
    """Wait until every pid has exited (a zombie counts as gone). A pid namespace's first
    process exits only after the kernel has killed every other process of the namespace."""
    deadline = time.monotonic() + seconds
    while pids and time.monotonic() < deadline:
        pids = [pid for pid in pids if (_stat(pid) or ("Z", 0))[0] not in ("Z", "X")]
        if pids:
            time.sleep(0.005)


def terminate(process: StudentProcess, isolation: Isolation, tag: str = "") -> None:
    """Kill the process and its whole group; at levels without a pid namespace, also every
    process of the sandbox user that carries this sandbox's ``tag`` (orphans that left the
    group). The tag keeps two gradings that share the user from killing each other's work.
    Returns once the processes are gone, so nothing of the student's runs on afterwards."""
    kill_group = getattr(process, "kill_group", None)  # a forked program's own (pidfd) way
    namespace_init = _children(process.pid) \
        if isolation.has_pid_namespace and kill_group is None else []
    if kill_group is not None:
        kill_group()
    else:
        _kill_group(process.pid)
    _LIVE.discard(process.pid)
    if isolation.kill_by_uid and isolation.uid is not None:
        kill_user_processes(isolation.uid, tag)
    if _SUBREAPER[0]:  # adopted orphans (and, at namespaced levels, zombies) are ours to reap
        kill_adopted_orphans(isolation.uid if isolation.uid is not None else os.getuid())
    try:
        process.kill()
    except ProcessLookupError:
        pass
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass
    _wait_gone(namespace_init)
