"""Where tournament games run: local worker processes (default) or a dask.distributed cluster.

Both executors take an arena (``harness.tournament.records.Arena``) and a list of
:class:`GameTask`, call ``on_result`` in the calling process as each game finishes (in any
order), and return the results in task order, so a run's results do not depend on which game
finished first. Neither lets one game stall the run:

- :class:`LocalExecutor` keeps ``workers`` long-lived processes, each in its own process group.
  A worker that dies, or whose game overruns ``arena.game_timeout``, is killed with its group
  (sandboxed grandchildren included) and replaced; the game is recorded as aborted.
- :class:`DaskExecutor` submits every game to the cluster. Each task plays its game on a thread
  and gives up after ``arena.game_timeout`` (dask cannot kill a running task); a task that raises
  or whose worker keeps dying is recorded as aborted.
"""
from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections import deque
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any, Callable, Optional, Protocol, Sequence

from harness.tournament.records import Arena, GameResult, GameTask, aborted

ResultCallback = Callable[[GameTask, GameResult], None]

STARTUP_TIMEOUT = 60.0
"""Seconds a new local worker may take to start (import the reference) before it plays."""


class Executor(Protocol):
    """Runs a batch of games and returns their results in task order."""

    def run(self, arena: Arena, tasks: Sequence[GameTask],
            on_result: Optional[ResultCallback] = None) -> list[GameResult]:
        """Play every task; ``on_result`` is called once per task as it finishes."""

    def close(self) -> None:
        """Release whatever the executor holds between runs."""


def play_guarded(arena: Arena, task: GameTask) -> GameResult:
    """``arena.play(task)``, or an aborted result naming the exception the arena raised."""
    try:
        return arena.play(task)
    except Exception as error:  # an arena bug aborts one game, never the tournament
        return aborted(task, f"arena error: {type(error).__name__}: {error}")


def play_watched(task: GameTask, arena: Arena) -> GameResult:
    """:func:`play_guarded` on a daemon thread, abandoned after ``arena.game_timeout`` seconds."""
    box: list[GameResult] = []
    thread = threading.Thread(target=lambda: box.append(play_guarded(arena, task)), daemon=True)
    thread.start()
    thread.join(arena.game_timeout)
    if box:
        return box[0]
    return aborted(task, f"game overran its {arena.game_timeout:g} s deadline")


def _worker_main(connection: Connection, arena: Arena) -> None:
    """Worker process loop: receive a task, send its result, until told to stop (None)."""
    os.setsid()  # its own process group, so a kill reaches whatever the game started
    connection.send("ready")  # game deadlines start after the start-up, not before
    while True:
        task = connection.recv()
        if task is None:
            return
        connection.send(play_guarded(arena, task))


