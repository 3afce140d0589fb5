"""What a seat's clock is charged: the CPU time its processes use, read on the trusted side.

A move's wall time grows with whatever else the host runs: beside two busy processes on its CPU
a student's move takes three times as long, and a game it wins alone it loses on time (issue
42: the same grade on any load). The CPU time the move's processes use hardly moves with the
load, so that is what the referee charges. It reads the kernel's counts itself (never a number
the entrant reports): for each process of the entrant, the CPU time of all its threads (the
process's CPU clock, in nanoseconds; ``/proc/PID/stat``'s utime and stime, in ticks, where the
clock cannot be read) and that of its reaped children (cutime and cstime). The readings are
taken while the entrant is frozen (``harness.games.freeze``), just before it is resumed and just
after it is paused again, so only the move's own work lies between them.

Where no process can be read (no ``/proc``: a student's check on macOS or Windows) a sample is
None and the referee charges wall time instead, and says so in the feedback.

Code that sleeps or blocks uses no CPU time, so a move is also cut off by a wall backstop
(:func:`wall_backstop`). What an entrant waited is judged against what explains it: its CPU
time, and the time its processes were runnable but held back from a CPU by other programs (the
kernel's run-queue wait, read at the same pauses), which a sleeping or blocked process never
accumulates (:func:`unexplained_wait`).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping, Optional

from harness.sandbox.process_times import process_times, run_queue_seconds

BACKSTOP_FACTOR = 5.0
BACKSTOP_SECONDS = 2.0
"""See :func:`wall_backstop`."""
REPLY_SECONDS = 0.02
"""Wall time a reply may take beyond ``BACKSTOP_FACTOR`` times its CPU time in round trips
(freezing, pipes, scheduling; a sandboxed Isolation reply's took 2 to 3 ms on this project's
2-core host at a load average of 12): see :func:`unexplained_wait`."""

ProcessTimes = Callable[[int], Optional[tuple[float, float]]]
"""``read(pid)`` -> (CPU seconds of the process's own threads, CPU seconds of its reaped
children), or None when the process cannot be read (gone, or no ``/proc``)."""
QueueTimes = Callable[[int], Optional[float]]
"""``read(pid)`` -> seconds the process was runnable but waiting for a CPU, or None."""


def wall_backstop(cpu_seconds: float) -> float:
    """The wall time a move may take when it may use ``cpu_seconds`` of CPU time.

    ``5 * cpu_seconds + 2 s``. The backstop is for code that sleeps or blocks: it uses no CPU
    time and would otherwise stall the grader. Such a move loses on time once the backstop has
    passed, and the case's own timeout still bounds the case (no game starts after it). The
    backstop must not cut
    an honest move short on a busy host, so it is generous: a move sharing its CPU evenly with
    four other busy processes still gets all of its CPU time (the load tests' setting is two;
    a Gradescope container's half CPU is one; this project's shared 2-core host gave a
    computing sandboxed player 28% of a CPU while these clocks were written, which 3x would
    not have covered). The seconds cover process round trips and scheduling delays of short
    clocks. A chess-clock move rarely uses more than a small part of the time left, so heavier
    loads still leave it a wide margin. The price is paid by sleeping code alone: it waits
    five times its clock before it loses, where a wall clock cut it after one.
    """
    return BACKSTOP_FACTOR * max(cpu_seconds, 0.0) + BACKSTOP_SECONDS


def unexplained_wait(waited: float, used: float, replies: int, queued: float = 0.0) -> float:
    """Wall seconds spent waiting on an entrant that the CPU time it used does not explain.

    ``waited`` seconds of wall time for ``replies`` replies that used ``used`` seconds of CPU
    time and were held back ``queued`` seconds from a CPU by other programs (run-queue wait,
    each reply's at most its wall time, 0 where it cannot be read): what is beyond ``queued``
    plus ``BACKSTOP_FACTOR * used`` (a margin for page faults, I/O and hosts where the queue
    cannot be read) plus ``REPLY_SECONDS`` a reply is the entrant's own waiting (sleeping,
    blocking), never the host's load, however loaded the host. Negative when the load explains
    it all. An entrant whose waiting in one game exceeds ``BACKSTOP_SECONDS`` loses that game on
    time (``harness.games.match``), so waiting spread thinly over many moves, each within its
    backstop, is caught as surely as one long sleep; the staff ladder charges the games its
    waiting kept from being played to it.

    >>> round(unexplained_wait(10.0, 1.0, 50), 3), round(unexplained_wait(10.0, 1.0, 50, 9.0), 3)
    (4.0, -5.0)
    """
    return waited - max(queued, 0.0) - BACKSTOP_FACTOR * max(used, 0.0) - REPLY_SECONDS * replies


@dataclass(frozen=True)
class CpuSample:
    """One reading of an entrant's CPU time, per process (keys are pids, or any stable key).

    Attributes:
        own: CPU seconds of each process's own threads.
        reaped: CPU seconds of each process's reaped children.
        queued: seconds each process was runnable but waiting for a CPU (empty when not read).
    """

    own: Mapping[int, float]
    reaped: Mapping[int, float] = field(default_factory=dict)
    queued: Mapping[int, float] = field(default_factory=dict)

    @property
    def total(self) -> float:
        return sum(self.own.values()) + sum(self.reaped.values())

    def since(self, earlier: CpuSample) -> float:
        """CPU seconds used from ``earlier`` to this sample.

        The growth of the total, which counts a helper that ended during the move through its
        parent's reaped time; but never less than what the processes alive at both readings
        (and those new since) used themselves. A process that ends reaped by no process of the
        entrant (an orphan the grader adopts) takes its count out of the total: without the
        floor, a helper that worked in one move and ended in the next would hand that work
        back to the entrant's clock.
        """
        floor = sum(max(0.0, seconds - earlier.own.get(pid, 0.0))
                    for pid, seconds in self.own.items())
        return max(self.total - earlier.total, floor, 0.0)

    def queued_since(self, earlier: CpuSample) -> Optional[float]:
        """Run-queue seconds from ``earlier`` to this sample: the growth of each process's
        wait (all of it for a process new since), None when either sample has none. A process
        that ended between the samples takes its wait with it: less explained, never more."""
        if not self.queued or not earlier.queued:
            return None
        return sum(max(0.0, seconds - earlier.queued.get(pid, 0.0))
                   for pid, seconds in self.queued.items())


@dataclass
class CpuMeter:
    """Samples the CPU time of a changing set of processes.

    Attributes:
        pids: the entrant's processes now (a freezer's members).
        read: the kernel's counts of one process (a fake in tests).
        queue: the run-queue wait of one process (a fake in tests).
    """

    pids: Callable[[], Iterable[int]]
    read: ProcessTimes = process_times
    queue: QueueTimes = run_queue_seconds

    def sample(self, pids: Optional[Iterable[int]] = None, *,
               queued: bool = True) -> Optional[CpuSample]:
        """The CPU times of ``pids`` (default: ``self.pids()``) now, and their run-queue waits
        unless not ``queued`` (the frequent readings during a move need no waits: a thread's
        schedstat each); None when no CPU time can be read."""
        own: dict[int, float] = {}
        reaped: dict[int, float] = {}
        waits: dict[int, float] = {}
        for pid in self.pids() if pids is None else pids:
            times = self.read(pid)
            if times is not None:
                own[pid], reaped[pid] = times
                wait = self.queue(pid) if queued else None
                if wait is not None:
                    waits[pid] = wait
        return CpuSample(own, reaped, waits) if own else None


def thread_sample(clock: Callable[[], float] = time.thread_time) -> CpuSample:
    """The calling thread's CPU time as a sample (an in-process house bot's clock)."""
    return CpuSample({0: clock()})


__all__ = ["BACKSTOP_FACTOR", "BACKSTOP_SECONDS", "CpuMeter", "CpuSample", "ProcessTimes",
           "QueueTimes", "REPLY_SECONDS", "process_times", "thread_sample", "unexplained_wait",
           "wall_backstop"]
