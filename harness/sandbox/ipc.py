"""Remove the System V IPC objects a sandbox user made, where the sandbox has no IPC namespace.

Shared memory segments, message queues and semaphore sets are not files: they live in an IPC
namespace until someone removes them, whatever happens to the process that made them. On the
host's namespace (the USER level, which has no namespaces) a case could leave gigabytes of shared
memory held until reboot, or hand values to a later case. The namespaced levels give the sandbox
an IPC namespace where none can be made (``levels.IPC_OBJECT_LIMITS``); at USER the grader
removes, after every case, every object the dedicated user created. POSIX message queues need
no sweep: the launcher's ``RLIMIT_MSGQUEUE`` of 0 lets no student process create one.
"""
from __future__ import annotations

import ctypes
import ctypes.util
from typing import Callable, Optional

IPC_RMID = 0
# /proc/sysvipc/KIND: the table, the column of the object's id, and of its creator's uid (the
# creator cannot be changed, unlike the owner, which IPC_SET may give to anyone).
_TABLES = {"shm": (1, 9), "msg": (1, 9), "sem": (1, 6)}


def _libc() -> Optional[ctypes.CDLL]:
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
    except OSError:
        return None


def _objects(kind: str, uid: int) -> list[int]:
    """Ids of ``kind`` objects (shm, msg, sem) created or owned by ``uid``."""
    id_column, creator_column = _TABLES[kind]
    found = []
    try:
        with open(f"/proc/sysvipc/{kind}", encoding="ascii", errors="replace") as table:
            next(table, None)  # the header
            for line in table:
                fields = line.split()
                try:
                    owner, creator = int(fields[creator_column - 2]), int(fields[creator_column])
                    if uid in (owner, creator):
                        found.append(int(fields[id_column]))
                except (IndexError, ValueError):
                    continue
    except OSError:
        pass
    return found


def remove_user_ipc(uid: int) -> int:
    """Remove every System V object that ``uid`` created or owns; the number removed."""
    libc = _libc()
    if libc is None:
        return 0
    removers: dict[str, Callable[[int], int]] = {
        "shm": lambda ident: libc.shmctl(ident, IPC_RMID, None),
        "msg": lambda ident: libc.msgctl(ident, IPC_RMID, None),
        "sem": lambda ident: libc.semctl(ident, 0, IPC_RMID),
    }
    removed = 0
    for kind, remove in removers.items():
        for ident in _objects(kind, uid):
            removed += remove(ident) == 0
    return removed


__all__ = ["remove_user_ipc"]
