"""Ctrl-C and SIGTERM stop a command the same way: as a ``KeyboardInterrupt`` in the main thread,
so every ``finally`` runs, what finished is kept and what was cut short is recorded as
interrupted (never as a score). The exit status is 128 + the signal's number, as shells report
a process the signal ended: 130 for Ctrl-C (SIGINT), 143 for SIGTERM.

Once a command is stopping, a second Ctrl-C or SIGTERM is noted and otherwise ignored: the
command is then writing down what finished (a gradebook, a results file), which a second
interrupt must not cut in half. That stop is bounded (jobs still running are killed after a
grace period). SIGKILL cannot be caught: what it cuts short keeps its provisional record.
"""
from __future__ import annotations

import contextlib
import signal
import sys
import threading
from types import FrameType
from typing import Iterator, Optional

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(KeyboardInterrupt):
    """The command was asked to stop by ``signum`` (a ``KeyboardInterrupt``, so code that
    handles Ctrl-C handles SIGTERM alike)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def exit_status(interrupt: BaseException) -> int:
    """The exit status for a command that ``interrupt`` stopped: 128 + the signal's number
    (130 for a plain ``KeyboardInterrupt``).

    >>> exit_status(Interrupted(signal.SIGTERM)), exit_status(KeyboardInterrupt())
    (143, 130)
    """
    return 128 + int(getattr(interrupt, "signum", signal.SIGINT))


_DEFERRED: list[int] = []
"""Signals that arrived inside :func:`deferred` blocks (the first one is raised at the end)."""
_DEFERRING = [0]


def _stop(signum: int, frame: Optional[FrameType]) -> None:
    for each in STOP_SIGNALS:  # from now on the command is stopping: see the module docstring
        signal.signal(each, _already_stopping)
    if _DEFERRING[0]:
        _DEFERRED.append(signum)
        return
    raise Interrupted(signum)


def _already_stopping(signum: int, frame: Optional[FrameType]) -> None:
    try:
        sys.stderr.write("\ngamegrader: already stopping (writing down what finished)\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def stopping() -> bool:
    """Whether this process was asked to stop."""
    return signal.getsignal(signal.SIGINT) is _already_stopping


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """A block that an interrupt does not cut in half (storing a finished result): an
    interrupt that arrives inside it is raised when it ends."""
    _DEFERRING[0] += 1
    try:
        yield
    finally:
        _DEFERRING[0] -= 1
        if not _DEFERRING[0] and _DEFERRED:
            signum = _DEFERRED[0]
            _DEFERRED.clear()
            raise Interrupted(signum)


def stop_on_signals(keep_ignored: bool = True) -> None:
    """In the main thread of a command or a job's process: SIGINT and SIGTERM raise
    :class:`Interrupted` there, once. With ``keep_ignored``, a signal the process was started
    ignoring (a background job of a script ignores Ctrl-C) stays ignored."""
    for each in STOP_SIGNALS:
        if not keep_ignored or signal.getsignal(each) is not signal.SIG_IGN:
            signal.signal(each, _stop)


@contextlib.contextmanager
def stopping_on_signals() -> Iterator[None]:
    """:func:`stop_on_signals` for the time of a ``with`` block (in the main thread only;
    elsewhere nothing changes), then the handlers from before."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {each: signal.getsignal(each) for each in STOP_SIGNALS}
    stop_on_signals()
    try:
        yield
    finally:
        if stopping():  # it stays so until it has exited (Python's own exit would reset the
            for each in STOP_SIGNALS:  # handler, and a second Ctrl-C then kill it mid-exit)
                signal.signal(each, signal.SIG_IGN)
        else:
            for each, handler in before.items():
                signal.signal(each, handler)


__all__ = ["Interrupted", "STOP_SIGNALS", "deferred", "exit_status", "stop_on_signals",
           "stopping", "stopping_on_signals"]
