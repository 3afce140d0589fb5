"""Where tournament games run: local processes (default) or a dask.distributed cluster.

Both executors hand their games to the batch's job runners (``harness.batch.executors``: a pool
of threads each driving one process locally, or tasks on a cluster), call ``on_result`` in the
calling process as each game finishes (in any order), and return the results in task order, so
a run's results do not depend on which game finished first. Neither lets one game stall the run:

- :class:`LocalExecutor` plays each game in a fresh process in its own process group. A game
  whose process dies, or that overruns ``arena.game_timeout``, is killed with its group
  (sandboxed grandchildren included) and recorded as aborted.
- :class:`DaskExecutor` submits every game to the cluster. Each task plays its game on a thread
  and gives up after ``arena.game_timeout`` (dask cannot kill a running task); a task that
  raises or whose worker keeps dying is recorded as aborted.
"""
from __future__ import annotations

import functools
import multiprocessing
import os
import signal
import threading
from multiprocessing.connection import Connection
from typing import Any, Callable, Optional, Protocol, Sequence

from harness.batch.executors import run_dask, run_local
from harness.tournament.records import Arena, GameResult, GameTask, aborted

ResultCallback = Callable[[GameTask, GameResult], None]
Numbered = tuple[int, GameTask]

STARTUP_TIMEOUT = 60.0
"""Seconds a game's process may take to start (import the reference) before its clock runs."""


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


def _game_main(connection: Connection, arena: Arena, task: GameTask) -> None:
    """A game's process: its own group, "ready" once started, then the result."""
    os.setsid()  # its own process group, so a kill reaches whatever the game started
    connection.send("ready")  # the game's deadline starts after the start-up, not before
    connection.send(play_guarded(arena, task))


def _kill(process: Any) -> None:
    """Kill a game's whole process group and reap it."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass  # not yet a group leader, or already gone: kill the process alone
    if process.is_alive():
        process.kill()
    process.join(5)


def play_in_process(arena: Arena, start_method: str, numbered: Numbered
                    ) -> tuple[int, GameResult]:
    """Play one game in a fresh process; an aborted result if it dies or overruns."""
    index, task = numbered
    context = multiprocessing.get_context(start_method)
    ours, theirs = context.Pipe()
    process = context.Process(  # type: ignore[attr-defined]
        target=_game_main, args=(theirs, arena, task), daemon=False)
    process.start()
    theirs.close()
    try:
        if ours.poll(STARTUP_TIMEOUT) and ours.recv() == "ready":
            if ours.poll(arena.game_timeout):
                return index, ours.recv()  # type: ignore[no-any-return]
            return index, aborted(task, f"game overran its {arena.game_timeout:g} s deadline")
        return index, aborted(task, "game worker did not start")
    except (EOFError, OSError):
        return index, aborted(task, "game worker died")
    finally:
        _kill(process)
        ours.close()


def _in_order(tasks: Sequence[GameTask], on_result: Optional[ResultCallback]
              ) -> tuple[list[Optional[GameResult]], Callable[[tuple[int, GameResult]], None]]:
    """A result list in task order and the ``on_done`` that fills it and reports each game."""
    results: list[Optional[GameResult]] = [None] * len(tasks)

    def done(numbered: tuple[int, GameResult]) -> None:
        index, result = numbered
        results[index] = result
        if on_result is not None:
            on_result(tasks[index], result)

    return results, done


class LocalExecutor:
    """Games on at most ``workers`` local processes at a time; see the module docstring."""

    def __init__(self, workers: int = 2, start_method: Optional[str] = None) -> None:
        """Raises ValueError when ``workers`` is below 1."""
        if workers < 1:
            raise ValueError(f"workers must be at least 1, got {workers!r}")
        methods = multiprocessing.get_all_start_methods()
        self.start_method = start_method or ("forkserver" if "forkserver" in methods else "spawn")
        self.workers = workers

    def close(self) -> None:
        """Nothing to release: every game's process ends with its game."""

    def run(self, arena: Arena, tasks: Sequence[GameTask],
            on_result: Optional[ResultCallback] = None) -> list[GameResult]:
        """Play ``tasks`` on local processes; results in task order."""
        results, done = _in_order(tasks, on_result)
        run_local(list(enumerate(tasks)), self.workers, done,
                  work=functools.partial(play_in_process, arena, self.start_method))
        return [r for r in results if r is not None]


def _watched(arena: Arena, numbered: Numbered) -> tuple[int, GameResult]:
    return numbered[0], play_watched(numbered[1], arena)


class DaskExecutor:
    """Games on a dask.distributed cluster; see the module docstring for fault handling.

    Args:
        scheduler: a scheduler address such as ``"tcp://10.0.0.5:8786"`` (connected for each
            run), or a connected ``distributed.Client``, which the caller keeps and closes.
    """

    def __init__(self, scheduler: Any) -> None:
        self.scheduler = scheduler

    def __enter__(self) -> DaskExecutor:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Nothing to release: a run given an address disconnects at its end."""

    def run(self, arena: Arena, tasks: Sequence[GameTask],
            on_result: Optional[ResultCallback] = None) -> list[GameResult]:
        """Play ``tasks`` on the cluster; results in task order."""
        if not tasks:
            return []
        results, done = _in_order(tasks, on_result)
        run_dask(list(enumerate(tasks)), self.scheduler, done,
                 work=functools.partial(_watched, arena),
                 key=lambda numbered: f"game-{numbered[1].index}-{numbered[1].seed}",
                 on_error=lambda numbered, error: (numbered[0], aborted(
                     numbered[1], f"dask task failed: {error!r}")))
        return [r for r in results if r is not None]


def make_executor(workers: int = 2, scheduler: Optional[str] = None) -> Executor:
    """A :class:`DaskExecutor` when ``scheduler`` is given, else a :class:`LocalExecutor`."""
    return DaskExecutor(scheduler) if scheduler else LocalExecutor(workers)


__all__ = ["DaskExecutor", "Executor", "LocalExecutor", "ResultCallback", "make_executor",
           "play_guarded", "play_in_process", "play_watched"]
