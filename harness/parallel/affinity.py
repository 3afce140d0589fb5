"""One CPU for each local grading worker, when there are as many workers as CPUs on an otherwise
idle machine.

A grading is a chain of processes that take turns (the grader, the sandbox's zygote, one case),
so it keeps about one CPU busy. With one worker per CPU the kernel still moves these processes
around, and now and then wakes two chains' processes on one CPU while the other CPU idles; kept
each on a CPU of its own, two workers on two cores graded 200 submissions faster (figures in
the README's performance section, ``bench/bench_batch.py``). With fewer workers than CPUs a
grading keeps every CPU (its folder-removal thread and the kernel's work run beside it), and
with more workers than CPUs nothing is pinned either. Nor is anything pinned when other work
keeps the CPUs busy as the run starts (a shared server, a test suite): a pinned worker could not
move away from a CPU another program holds. On a dask cluster the same holds per host: where a
host's workers have one thread each and are as many as its CPUs, each worker gets a CPU
(``spread_cluster``, at the start of every run). ``GAMEGRADER_NO_PIN=1`` turns it off (the
bench's unpinned setting); where the system cannot pin (not Linux), nothing is pinned.

Student code may widen its own processes' affinity; that only costs speed, never a grade.
"""
from __future__ import annotations

import os
import queue
import threading
from typing import Any, Mapping

from harness.host import BUSY_LIMIT, NO_PIN_ENV, allowed_cpus, busy_share, one_cpu_each

_thread = threading.local()
_worker_cpu: int | None = None
"""This process's CPU when it is a dask worker given one (``use_cpu``)."""


class CpuSlots:
    """The CPUs a pool of ``workers`` threads hands out, one per thread (none to hand out when
    pinning would not help: see the module docstring)."""

    def __init__(self, workers: int) -> None:
        self._free: queue.SimpleQueue[int] = queue.SimpleQueue()
        for cpu in one_cpu_each(workers, lambda: busy_share() < BUSY_LIMIT):
            self._free.put(cpu)

    def claim(self) -> None:
        """A pool thread's initializer: take a CPU of its own, if there is one to take."""
        try:
            _thread.cpu = self._free.get_nowait()
        except queue.Empty:
            _thread.cpu = None


def use_cpu(cpu: int | None) -> None:
    """On a dask worker (sent by ``spread_cluster``): the CPU its jobs run on, or None."""
    global _worker_cpu
    _worker_cpu = cpu


def _process() -> tuple[int, list[int], float]:
    """This process's id, the CPUs it may use and how busy its machine is (asked of each dask
    worker, all at once)."""
    return os.getpid(), allowed_cpus(), busy_share()


def cluster_plan(workers: Mapping[str, Mapping[str, Any]]) -> dict[str, int | None]:
    """A CPU for each dask worker (address -> CPU or None), from each worker's ``host``,
    ``nthreads``, ``pid``, ``cpus`` (the CPUs it may use) and ``busy`` (its machine's busy
    share): on an idle host whose workers are processes of their own with one thread each,
    exactly as many as their CPUs, the i-th worker (by address) gets the i-th CPU; elsewhere
    nobody is pinned."""
    plan: dict[str, int | None] = dict.fromkeys(workers)
    hosts: dict[str, list[str]] = {}
    for address, worker in workers.items():
        hosts.setdefault(str(worker.get("host")), []).append(address)
    for addresses in hosts.values():
        cpus = sorted(workers[addresses[0]].get("cpus") or [])
        pids = {workers[a].get("pid") for a in addresses}
        if 2 <= len(addresses) == len(cpus) == len(pids) and None not in pids and all(
                workers[a].get("nthreads") == 1 and sorted(workers[a].get("cpus") or []) == cpus
                and workers[a].get("busy", 1.0) < BUSY_LIMIT for a in addresses):
            plan.update(zip(sorted(addresses), cpus))
    return plan


def spread_cluster(client: Any, pin: bool) -> None:
    """Tell every worker of the connected dask ``client`` its CPU (``cluster_plan``), or with
    ``pin`` false (or ``GAMEGRADER_NO_PIN`` set here) that it has none."""
    workers = client.scheduler_info()["workers"]
    asked = client.run(_process) if pin and not os.environ.get(NO_PIN_ENV) else {}
    plan = cluster_plan({address: {**worker, **dict(zip(("pid", "cpus", "busy"),
                                                        asked.get(address, ())))}
                         for address, worker in workers.items()})
    for address, cpu in plan.items():
        client.run(use_cpu, cpu, workers=[address])


def pin(pid: int) -> None:
    """Run ``pid`` (and what it forks from now on) on this thread's CPU (a local pool's
    thread), else this dask worker's, or on every allowed CPU when there is none (a warm
    process pinned for an earlier run is freed)."""
    cpu = getattr(_thread, "cpu", _worker_cpu)
    cpus = {cpu} if cpu is not None else set(allowed_cpus())
    try:
        if cpus:
            os.sched_setaffinity(pid, cpus)
    except (OSError, AttributeError):  # the process is gone (its caller finds out); no pinning
        pass
