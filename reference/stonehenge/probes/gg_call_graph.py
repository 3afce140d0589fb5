"""Probe: which of the student's functions recurse during one call (runs in the student's process).

A function recurses when it is called while a call of the same function is still active
(directly, or through other functions). The probe watches, with ``sys.setprofile``, every Python
function defined in a file of the directory that holds the called function's file, except the
grader's probes; library code (``copy.deepcopy`` recurses internally) is not watched. It holds
no expected values. Standard library only.
"""
from __future__ import annotations

import os
import sys
from types import CodeType, FrameType
from typing import Any, Callable

_PROBE_FILES = frozenset({"gg_call_graph.py", "gg_tree_game.py"})


def _source_directory(function: Callable[..., Any]) -> str:
    """The directory of the file that defines ``function``.

    Raises:
        TypeError: if ``function`` is not a plain Python function.
    """
    code = getattr(function, "__code__", None)
    if not isinstance(code, CodeType):
        raise TypeError("expected a Python function, got %s" % type(function).__name__)
    return os.path.dirname(os.path.abspath(code.co_filename))


def find_recursion(function: Callable[..., Any], *args: Any) -> tuple[Any, list[str]]:
    """Call ``function(*args)`` and report the watched functions that recursed meanwhile.

    Returns:
        ``(value returned, sorted names of the functions that recursed)``. An exception from
        ``function`` propagates; the previous profile function is restored in every case.
    """
    directory = _source_directory(function)
    watched: dict[CodeType, bool] = {}
    active: dict[CodeType, int] = {}
    recursed: set[str] = set()

    def is_watched(code: CodeType) -> bool:
        if code not in watched:
            path = os.path.abspath(code.co_filename)
            watched[code] = (os.path.dirname(path) == directory
                             and os.path.basename(path) not in _PROBE_FILES)
        return watched[code]

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        code = frame.f_code
        if event == "call" and is_watched(code):
            active[code] = active.get(code, 0) + 1
            if active[code] > 1:
                recursed.add(code.co_name)
        elif event == "return" and is_watched(code):
            active[code] = active.get(code, 1) - 1

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        value = function(*args)
    finally:
        sys.setprofile(previous)
    return value, sorted(recursed)
