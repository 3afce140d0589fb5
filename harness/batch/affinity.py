"""One CPU for each local grading worker, when there are as many workers as CPUs.

A grading is a chain of processes that take turns (the grader, the sandbox's zygote, one case),
so it keeps about one CPU busy. With one worker per CPU the kernel still moves these processes
around, and now and then wakes two chains' processes on one CPU while the other CPU idles; kept
each on a CPU of its own, two workers on two cores graded 200 submissions faster (figures in
the README's performance section, ``bench/bench_batch.py``). With fewer workers than CPUs a
grading keeps every CPU (its folder-removal thread and the kernel's work run beside it), and
with more workers than CPUs nothing is pinned either. ``GAMEGRADER_NO_PIN=1`` turns it off
(the bench's unpinned setting).

Student code may widen its own processes' affinity; that only costs speed, never a grade.
"""
from __future__ import annotations

import os
import queue
import threading

NO_PIN_ENV = "GAMEGRADER_NO_PIN"
_thread = threading.local()


def allowed_cpus() -> list[int]:
    """The CPUs this process may run on, in order."""
    return sorted(os.sched_getaffinity(0))


class CpuSlots:
    """The CPUs a pool of ``workers`` threads hands out, one per thread (none to hand out when
    pinning would not help: see the module docstring)."""

    def __init__(self, workers: int) -> None:
        self._free: queue.SimpleQueue[int] = queue.SimpleQueue()
        cpus = allowed_cpus()
        if 2 <= workers == len(cpus) and not os.environ.get(NO_PIN_ENV):
            for cpu in cpus:
                self._free.put(cpu)

    def claim(self) -> None:
        """A pool thread's initializer: take a CPU of its own, if there is one to take."""
        try:
            _thread.cpu = self._free.get_nowait()
        except queue.Empty:
            _thread.cpu = None


def pin(pid: int) -> None:
    """Run ``pid`` (and what it forks from now on) on this thread's CPU, or on every allowed
    CPU when the thread has none (a warm process pinned for an earlier run is freed)."""
    cpu = getattr(_thread, "cpu", None)
    try:
        os.sched_setaffinity(pid, {cpu} if cpu is not None else allowed_cpus())
    except OSError:  # the process is gone: its caller finds out
        pass
