"""The CPU time a process has used, read from the kernel on the trusted side: by the referee
for a seat's clock (``harness.games.cpu_clock``) and by the sandbox for a case stopped at its
timeout (``cleanup.tree_cpu_seconds``)."""
from __future__ import annotations

import os
import time
from typing import Optional

TICK_SECONDS = 1.0 / os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 0.01
"""Seconds per clock tick, the unit of ``/proc/PID/stat``'s times."""


def _clock_id(pid: int) -> int:
    """The kernel's CPU clock of process ``pid`` (``clock_getcpuclockid``, which Python lacks:
    Linux encodes it as ``~pid << 3 | CPUCLOCK_SCHED``)."""
    return (~pid << 3) | 2


def process_times(pid: int) -> Optional[tuple[float, float]]:
    """(own, reaped) CPU seconds of process ``pid`` (own: all its threads; reaped: its reaped
    children), None when it cannot be read (gone, or no ``/proc``)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        utime, stime, cutime, cstime = (int(value) for value in fields[11:15])
    except (OSError, IndexError, ValueError):
        return None
    own = (utime + stime) * TICK_SECONDS
    try:
        own = time.clock_gettime(_clock_id(pid))
    except (OSError, OverflowError, AttributeError):
        pass  # a kernel without process CPU clocks for others: the ticks do
    return own, (cutime + cstime) * TICK_SECONDS


def run_queue_seconds(pid: int) -> Optional[float]:
    """Seconds process ``pid`` (all its threads) has spent runnable but waiting for a CPU that
    other programs held (the second field of ``/proc/PID/task/TID/schedstat``): time a busy
    host took from it, which a sleeping or blocked process does not accumulate. None when it
    cannot be read (gone, or a kernel without schedstats)."""
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return None
    total, read = 0, False
    for thread in threads:
        try:
            with open(f"/proc/{pid}/task/{thread}/schedstat", encoding="ascii") as handle:
                total += int(handle.read().split()[1])
        except (OSError, IndexError, ValueError):
            continue  # a thread that ended meanwhile
        read = True
    return total / 1e9 if read else None
