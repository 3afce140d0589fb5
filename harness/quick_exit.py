"""Ending a harness process at once, without the interpreter's teardown of its modules.

A grading imports several hundred modules; tearing them down takes tens of milliseconds, more
than some whole jobs. Where nothing is left to close (every sandbox closed, every file written
by ``with`` blocks), the harness flushes what it printed and exits at once.
"""
from __future__ import annotations

import atexit
import os
import sys
from typing import NoReturn


def exit_at_once(status: int, *, exit_handlers: bool) -> NoReturn:
    """Flush stdout and stderr, run the exit handlers if asked, and end the process.

    ``exit_handlers`` False: a forked child must not run the handlers its parent registered
    (a tournament's would remove the parent's folder)."""
    if exit_handlers:
        atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)
