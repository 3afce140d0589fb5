"""A pool of sandbox users for gradings that run at the same time on one machine.

Process limits (RLIMIT_NPROC) and uid sweeps count every process of a user, so two submissions
graded at once under the same sandbox user could disturb each other (a fork bomb in one making
the other's forks fail). Where ``gg-student-1``, ``gg-student-2``, ... exist (created by
``scripts/sandbox_users.sh``), each concurrent grading borrows one of its own.
"""
from __future__ import annotations

import pwd
import threading
from contextlib import contextmanager
from typing import Iterator

from harness.sandbox.isolation import DEFAULT_SANDBOX_USER

POOL_SIZE = 32
_LOCK = threading.Lock()
_BUSY: set[str] = set()


def _pool() -> list[str]:
    names = []
    for number in range(1, POOL_SIZE + 1):
        name = f"{DEFAULT_SANDBOX_USER}-{number}"
        try:
            pwd.getpwnam(name)
        except KeyError:
            break
        names.append(name)
    return names


@contextmanager
def borrowed_sandbox_user() -> Iterator[str | None]:
    """A pool user nobody else in this process is using, or None (then the default is used)."""
    with _LOCK:
        name = next((n for n in _pool() if n not in _BUSY), None)
        if name is not None:
            _BUSY.add(name)
    try:
        yield name
    finally:
        if name is not None:
            with _LOCK:
                _BUSY.discard(name)