@dataclass
class _Worker:
    process: Any
    connection: Connection
    position: int = -1
    deadline: float = 0.0
    alive: bool = True

    @property
    def is_busy(self) -> bool:
        return self.position >= 0

    def kill(self) -> None:
        """Kill the worker's whole process group and reap it."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass  # not yet a group leader, or already gone: kill the process alone
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.connection.close()
        self.alive = False


class LocalExecutor:
    """Games on ``workers`` local processes; see the module docstring for fault handling."""

    def __init__(self, workers: int = 2, start_method: Optional[str] = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """Raises ValueError when ``workers`` is below 1."""
        if workers < 1:
            raise ValueError(f"workers must be at least 1, got {workers!r}")
        methods = multiprocessing.get_all_start_methods()
        self.start_method = start_method or ("forkserver" if "forkserver" in methods else "spawn")
        self.workers = workers
        self.clock = clock

    def close(self) -> None:
        """Nothing to release: worker processes live for one :meth:`run` only."""

    def _start(self, arena: Arena) -> _Worker:
        """A new worker that has finished starting (or a dead one, whose game will abort)."""
        context = multiprocessing.get_context(self.start_method)
        ours, theirs = context.Pipe()
        process = context.Process(  # type: ignore[attr-defined]
            target=_worker_main, args=(theirs, arena), daemon=False)
        process.start()
        theirs.close()
        worker = _Worker(process, ours)
        try:
            if ours.poll(STARTUP_TIMEOUT):
                ours.recv()
        except (EOFError, OSError):
            pass  # died while starting: the first game sent to it reports that
        return worker

    def run(self, arena: Arena, tasks: Sequence[GameTask],
            on_result: Optional[ResultCallback] = None) -> list[GameResult]:
        """Play ``tasks`` on local processes; results in task order."""
        if not tasks:
            return []
        results: list[Optional[GameResult]] = [None] * len(tasks)
        pending = deque(range(len(tasks)))
        pool: list[_Worker] = []

        def finish(worker: _Worker, result: GameResult) -> None:
            results[worker.position] = result
            task = tasks[worker.position]
            worker.position = -1
            if on_result is not None:
                on_result(task, result)

        try:
            while pending or any(w.is_busy for w in pool):
                while pending and sum(w.is_busy for w in pool) < self.workers:
                    worker = next((w for w in pool if not w.is_busy), None)
                    if worker is None:
                        worker = self._start(arena)
                        pool.append(worker)
                    worker.position = pending.popleft()
                    worker.deadline = self.clock() + arena.game_timeout
                    try:
                        worker.connection.send(tasks[worker.position])
                    except OSError:
                        worker.kill()
                        pool.remove(worker)
                        finish(worker, aborted(tasks[worker.position], "game worker died"))
                busy = [w for w in pool if w.is_busy]
                if not busy:
                    continue
                ready = wait([w.connection for w in busy],
                             max(0.0, min(w.deadline for w in busy) - self.clock()))
                for worker in busy:
                    result = self._collect(worker, worker.connection in ready, arena, tasks)
                    if result is not None:
                        finish(worker, result)
                        if not worker.alive:
                            pool.remove(worker)
        finally:
            _shut_down(pool)
        return [r for r in results if r is not None]

    def _collect(self, worker: _Worker, is_ready: bool, arena: Arena,
                 tasks: Sequence[GameTask]) -> Optional[GameResult]:
        """The busy worker's result if it has one, or an aborted result after killing it."""
        if is_ready:
            try:
                return worker.connection.recv()  # type: ignore[no-any-return]
            except (EOFError, OSError):
                detail = "game worker died"
        elif self.clock() >= worker.deadline:
            detail = f"game overran its {arena.game_timeout:g} s deadline"
        else:
            return None
        worker.kill()
        return aborted(tasks[worker.position], detail)


def _shut_down(pool: list[_Worker]) -> None:
    """Ask idle workers to stop, then kill whatever is still running."""
    for worker in pool:
        try:
            if not worker.is_busy:
                worker.connection.send(None)
        except OSError:
            pass
    for worker in pool:
        worker.process.join(2 if not worker.is_busy else 0)
        if worker.process.is_alive():
            worker.kill()
        else:
            worker.connection.close()


class DaskExecutor:
    """Games on a dask.distributed cluster; see the module docstring for fault handling.

    Args:
        scheduler: a scheduler address such as ``"tcp://10.0.0.5:8786"`` (the executor connects
            on first use and disconnects in :meth:`close`), or a connected
            ``distributed.Client``, which the caller keeps and closes.
    """

    def __init__(self, scheduler: Any) -> None:
        self.scheduler = scheduler
        self._client: Any = None if isinstance(scheduler, str) else scheduler

    def __enter__(self) -> DaskExecutor:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Disconnect from the cluster if this executor made the connection."""
        if isinstance(self.scheduler, str) and self._client is not None:
            self._client.close()
            self._client = None

    def run(self, arena: Arena, tasks: Sequence[GameTask],
            on_result: Optional[ResultCallback] = None) -> list[GameResult]:
        """Play ``tasks`` on the cluster; results in task order."""
        from distributed import Client, as_completed

        if not tasks:
            return []
        if self._client is None:
            self._client = Client(self.scheduler)
        futures = self._client.map(play_watched, list(tasks), arena=arena, pure=False)
        position = {future.key: i for i, future in enumerate(futures)}
        results: list[Optional[GameResult]] = [None] * len(tasks)
        for future in as_completed(futures):
            i = position[future.key]
            if future.status == "finished":
                result = future.result()
            else:
                result = aborted(tasks[i], f"dask task failed: {future.exception()!r}")
            results[i] = result
            if on_result is not None:
                on_result(tasks[i], result)
        return [r for r in results if r is not None]


def make_executor(workers: int = 2, scheduler: Optional[str] = None) -> Executor:
    """A :class:`DaskExecutor` when ``scheduler`` is given, else a :class:`LocalExecutor`."""
    return DaskExecutor(scheduler) if scheduler else LocalExecutor(workers)


__all__ = ["DaskExecutor", "Executor", "LocalExecutor", "ResultCallback", "make_executor",
           "play_guarded", "play_watched"]
