"""Host-wide leases of sandbox users: no two gradings on a machine run as the same user at once.

Process limits, uid sweeps, the files a user may touch and the memory it may read all follow the
user id, so two gradings (two ``gamegrader`` processes, two batch workers, two tournament
entrants) sharing a user could kill each other's processes or rewrite each other's files. Every
``Sandbox`` therefore leases a user of the pool (``gg-student``, ``gg-student-1`` ...
``gg-student-N``, created by ``scripts/sandbox_users.sh`` and ``setup.sh``) for its lifetime.

A lease is an exclusive ``flock`` on ``LEASE_FOLDER/<user>.lock``: the folder belongs to root
and no sandbox user can write in it, and the kernel releases the lock when the leasing process
dies, however it dies, so a crashed grader never strands a user.
"""
from __future__ import annotations

import os
import stat
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from harness.sandbox.posix import fcntl, pwd

SANDBOX_USER_ENV = "GAMEGRADER_SANDBOX_USER"  # names the one user to use (no lease; tests)
DEFAULT_SANDBOX_USER = "gg-student"
LEASE_FOLDER = Path("/run/gamegrader/leases")
POOL_SIZE = 16
WAIT_SECONDS = 900.0
_POLL_SECONDS = 0.2


class NoFreeUser(RuntimeError):
    """Every user of the pool stayed leased for the whole wait."""


@dataclass
class Lease:
    """A sandbox user held exclusively by this process until ``release`` (or its death)."""

    name: str
    uid: int
    gid: int
    _fd: int

    def release(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)  # closing the only descriptor drops the flock
            self._fd = -1


def pool(base: str = DEFAULT_SANDBOX_USER, size: int = POOL_SIZE) -> list[str]:
    """The existing users of the pool: ``base`` first, then ``base-1`` ... ``base-size``."""
    names: list[str] = []
    if pwd is None or fcntl is None:  # no users to switch to, no locks to lease them with
        return names
    for name in [base, *(f"{base}-{number}" for number in range(1, size + 1))]:
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        names.append(name)
    return names


def _lease_folder(folder: Path) -> int:
    """Open ``folder`` (made if missing) and check nobody but its owner, root or us, can write
    in it: a sandbox user able to plant a lock file there could block or fake leases."""
    folder.mkdir(mode=0o755, parents=True, exist_ok=True)
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    info = os.fstat(fd)
    if info.st_uid not in (0, os.geteuid()) or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        os.close(fd)
        raise PermissionError(f"{folder} must belong to root and be writable by root only")
    return fd


def _try_lock(folder_fd: int, name: str) -> int | None:
    fd = os.open(f"{name}.lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600,
                 dir_fd=folder_fd)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


def lease_user(names: list[str], *, folder: Path = LEASE_FOLDER,
               wait_seconds: float = WAIT_SECONDS,
               on_wait: Callable[[str], None] | None = None) -> Lease:
    """Lease the first free user of ``names``; wait (polling) while all are leased.

    Raises:
        NoFreeUser: none became free within ``wait_seconds``.
        ValueError: ``names`` is empty.
    """
    if not names:
        raise ValueError("no sandbox user to lease")
    folder_fd = _lease_folder(folder)
    deadline = time.monotonic() + wait_seconds
    told = False
    try:
        while True:
            for name in names:
                fd = _try_lock(folder_fd, name)
                if fd is not None:
                    entry = pwd.getpwnam(name)
                    return Lease(name, entry.pw_uid, entry.pw_gid, fd)
            if time.monotonic() >= deadline:
                raise NoFreeUser(
                    f"all {len(names)} sandbox users ({', '.join(names)}) stayed busy for "
                    f"{wait_seconds:g} s: run fewer gradings at once, or create more users "
                    "with scripts/sandbox_users.sh")
            if not told:
                told = True
                (on_wait or _tell)(f"all {len(names)} sandbox users are in use by other "
                                   f"gradings; waiting up to {wait_seconds:g} s for one")
            time.sleep(_POLL_SECONDS)
    finally:
        os.close(folder_fd)


def _tell(message: str) -> None:
    print(f"gamegrader: {message}", file=sys.stderr, flush=True)
