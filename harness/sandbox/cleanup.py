"""Make sure nothing a student started outlives its case."""
from __future__ import annotations

import os
import signal
import subprocess
import time

from harness.sandbox.isolation import Isolation


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


TAG_VARIABLE = "GG_SANDBOX"


def _has_tag(pid: str, tag: str) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as environ:
            return f"{TAG_VARIABLE}={tag}".encode() in environ.read().split(b"\0")
    except OSError:
        return False


def _pids_of_user(uid: int, tag: str = "") -> list[int]:
    """Processes of ``uid``; with ``tag``, only those started by one sandbox (see launcher)."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status", encoding="ascii", errors="replace") as status:
                for line in status:
                    if line.startswith("Uid:"):
                        if int(line.split()[1]) == uid and (not tag or _has_tag(entry, tag)):
                            pids.append(int(entry))
                        break
        except OSError:
            continue
    return pids


def kill_user_processes(uid: int, tag: str = "", rounds: int = 5) -> None:
    """SIGKILL every process of ``uid`` (carrying ``tag``, if given), repeating while new ones
    appear (fork races)."""
    for _ in range(rounds):
        pids = _pids_of_user(uid, tag)
        if not pids:
            return
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        time.sleep(0.01)


def terminate(process: subprocess.Popen[bytes], isolation: Isolation, tag: str = "") -> None:
    """Kill the process and its whole group; at levels without a pid namespace, also every
    process of the sandbox user that carries this sandbox's ``tag`` (orphans that left the
    group). The tag keeps two gradings that share the user from killing each other's work."""
    _kill_group(process.pid)
    if isolation.kill_by_uid and isolation.uid is not None:
        kill_user_processes(isolation.uid, tag)
    try:
        process.kill()
    except ProcessLookupError:
        pass
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass
