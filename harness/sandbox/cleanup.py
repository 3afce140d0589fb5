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


def _pids_of_user(uid: int) -> list[int]:
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status", encoding="ascii", errors="replace") as status:
                for line in status:
                    if line.startswith("Uid:"):
                        if int(line.split()[1]) == uid:
                            pids.append(int(entry))
                        break
        except OSError:
            continue
    return pids


def kill_user_processes(uid: int, rounds: int = 5) -> None:
    """SIGKILL every process of ``uid``, repeating while new ones appear (fork races)."""
    for _ in range(rounds):
        pids = _pids_of_user(uid)
        if not pids:
            return
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        time.sleep(0.01)


def terminate(process: subprocess.Popen[bytes], isolation: Isolation) -> None:
    """Kill the process, its whole group and (with a sandbox user) every process of that user."""
    _kill_group(process.pid)
    if isolation.kill_by_uid and isolation.uid is not None:
        kill_user_processes(isolation.uid)
    try:
        process.kill()
    except ProcessLookupError:
        pass
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass
