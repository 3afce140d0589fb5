"""Run jobs in parallel: on this machine, or on a dask.distributed cluster.

Used for grading jobs (``harness.batch.jobs.grade_job``) and for tournament games
(``harness.tournament.executors``). Locally, a pool of ``workers`` threads each drives one
process at a time (a grading or a game, forked from a warm process: ``harness.parallel.warm``),
so at most ``workers`` jobs run at once; the threads only wait, and every job gets its own
process. With a scheduler, the same work function runs on the cluster's workers (which need
gamegrader installed, but no shared file system). Both call ``on_done`` in this thread, in
completion order.
"""
from __future__ import annotations

import time
import uuid
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Any, Callable, Collection, Optional, Sequence

from harness.host import cpu_count
from harness.interrupts import deferred
from harness.parallel.affinity import CpuSlots, spread_cluster

OnDone = Callable[[Any], None]
Work = Callable[[Any], Any]
StopThreads = Callable[[Collection[int]], None]
"""Run on a dask worker: stop the jobs running on these threads (``threading.get_ident``)."""


STOP_REPEAT = 0.25
"""Seconds between two calls of ``run_local``'s ``stop`` while stopped jobs are still running."""
CLUSTER_STOP_REPEAT = 1.0
"""The same for ``run_dask``, whose every call is a message to each worker of the cluster."""


def default_workers() -> int:
    """The number of CPUs this process may use (at least 1; all of them where the system cannot
    say which), the same count that decides pinning (``affinity.CpuSlots``)."""
    return cpu_count()


def run_local(jobs: Sequence[Any], workers: int, on_done: OnDone,
              work: Work, pin: bool = False,
              stop: Optional[Callable[[], None]] = None) -> None:
    """Run ``work(job)`` for every job, at most ``workers`` at a time; ``on_done(result)``.
    With ``pin``, each thread's warm processes run on a CPU of their own when there are as many
    workers as CPUs (``harness.parallel.affinity``; for gradings, not for timed games).

    Jobs start in the given order. On KeyboardInterrupt (Ctrl-C, SIGTERM: ``harness.interrupts``)
    jobs not yet started are cancelled, ``stop()`` asks the running ones to stop (without it,
    they run to their end), what each of them then returns is handed to ``on_done`` too (a job
    cut short says so), and the interrupt propagates. ``stop()`` is called again every
    ``STOP_REPEAT`` seconds until they have all returned (it must ask each job once): a thread
    that had taken its job but not yet started it when the interrupt came (on a loaded host,
    a while) starts it later, and that job is stopped too rather than run to its end.
    """
    slots = CpuSlots(workers if pin else 0)
    with ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="gg-batch",
                            initializer=slots.claim) as pool:
        pending: set[Future[Any]] = {pool.submit(work, job) for job in jobs}
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                with deferred():  # a result is stored whole, whenever Ctrl-C comes
                    for future in done:
                        on_done(future.result())
        except KeyboardInterrupt:
            running = {future for future in pending if not future.cancel()}
            while running:
                if stop is not None:
                    stop()
                done, running = wait(running, timeout=STOP_REPEAT)
                for future in done:
                    on_done(future.result())
            raise


