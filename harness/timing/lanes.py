"""How many cases of one grading run side by side ("lanes"), so that a grading on a machine
with idle CPUs takes a fraction of the time, with the grades it would get one case at a time.

Each lane is a zygote of the submission's sandbox (``Sandbox.widen``): a case still runs in a
fresh process and a fresh folder, beside at most one case per other lane. Three rules keep the
grades those of a one-at-a-time run:
- a case runs beside others only on CPUs nobody else uses: as many lanes as whole CPUs this
  process may use (affinity and control-group quota: Gradescope's half CPU gives one), less
  those other programs keep busy now, and as many as the spare memory holds at the
  assignment's memory limit each;
- a case whose answer may depend on its speed never has a neighbour: game runners, and cases
  the spec marks ``alone`` (a player with a clock);
- a case not passed beside another is graded again alone before its verdict stands: a
  neighbour can only take from a case (CPU time; the processes and threads its user may start;
  disk; a buggy neighbour may even remove files it can reach), never give it a right answer, so
  every verdict other than "passed" comes from a case that ran alone. After a timeout the rest
  of that grading runs one case at a time: a submission that times out once likely will again,
  and each timeout would otherwise be paid twice. So does a grading in which many cases do not
  pass (``keep_lanes``): lanes pay for a case that passes, and a submission failing most of
  its cases (a template, a part left out) would run most of them twice.
Batch grading passes one lane: it already runs a grading per CPU. ``GAMEGRADER_LANES=N`` (or
``grade --lanes N``) sets the number, 1 turning lanes off.
"""
from __future__ import annotations

import os

from harness.host import one_cpu_each, others_running, spare_memory_mb, usable_cpus

LANES_ENV = "GAMEGRADER_LANES"
MAX_LANES = 4
"""More lanes than this gain little: the grader's own work per case (judging) is serial."""


def choose_lanes(memory_mb: int, asked: int | None = None) -> int:
    """How many lanes a grading may use: ``asked`` if given, else ``GAMEGRADER_LANES`` if
    set, else as many as this host has idle CPUs and memory for (at most ``MAX_LANES``)."""
    if asked is None:
        try:
            asked = int(os.environ.get(LANES_ENV, "")) or None
        except ValueError:
            asked = None
    if asked is not None:
        return max(1, min(asked, 64))
    cpus = usable_cpus()
    if cpus < 2:
        return 1
    lanes = min(cpus - others_running(), spare_memory_mb() // max(1, memory_mb), MAX_LANES)
    return max(1, lanes)


FAILED_BEFORE_SERIAL = 4
"""Cases not passed beside another before ``keep_lanes`` may give up on lanes."""


def keep_lanes(not_passed: int, run_beside: int) -> bool:
    """Whether a grading keeps running cases side by side, after ``run_beside`` of its cases
    ran beside another and ``not_passed`` of them did not pass (each graded again alone):
    not once at least ``FAILED_BEFORE_SERIAL`` and a quarter of them have not passed, as a
    second run then costs more than lanes save."""
    return not_passed < FAILED_BEFORE_SERIAL or not_passed * 4 < run_beside


def lane_cpus(lanes: int) -> list[int]:
    """The CPU of each lane, when there is a lane for every CPU this process may use: a
    lane's processes then stay on their CPU instead of now and then waking beside the other
    lane's while a CPU idles, as batch workers do (``choose_lanes`` has already judged the
    machine idle). Else none."""
    return one_cpu_each(lanes)
