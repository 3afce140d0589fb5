"""Where tournament games run: local processes (default) or a dask.distributed cluster.

Both executors hand their games to the batch's job runners (``harness.parallel.executors``: a pool
of threads each driving one process locally, or tasks on a cluster), call ``on_result`` in the
calling process as each game finishes (in any order), and return the results in task order, so
a run's results do not depend on which game finished first. Neither lets one game stall the run:

- :class:`LocalExecutor` plays each game in a process of its own, leading its own process group,
  forked from a warm process that imported the arena's modules once (``harness.parallel.warm``).
  A game whose process dies, or that overruns ``arena.game_timeout`` (counted from its start),
  is killed with its group (sandboxed grandchildren included) and recorded as aborted.
- :class:`DaskExecutor` submits every game to the cluster. Each task plays its game on a thread
  and gives up after ``arena.game_timeout`` (dask cannot kill a running task); a task that
  raises or whose worker keeps dying is recorded as aborted.
"""
from __future__ import annotations

import functools
import threading
from typing import Any, Callable, Optional, Protocol, Sequence

from harness.parallel.executors import run_dask, run_local
from harness.parallel.warm import WarmPool, main_module
from harness.records.games import Arena, GameResult, GameTask, aborted

ResultCallback = Callable[[GameTask, GameResult], None]
Numbered = tuple[int, GameTask]


class Executor(Protocol):
    """Runs a batch of games and returns their results in task order."""

    def run(self, arena: Arena, tasks: Sequence[GameTask],
            on_result: Optional[ResultCallback] = None) -> list[GameResult]:
        """Play every task; ``on_result`` is called once per task as it finishes."""

    def close(self) -> None:
        """Release whatever the executor holds between runs."""


STOP_GRACE = 5.0
"""Seconds a game cut short by an interrupt has to close its sandboxes before it is killed
(its result is not kept either way: the next run plays it again)."""


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


def _prepare() -> None:
    """Warm-up of a game's warm process: find the isolation level once, not per game."""
    from harness.sandbox.levels import detect
    detect()


def play_warm(pool: WarmPool, arena: Arena, main: Sequence[str], numbered: Numbered
              ) -> tuple[int, GameResult]:
    """Play one game in a process of its own, forked from one of ``pool``'s warm processes
    and leading its own process group; an aborted result if it dies or overruns."""
    index, task = numbered
    outcome = pool.call(play_guarded, (arena, task), arena.game_timeout, main=main,
                        warm=(_prepare, ()), own_group=True)
    if outcome.status is None:
        return index, aborted(task, f"game overran its {arena.game_timeout:g} s deadline")
    if isinstance(outcome.value, GameResult):
        return index, outcome.value
    return index, aborted(task, "game worker died")


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

    def __init__(self, workers: int = 2) -> None:
        """Raises ValueError when ``workers`` is below 1."""
        if workers < 1:
            raise ValueError(f"workers must be at least 1, got {workers!r}")
        self.workers = workers

    def close(self) -> None:
        """Nothing to release: a run's warm processes end with the run."""

    def run(self, arena: Arena, tasks: Sequence[GameTask],
            on_result: Optional[ResultCallback] = None) -> list[GameResult]:
        """Play ``tasks`` on local processes; results in task order."""
        results, done = _in_order(tasks, on_result)
        pool = WarmPool()
        try:
            run_local(list(enumerate(tasks)), self.workers, done,
                      work=functools.partial(play_warm, pool, arena, main_module()),
                      stop=functools.partial(pool.interrupt, STOP_GRACE))
        finally:
            pool.close()
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
           "play_guarded", "play_warm", "play_watched"]