def run_dask(jobs: Sequence[Any], scheduler: Any, on_done: OnDone, work: Work,
             key: Optional[Callable[[Any], str]] = None,
             on_error: Optional[Callable[[Any, BaseException], Any]] = None,
             pin: bool = False, stop: Optional[StopThreads] = None,
             grace: float = 60.0) -> None:
    """Run ``work(job)`` for every job on a dask.distributed cluster; ``on_done(result)``.

    On KeyboardInterrupt, as ``run_local`` does: what finished is handed to ``on_done``, jobs
    not yet started are cancelled, and ``stop(threads)`` runs on each worker with the threads
    running this call's jobs there (without ``stop`` they are cancelled too, and run on to
    their end unseen); what those jobs then return (within ``grace`` seconds) is handed to
    ``on_done``, and the interrupt propagates.

    Args:
        scheduler: the scheduler's address (connected and closed here), or a connected
            ``distributed.Client`` the caller keeps.
        key: a job's task-key suffix (default ``job.key``).
        on_error: the result to hand on for a job whose task failed (default: raise).
        pin: as for ``run_local``, per host of the cluster (``affinity.spread_cluster``).

    Raises:
        ImportError: dask.distributed is not installed (``pip install 'gamegrader[batch]'``).
    """
    try:
        from distributed import Client, as_completed
    except ImportError as exc:
        raise ImportError("--scheduler needs dask.distributed: pip install "
                          "'gamegrader[batch]'") from exc
    own = isinstance(scheduler, str)
    # distributed has no type hints for Client and as_completed (untyped calls, not our errors)
    client = Client(scheduler, set_as_default=False) if own else scheduler  # type: ignore[no-untyped-call]
    try:
        spread_cluster(client, pin)
        # pure=False: two identical jobs are still two runs, and a rerun is never served from
        # the cluster's memory of an earlier one.
        prefix = f"gamegrader-{uuid.uuid4().hex[:8]}-"  # two runs never share a task key
        names = [(key or (lambda job: str(job.key)))(job) for job in jobs]
        futures = client.map(work, list(jobs), pure=False, key=[prefix + name for name in names])
        job_of = {future.key: job for future, job in zip(futures, jobs)}
        handed: set[Any] = set()

        def hand_on(future: Any) -> None:
            handed.add(future.key)
            if future.status != "finished" and on_error is not None:
                on_done(on_error(job_of[future.key], future.exception()))
            else:
                on_done(future.result())

        try:
            for future in as_completed(futures, loop=client.loop):  # type: ignore[no-untyped-call]
                with deferred():  # a result is stored whole, whenever Ctrl-C comes
                    hand_on(future)
        except KeyboardInterrupt:
            _stop_on_cluster(client, [f for f in futures if f.key not in handed], prefix,
                             stop, grace, hand_on)
            raise
    finally:
        if own:
            client.close()


def _stop_on_cluster(client: Any, left: Sequence[Any], prefix: str, stop: Optional[StopThreads],
                     grace: float, hand_on: Callable[[Any], None]) -> None:
    """After an interrupt: hand on the finished futures of ``left``, ``stop`` the running ones
    (on their workers, again every ``CLUSTER_STOP_REPEAT`` s while they run), cancel the rest,
    and hand on what the stopped ones return in ``grace`` s."""
    def ask() -> set[Any]:
        if stop is None:
            return set()
        answers = client.run(_stop_on_worker, prefix, stop, on_error="return")
        return {key for keys in answers.values() if isinstance(keys, list) for key in keys}

    stopping = ask()
    client.cancel([f for f in left if not f.done() and f.key not in stopping])
    deadline = time.monotonic() + grace
    waiting = [f for f in left if f.done() or f.key in stopping]
    asked = time.monotonic()
    while waiting and time.monotonic() < deadline:
        for future in [f for f in waiting if f.done()]:
            waiting.remove(future)
            if future.status != "cancelled":
                hand_on(future)
        if waiting:
            time.sleep(0.1)
        if waiting and time.monotonic() - asked >= CLUSTER_STOP_REPEAT:
            ask()  # as run_local does: a task that was only preparing its job is reached too
            asked = time.monotonic()


def _stop_on_worker(prefix: str, stop: StopThreads, dask_worker: Any) -> list[Any]:
    """On each dask worker (``Client.run`` fills in ``dask_worker``): ``stop`` the tasks of the
    run whose keys start with ``prefix`` that are running there; their keys."""
    running = {thread: key for thread, key in dict(dask_worker.active_threads).items()
               if str(key).startswith(prefix)}
    if running:
        stop(set(running))
    return list(running.values())
