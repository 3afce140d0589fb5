"""Run grading jobs in parallel: on this machine, or on a dask.distributed cluster.

Locally, a pool of ``workers`` threads each drives one ``python -m harness grade`` process at a
time, so at most ``workers`` submissions are graded at once; the threads only wait, and every
submission gets its own process (a process pool around them would add nothing). With a
scheduler address, the same ``grade_job`` function runs on the cluster's workers (which need
gamegrader installed, but no shared file system). Both call ``on_done`` in this thread, in
completion order.
"""
from __future__ import annotations

import os
import uuid
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Callable, Sequence

from harness.batch.jobs import Job, Outcome, grade_job

OnDone = Callable[[Outcome], None]


def default_workers() -> int:
    """The number of CPUs this process may use (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def run_local(jobs: Sequence[Job], workers: int, on_done: OnDone) -> None:
    """Grade ``jobs`` with at most ``workers`` grading processes at a time.

    Jobs start in the given order. On KeyboardInterrupt, jobs not yet started are cancelled and
    the interrupt propagates once the running ones have stopped (their results so far were
    already handed to ``on_done``).
    """
    with ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="gg-batch") as pool:
        pending: set[Future[Outcome]] = {pool.submit(grade_job, job) for job in jobs}
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    on_done(future.result())
        except KeyboardInterrupt:
            pool.shutdown(wait=True, cancel_futures=True)
            raise


def run_dask(jobs: Sequence[Job], address: str, on_done: OnDone) -> None:
    """Grade ``jobs`` on the dask.distributed cluster whose scheduler is at ``address``.

    Raises:
        ImportError: dask.distributed is not installed (``pip install 'gamegrader[batch]'``).
    """
    try:
        from distributed import Client, as_completed
    except ImportError as exc:
        raise ImportError("--scheduler needs dask.distributed: pip install "
                          "'gamegrader[batch]'") from exc
    with Client(address, set_as_default=False) as client:
        # pure=False: two identical submissions are still two grading runs, and a regrade is
        # never served from the cluster's memory of an earlier one.
        run = uuid.uuid4().hex[:8]  # two batches on one cluster never share a task key
        futures = client.map(grade_job, list(jobs), pure=False,
                             key=[f"gamegrader-{run}-{job.key}" for job in jobs])
        try:
            for future in as_completed(futures, loop=client.loop):
                on_done(future.result())
        except KeyboardInterrupt:
            client.cancel(futures)
            raise
