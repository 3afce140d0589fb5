"""Which isolation the machine allows, decided once per run and reported in the output.

Candidates are tried strongest first; the first that can start the interpreter wins:

1. as root, with the sandbox user (created by ``setup.sh``): that user, in fresh network, pid
   and mount namespaces (``unshare``), so student code has no network, every process it starts
   dies with the case, and ``/tmp`` and the like are private mounts;
2. as root, with the sandbox user, without namespaces: that user; leftovers are killed by uid;
3. namespaces without the sandbox user: as root, running as ``nobody``; not root, in a fresh
   user namespace where the kernel allows unprivileged ones;
4. its own process group and resource limits only: the grader's user when not root, and as
   root the user ``nobody``. Student code never runs as root.
5. where the system lacks ``pwd``, ``resource`` or ``fcntl`` (Windows, where students check
   their code): a plain child process with a wall-clock timeout, as ``nobody`` (uid 65534) if
   the grader is root.

``GAMEGRADER_ISOLATION`` (a Level name such as ``PROCESS``) forces a weaker level for tests.
The levels are probed with a leased user (``users``); each ``Sandbox`` then leases its own and
runs as it (``Isolation.as_user``).
"""
from __future__ import annotations

import enum
import os
import shutil
import subprocess
import sys
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Iterator

from harness.sandbox.packages import abi_tag
from harness.sandbox.posix import MISSING, is_root, pwd
from harness.sandbox.users import DEFAULT_SANDBOX_USER, SANDBOX_USER_ENV, lease_user, pool

FORCE_ENV = "GAMEGRADER_ISOLATION"
# --ipc: System V shared memory, message queues and semaphores and POSIX message queues live in
# an IPC namespace, not in files: on the host's, a student's objects outlived grading (host memory
# held until reboot) and were shared with later cases and other gradings.
_NAMESPACES = ["--net", "--pid", "--ipc", "--fork", "--kill-child", "--mount-proc"]
# Scratch folders every user may write in: at the namespaced levels each sandbox gets its own
# size-limited tmpfs on each of them (see ``_namespaced_prefix``), so nothing written there
# reaches the host, another sandbox, or (wiped between cases) a later case.
SCRATCH_FOLDERS = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")
SCRATCH_MOUNT_OPTIONS = "size=32m,nr_inodes=4096,mode=1777,nosuid,nodev"
# The new IPC namespace's limits on how many IPC objects may exist; zero switches them off (no
# assignment needs them: multiprocessing's semaphores and shared memory are files in /dev/shm).
# Set by root in the namespace, so nothing a case makes there survives into the next case, which
# the fork server starts in the same namespace. Missing files (a kernel without them) are skipped.
IPC_OBJECT_LIMITS = {"/proc/sys/kernel/shmmni": "0", "/proc/sys/kernel/msgmni": "0",
                     "/proc/sys/kernel/sem": "0 0 0 0", "/proc/sys/fs/mqueue/queues_max": "0"}
# Runs as root inside the new namespaces, before the user is dropped; "$@" is the rest.
# PTYs come from the devpts instance beside /dev/ptmx; the host's is shared by every process
# (kernel.pty.max, 4096), so each sandbox gets one of its own with room for a few. Where the
# kernel refuses the mount, the descriptor limits still bound them (docs/security.md).
PTY_MOUNT_OPTIONS = "newinstance,ptmxmode=0666,mode=0620,max=4"
_MOUNT_SCRATCH = ('for folder in {folders}; do if [ -d "$folder" ]; then '
                  '{mount} -t tmpfs -o {options} gamegrader-scratch "$folder" || exit 97; fi; '
                  'done; [ ! -d /dev/pts ] || {mount} -t devpts -o {ptys} gamegrader-pts '
                  '/dev/pts 2>/dev/null || true; {ipc}exec "$@"')
_IPC_LIMIT = '[ ! -e {file} ] || echo "{value}" > {file} || exit 96; '



class Level(enum.Enum):
    """Isolation levels, strongest first."""

    USER_NAMESPACED = ("separate unprivileged user, no network, own pid namespace and /proc, "
                       "resource limits")
    USER = "separate unprivileged user, resource limits (namespaces unavailable)"
    NAMESPACED = "own pid, mount and network namespaces (as 'nobody' when the grader is root)"
    PROCESS = "own process group and resource limits only (no network isolation)"
    PLAIN = ("plain child process with a wall-clock timeout (this system has no resource "
             "limits, sandbox users or namespaces)")


