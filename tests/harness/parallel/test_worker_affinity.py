"""Local gradings pinned one per CPU (``harness.parallel.affinity``): with as many workers as CPUs
on an idle machine each worker thread's jobs run on a CPU of their own, and otherwise (or
unasked) on every CPU, even in a warm process an earlier pinned run left behind.

Whether the machine counts as idle is measured at the start of a run; the tests that expect
pinning accept any load (``BUSY_LIMIT`` above 1), so that they do not depend on the machine's.

The job below is sent to warm processes by reference, so it lives at module level.
"""
from __future__ import annotations

import os
import threading
from typing import Iterator

import pytest

from harness.parallel import affinity
from harness.parallel.executors import run_local
from harness.parallel.warm import WarmPool

CPUS = affinity.allowed_cpus()
two_or_more = pytest.mark.skipif(len(CPUS) < 2, reason="pinning needs at least two CPUs")


def job_cpus() -> list[int]:
    """The CPUs the job's own (forked) process may run on."""
    return sorted(os.sched_getaffinity(0))


@pytest.fixture
def any_load(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(affinity, "BUSY_LIMIT", 1.01)


@pytest.fixture
def pool() -> Iterator[WarmPool]:
    warm = WarmPool()
    yield warm
    warm.close()


def _grade_with(pool: WarmPool, workers: int, pin: bool, jobs: int) -> dict[int, set[tuple]]:
    """Run ``jobs`` jobs; per pool thread, the CPU sets its jobs ran on."""
    seen: dict[int, set[tuple]] = {}
    lock = threading.Lock()

    def work(_: int) -> None:
        cpus = tuple(pool.call(job_cpus, (), 60.0).value)
        with lock:
            seen.setdefault(threading.get_ident(), set()).add(cpus)

    run_local(list(range(jobs)), workers, lambda _: None, work=work, pin=pin)
    return seen


@pytest.mark.slow  # starts processes
@two_or_more
def test_as_many_workers_as_cpus_run_each_on_a_cpu_of_its_own(pool, any_load):
    seen = _grade_with(pool, len(CPUS), pin=True, jobs=4 * len(CPUS))
    per_thread = [next(iter(sets)) for sets in seen.values()]
    assert all(len(sets) == 1 for sets in seen.values())  # a thread keeps its CPU
    assert all(len(cpus) == 1 for cpus in per_thread)
    assert len(set(per_thread)) == len(per_thread)  # no two threads share one


@pytest.mark.slow  # starts processes
@two_or_more
def test_fewer_workers_than_cpus_or_no_pinning_asked_keep_every_cpu(pool, any_load):
    every = tuple(CPUS)
    _grade_with(pool, len(CPUS), pin=True, jobs=2)  # leaves pinned warm processes behind
    for workers, pin in ((1, True), (len(CPUS), False)):
        seen = _grade_with(pool, workers, pin, jobs=3)
        assert set().union(*seen.values()) == {every}


@pytest.mark.slow  # starts processes
@two_or_more
def test_a_busy_machine_pins_nothing(monkeypatch, pool):
    monkeypatch.setattr(affinity, "busy_share", lambda seconds=0.0: 0.5)
    seen = _grade_with(pool, len(CPUS), pin=True, jobs=2)
    assert set().union(*seen.values()) == {tuple(CPUS)}


def test_the_busy_share_is_a_share():
    assert 0.0 <= affinity.busy_share(0.05) <= 1.0


@pytest.mark.slow  # starts processes
def test_no_pinning_when_turned_off(monkeypatch, pool, any_load):
    monkeypatch.setenv(affinity.NO_PIN_ENV, "1")
    seen = _grade_with(pool, len(CPUS), pin=True, jobs=2)
    assert set().union(*seen.values()) == {tuple(CPUS)}


def _worker(host: str, pid: int, cpus: list[int], nthreads: int = 1, busy: float = 0.0) -> dict:
    return {"host": host, "pid": pid, "cpus": cpus, "nthreads": nthreads, "busy": busy}


def test_a_cluster_host_with_one_single_threaded_worker_process_per_cpu_pins_each():
    plan = affinity.cluster_plan({
        "tcp://a:2": _worker("a", 11, [0, 1]), "tcp://a:1": _worker("a", 10, [0, 1]),
        "tcp://b:1": _worker("b", 20, [0, 1, 2, 3]), "tcp://b:2": _worker("b", 21, [0, 1, 2, 3]),
        "tcp://c:1": _worker("c", 30, [0, 1], nthreads=2), "tcp://c:2": _worker("c", 31, [0, 1]),
        "tcp://d:1": _worker("d", 40, [0, 1]), "tcp://d:2": _worker("d", 40, [0, 1]),
        "tcp://e:1": _worker("e", 50, [0]),
        "tcp://f:1": _worker("f", 60, [0, 1]), "tcp://f:2": _worker("f", 61, [0, 1], busy=0.4)})
    assert plan == {"tcp://a:1": 0, "tcp://a:2": 1,  # as many workers as CPUs
                    "tcp://b:1": None, "tcp://b:2": None,  # fewer workers than CPUs
                    "tcp://c:1": None, "tcp://c:2": None,  # a worker with two threads
                    "tcp://d:1": None, "tcp://d:2": None,  # two workers in one process
                    "tcp://e:1": None,  # one worker alone
                    "tcp://f:1": None, "tcp://f:2": None}  # a host busy with other work


@pytest.mark.slow  # starts processes
@two_or_more
def test_a_local_cluster_s_workers_are_spread_over_the_cpus_and_freed_again(any_load):
    distributed = pytest.importorskip("distributed", reason="dask.distributed is not installed")
    with distributed.LocalCluster(n_workers=len(CPUS), threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        affinity.spread_cluster(client, pin=True)
        given = client.run(getattr, affinity, "_worker_cpu")
        client.run(affinity.pin, 0)  # 0: the worker's own thread that runs what is sent
        pinned = client.run(os.sched_getaffinity, 0)
        affinity.spread_cluster(client, pin=False)
        freed = client.run(getattr, affinity, "_worker_cpu")
    assert sorted(given.values()) == CPUS
    assert {address: {cpu} for address, cpu in given.items()} == pinned
    assert set(freed.values()) == {None}
