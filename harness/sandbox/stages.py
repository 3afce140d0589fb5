"""Where each case's overhead goes: a per-stage clock, off unless a profile asks for it.

The overhead bench (``bench/bench_harness_overhead.py``) turns it on to print, per case, the
milliseconds spent making the case folder, starting the process, waiting, cleaning up and so
on. When off, ``add`` returns at once, so grading pays one clock read per stage.

Stages measured inside the sandbox (the worker's and the zygote's own clocks, see
``harness.worker.main``) arrive as timestamps of the same monotonic clock and are turned into
durations here. Those timestamps come from processes that run student code, so they are only
ever shown in a profile, never used to grade.
"""
from __future__ import annotations

import time
from typing import Iterable, Mapping

now = time.monotonic  # the clock the worker uses too (shared across pid namespaces)


class Stages:
    """Seconds per stage, summed over cases."""

    def __init__(self) -> None:
        self.enabled = False
        self.seconds: dict[str, float] = {}

    def add(self, stage: str, since: float, until: float | None = None) -> float:
        """Count ``until - since`` (default: up to now) towards ``stage``; returns the end."""
        end = now() if until is None else until
        if self.enabled:
            self.seconds[stage] = self.seconds.get(stage, 0.0) + max(0.0, end - since)
        return end

    def add_marks(self, start: float, marks: Iterable[tuple[str, float | None]], end: float,
                  last: str) -> None:
        """Split ``start .. end`` at the given ordered marks: each stage lasts from the
        previous mark to its own, and ``last`` from the last mark to ``end``. Missing or
        out-of-order marks merge into the next stage; marks before ``start`` count as 0."""
        if not self.enabled:
            return
        previous = start
        for stage, mark in marks:
            if mark is None:
                continue
            # A step done before the span began (on a busy machine the child can get that far
            # before the grader's clock is read after sending) lasts nothing here.
            mark = max(mark, start)
            if not previous <= mark <= end:
                continue
            self.add(stage, previous, mark)
            previous = mark
        self.add(last, previous, end)

    def reset(self) -> None:
        self.seconds.clear()


STAGES = Stages()


def marks_of(trace: Mapping[str, float | None] | None, names: Iterable[tuple[str, str]]
             ) -> list[tuple[str, float | None]]:
    """``(stage, timestamp)`` pairs for the trace keys ``names`` maps to stages."""
    trace = trace or {}
    return [(stage, trace.get(key)) for key, stage in names]
