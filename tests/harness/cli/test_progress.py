"""The one progress display batch grading and tournaments share (harness/progress.py)."""
from __future__ import annotations

import io

from harness.progress import ProgressDisplay


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_log_gets_one_line_per_status_and_a_terminal_one_redrawn_line():
    log, terminal = io.StringIO(), Terminal()
    for stream in (log, terminal):
        display = ProgressDisplay(2, stream, clock=lambda: 0.0)
        display.write("first", redraw=True)
        display.write("second", redraw=True)
        display.finish()
    assert log.getvalue() == "first\nsecond\n"
    assert terminal.getvalue() == "\r\033[Kfirst\r\033[Ksecond\n"


def test_the_estimate_is_the_mean_time_per_item_times_the_items_left():
    now = [10.0]
    display = ProgressDisplay(1, io.StringIO(), clock=lambda: now[0])
    assert display.eta() is None
    display.expect(3)
    now[0] = 20.0
    display.count()
    assert display.eta() == 30.0 and display.elapsed() == "0:10"
