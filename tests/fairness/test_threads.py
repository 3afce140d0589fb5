"""Honest code may run a few dozen threads at once: a timer or watchdog thread started on every
move and never cancelled (an Othello agent on 6x6 has about 16 moves a game, on 8x8 about 30),
or a pool of worker threads. Under the 512 MiB address-space limit, glibc's malloc arena per
thread (64 MiB reserved, never used) let a program start only 13 threads, and such an agent
crashed with "can't start new thread" on its 14th move. The sandbox's environment now caps the
arenas; what is left is the process limit, shared by everything the sandbox user runs.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from harness.sandbox import Sandbox

pytestmark = pytest.mark.slow

LIVE_THREADS = 24
"""More than the 13 the arenas allowed, fewer than the user's process limit (32) leaves."""

PROGRAM = f'''
import threading, time
started = 0
try:
    for _ in range({LIVE_THREADS}):
        threading.Timer(60, lambda: None).start()  # a per-move timer, never cancelled
        started += 1
except RuntimeError as error:
    print("stopped after", started, error, flush=True)
else:
    print("started", started, flush=True)
'''


def test_a_program_can_keep_two_dozen_timer_threads_alive(tmp_path: Path) -> None:
    script = tmp_path / "timers.py"
    script.write_text(PROGRAM, encoding="utf-8")
    with Sandbox("timers", {"timers.py": script}) as box:
        with box.start_program() as program:
            assert program.read_line(20) == f"started {LIVE_THREADS}"