@dataclass(frozen=True)
class Isolation:
    """The isolation in force.

    Attributes:
        level: what is achieved (reported in every results.json).
        interpreter: the Python that runs student code (stdlib only is needed).
        prefix: command words placed before the interpreter (``unshare ...``).
        uid, gid: the user student code runs as, when it is a different user.
        switch_user: whether the launcher itself must switch to ``uid`` (no ``unshare`` does it).
        sweep_uid: whether leftovers are found and killed by ``uid`` (only for a dedicated
            sandbox user without a pid namespace; never for ``nobody``).
        private_scratch: ``SCRATCH_FOLDERS`` folders are private tmpfs mounts of the sandbox.
        memory_procs: the process file of the sandbox's memory control group, which every
            student process joins before it runs ("" for none; see ``memory_group``).
    """

    level: Level
    interpreter: str = sys.executable
    prefix: tuple[str, ...] = field(default=())
    uid: int | None = None
    gid: int | None = None
    switch_user: bool = False
    sweep_uid: bool = False
    private_scratch: bool = False
    memory_procs: str = ""

    @property
    def own_user(self) -> bool:
        return self.uid is not None

    @property
    def dedicated_user(self) -> bool:
        """Student code runs as a user that runs nothing else (not ``nobody``, not us)."""
        return self.level in (Level.USER_NAMESPACED, Level.USER)

    @property
    def has_pid_namespace(self) -> bool:
        return "--pid" in self.prefix

    @property
    def kill_by_uid(self) -> bool:
        """Without a pid namespace, leftovers of a separate user are found by their uid."""
        return self.sweep_uid and self.uid is not None

    def as_user(self, uid: int, gid: int) -> Isolation:
        """The same isolation for another dedicated user (a leased one; see ``users``)."""
        if not self.dedicated_user:
            return self
        prefix = _namespaced_prefix(uid, gid) if self.has_pid_namespace else self.prefix
        return replace(self, uid=uid, gid=gid, prefix=prefix)


def _namespaced_prefix(uid: int, gid: int) -> tuple[str, ...]:
    """As root: fresh namespaces, private scratch mounts, then the user ``uid``.

    unshare's --kill-child sets a parent-death signal that a change of user clears, so the user
    is changed inside by setpriv, which sets the signal again afterwards: if the grader dies, the
    whole namespace dies with it.
    """
    unshare = shutil.which("unshare") or "unshare"
    setpriv = shutil.which("setpriv")
    mount_scratch = ("/bin/sh", "-c", _MOUNT_SCRATCH.format(
        folders=" ".join(SCRATCH_FOLDERS), mount=shutil.which("mount") or "mount",
        options=SCRATCH_MOUNT_OPTIONS, ptys=PTY_MOUNT_OPTIONS, ipc="".join(
            _IPC_LIMIT.format(file=file, value=value)
            for file, value in IPC_OBJECT_LIMITS.items())), "sh")
    if setpriv:
        return (unshare, *_NAMESPACES, "--", *mount_scratch, setpriv, f"--reuid={uid}",
                f"--regid={gid}", "--clear-groups", "--pdeathsig", "KILL", "--")
    # Without setpriv, unshare changes the user itself, before anything could mount.
    return (unshare, *_NAMESPACES, f"--setgid={gid}", f"--setuid={uid}", "--")


def _works(isolation: Isolation) -> bool:
    return not _why_not(isolation)


def _why_not(isolation: Isolation) -> str:
    """Why ``isolation`` cannot run student code here ("" if it can): importing non-frozen
    modules proves the interpreter can read its own library as that user."""
    command = [*isolation.prefix, isolation.interpreter, "-I", "-S", "-c", "import json, socket"]
    kwargs: dict[str, object] = {}
    if isolation.switch_user:
        kwargs.update(user=isolation.uid, group=isolation.gid, extra_groups=[])
    try:
        done = subprocess.run(command, capture_output=True, timeout=10, cwd="/",
                              **kwargs)  # type: ignore[call-overload]
    except subprocess.TimeoutExpired:
        return "no answer within 10 s"
    except (OSError, subprocess.SubprocessError) as exc:
        return f"{type(exc).__name__}: {exc}"
    if done.returncode == 0:
        return ""
    said = done.stderr.decode(errors="replace").strip().splitlines()
    return f"exit status {done.returncode}" + (f" ({said[-1][:200]})" if said else "")


def _interpreters() -> list[str]:
    """Interpreters for another user: the system's first (always readable by every user; a
    virtual environment under a private home may not be), then the grader's own."""
    found = ["/usr/bin/python3", sys.executable]
    return [p for i, p in enumerate(found) if p not in found[:i] and os.path.exists(p)]


def sandbox_interpreters() -> list[str]:
    """Every interpreter student code may run under on this machine, preferred first."""
    return _interpreters() if is_root() else [sys.executable]


