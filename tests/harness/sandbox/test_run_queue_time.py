"""A busy host's share of a case's wall time is read from the kernel (``schedstat``'s run-queue
wait), so a deadline can give it back: a process kept from the CPU accumulates it, one that
sleeps does not, whatever else the machine runs."""
from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from harness.sandbox.cleanup import held_back_extension, tree_held_back_seconds
from harness.sandbox.process_times import run_queue_seconds

SPIN = [sys.executable, "-c", "while True: pass"]


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(f"/proc/{os.getpid()}/schedstat"),
                    reason="a kernel without schedstats")
def test_a_process_kept_from_the_cpu_waits_on_the_run_queue_and_a_sleeping_one_does_not(
        ) -> None:
    cpu = min(os.sched_getaffinity(0))

    def pinned() -> None:
        os.sched_setaffinity(0, {cpu})

    hogs = [subprocess.Popen(SPIN, preexec_fn=pinned) for _ in range(3)]
    sleeper = subprocess.Popen([sys.executable, "-c", "import time\nprint(flush=True)\n"
                                "time.sleep(60)"], stdout=subprocess.PIPE)
    try:
        victim = subprocess.Popen(SPIN, preexec_fn=pinned)
        hogs.append(victim)
        assert sleeper.stdout is not None
        sleeper.stdout.readline()
        victim_before, sleeper_before = run_queue_seconds(victim.pid), run_queue_seconds(
            sleeper.pid)
        time.sleep(1.0)
        victim_held = (run_queue_seconds(victim.pid) or 0.0) - (victim_before or 0.0)
        sleeper_held = (run_queue_seconds(sleeper.pid) or 0.0) - (sleeper_before or 0.0)
        tree = tree_held_back_seconds(victim.pid, with_top=True)
    finally:
        for process in (*hogs, sleeper):
            process.kill()
            process.wait()
    # Four spinners share one CPU: the victim waits about three quarters of the second.
    assert victim_held >= 0.4
    assert tree >= victim_held
    assert sleeper_held < 0.1


def test_the_deadline_moves_on_by_the_time_held_back_up_to_the_backstop() -> None:
    held = [0.0]
    extend = held_back_extension(100.0, 2.0, 3.0, lambda: held[0])
    assert extend is not None
    assert extend(102.0) == 102.0  # not held back: the wait stands
    held[0] = 1.5
    assert extend(102.0) == 103.5
    held[0] = 50.0
    assert extend(103.5) == 106.0  # three times the wait at most
    assert held_back_extension(100.0, 2.0, 1.0, lambda: 9.0) is None