def candidates(user: str | None = None) -> list[Isolation]:
    """Every configuration worth trying on this machine, strongest first.

    As root, student code never runs as root: it runs as the sandbox user (``user``, by default
    ``GAMEGRADER_SANDBOX_USER`` or ``gg-student``), or else as ``nobody``. Namespaced levels also
    get their own ``/proc`` (``--mount-proc``), so student code cannot read the grader's command
    line or see other processes.
    """
    if MISSING:
        return [plain()]
    unshare = shutil.which("unshare")
    private = shutil.which("setpriv") is not None  # see _namespaced_prefix
    options: list[Isolation] = []
    if not is_root():
        if unshare:
            options.append(Isolation(Level.NAMESPACED, sys.executable, (
                unshare, "--user", "--map-root-user", *_NAMESPACES, "--")))
        return [*options, Isolation(Level.PROCESS, sys.executable)]
    name = user or os.environ.get(SANDBOX_USER_ENV, DEFAULT_SANDBOX_USER)
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        entry = None
    nobody = pwd.getpwnam("nobody")
    for python in _interpreters():
        if entry is not None:
            uid, gid = entry.pw_uid, entry.pw_gid
            if unshare:
                options.append(Isolation(Level.USER_NAMESPACED, python,
                                         _namespaced_prefix(uid, gid), uid, gid,
                                         private_scratch=private))
            options.append(Isolation(Level.USER, python, (), uid, gid, switch_user=True,
                                     sweep_uid=True))
    for python in _interpreters():
        uid, gid = nobody.pw_uid, nobody.pw_gid
        if unshare:
            options.append(Isolation(Level.NAMESPACED, python, _namespaced_prefix(uid, gid),
                                     uid, gid, private_scratch=private))
        options.append(Isolation(Level.PROCESS, python, (), uid, gid, switch_user=True))
    return options


NOBODY_ID = 65534


def plain() -> Isolation:
    """A plain child process, for a system without ``MISSING``'s modules: as the grader's own
    user, or as root as ``nobody`` (named by number: there is no ``pwd`` to look it up)."""
    if not is_root():
        return Isolation(Level.PLAIN, sys.executable)
    return Isolation(Level.PLAIN, _interpreters()[0], (), NOBODY_ID, NOBODY_ID, switch_user=True)


@lru_cache(maxsize=None)
def detect() -> Isolation:
    """The strongest isolation that works here (or the one GAMEGRADER_ISOLATION forces)."""
    return _probed() or _strongest()


def _strongest() -> Isolation:
    forced = os.environ.get(FORCE_ENV, "").upper()
    failures = []
    with _probe_user() as user:
        for option in candidates(user):
            if forced and option.level.name != forced:
                continue
            why = "" if option.level in (Level.PROCESS, Level.PLAIN) and not option.own_user \
                else _why_not(option)
            if not why:
                return option
            failures.append(f"{option.level.name} with {option.interpreter}"
                            f"{f' as uid {option.uid}' if option.uid is not None else ''}: {why}")
    tried = "; ".join(failures) or f"no level is named {forced!r}"
    raise RuntimeError("no way to run student code here (as root, not even as 'nobody'): "
                       + tried)


# The probe started ahead by ``prefetch``: its thread, and what it found (empty if it failed).
_probe: tuple[threading.Thread, list[Isolation]] | None = None


def prefetch() -> None:
    """Start finding the isolation, the sandbox interpreter's ABI (``abi_tag``) and the
    system-call filter (``syscall_filter.status``) on a thread.

    Each starts programs and mostly waits for them (tens of milliseconds), so a command that
    will grade starts them first thing and they overlap its imports and spec loading instead of
    following them; ``detect`` then takes the answer. A probe that fails is simply done again
    by ``detect``, in the caller, where its error belongs.
    """
    global _probe
    if _probe is not None:
        return
    found: list[Isolation] = []

    def probe() -> None:
        try:
            found.append(_strongest())
        except Exception:
            return
        abi_tag(found[0].interpreter)
        from harness.sandbox.syscall_filter import status  # built ahead too (loads libseccomp)
        status(found[0].interpreter)

    thread = threading.Thread(target=probe, name="gamegrader-probe", daemon=True)
    _probe = (thread, found)
    thread.start()


def _probed() -> Isolation | None:
    """What the prefetched probe found (once; None if there was none or it failed)."""
    global _probe
    if _probe is None or _probe[0] is threading.current_thread():
        return None
    (thread, found), _probe = _probe, None
    thread.join()
    return found[0] if found else None


@contextmanager
def _probe_user() -> Iterator[str | None]:
    """The sandbox user to try the levels with: a leased one (another grading's student code
    could otherwise kill the probe), unless GAMEGRADER_SANDBOX_USER names one."""
    names = pool() if is_root() and not os.environ.get(SANDBOX_USER_ENV) else []
    if not names:
        yield None
        return
    lease = lease_user(names)
    try:
        yield lease.name
    finally:
        lease.release()
