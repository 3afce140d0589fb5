"""Probe: which of the student's functions recurse during one call (runs in the student's process).

A function recurses when it is called while a call of the same function is still active
(directly, or through other functions). The probe watches, with ``sys.setprofile``, every Python
function defined in a file under the directory that holds the called function's file (the
submission's folder, helper modules and packages included), except the grader's probes; library
code (``copy.deepcopy`` recurses internally) and the import machinery (an ``import`` inside the
student's function) are not watched. A function is told apart by its code
and its closure, so one decorator's wrapper around two different functions is two functions.

The profiler runs in the student's process, so the student could switch it off. The probe
treats that as a failed check instead of trusting what it saw: it raises
:class:`InstrumentationDisabled` when ``sys.setprofile`` does not install it, when the student's
code calls ``sys.setprofile`` while it watches, when another profiler is in place at the end,
or when the explicit game tree (``gg_tree_game``) counted more moves made than the profiler saw.
It holds no expected values. Standard library only.
"""
from __future__ import annotations

import os
import sys
from types import CodeType, FrameType
from typing import Any, Callable, Hashable

_PROBE_FILES = frozenset({"gg_call_graph.py", "gg_tree_game.py"})


class InstrumentationDisabled(RuntimeError):
    """The recursion probe could not watch the whole call: the student's code switched it off."""


def _source_directory(function: Callable[..., Any]) -> str:
    """The directory of the file that defines ``function`` (unwrapping decorators), else of its
    module, else the working directory (the submission's folder in the sandbox)."""
    inner = function
    for _ in range(100):
        if not hasattr(inner, "__wrapped__"):
            break
        inner = inner.__wrapped__
    code = getattr(inner, "__code__", None)
    if isinstance(code, CodeType):
        return os.path.dirname(os.path.abspath(code.co_filename))
    module = sys.modules.get(getattr(function, "__module__", "") or "")
    path = getattr(module, "__file__", None)
    if isinstance(path, str):
        return os.path.dirname(os.path.abspath(path))
    return os.getcwd()


def _identity(frame: FrameType) -> Hashable:
    """What tells one function from another: its code, and for a closure the functions it
    closes over (a decorator's wrapper around ``f`` is not the wrapper around ``g``). Other free
    variables (counters, memo tables) change during a call and do not name a function."""
    code = frame.f_code
    if not code.co_freevars:
        return code
    try:
        local = frame.f_locals
        closed = (local.get(name) for name in code.co_freevars)
        return (code, tuple(id(value) for value in closed if callable(value)))
    except Exception:  # an odd frame: fall back to the code alone
        return code


def _tree_game(args: tuple[Any, ...]) -> tuple[Any, CodeType | None]:
    """The explicit game tree (``gg_tree_game``) among ``args`` and the code of its states'
    ``make_move``, which counts the moves made; (None, None) if there is none."""
    for arg in args:
        tree = getattr(arg, "_tree", None)
        make_move = getattr(type(getattr(arg, "current_state", None)), "make_move", None)
        code = getattr(make_move, "__code__", None)
        if type(getattr(tree, "moves_made", None)) is int and isinstance(code, CodeType):
            return tree, code
    return None, None


def _heartbeat() -> None:
    """Called once after the profiler is installed: the profiler must see this call."""


def find_recursion(function: Callable[..., Any], *args: Any) -> tuple[Any, list[str]]:
    """Call ``function(*args)`` and report the watched functions that recursed meanwhile.

    Returns:
        ``(value returned, sorted names of the functions that recursed)``. An exception from
        ``function`` propagates; the previous profile function is restored in every case.

    Raises:
        InstrumentationDisabled: the profiler was not in place for the whole call.
    """
    directory = os.path.join(_source_directory(function), "")
    watched: dict[CodeType, bool] = {}
    active: dict[Hashable, int] = {}
    open_frames: dict[int, Hashable] = {}  # id(frame) -> its function's identity, while active
    recursed: set[str] = set()
    seen = {"heartbeat": 0, "moves": 0}
    tampering: list[str] = []
    heartbeat_code = _heartbeat.__code__
    tree, make_move_code = _tree_game(args)
    own_code = find_recursion.__code__

    def is_watched(code: CodeType) -> bool:
        if code not in watched:
            # Only real files: "<frozen importlib._bootstrap>" (an import inside the student's
            # function) or "<string>" would otherwise look local once made absolute.
            path = code.co_filename
            watched[code] = (os.path.isabs(path) and path.startswith(directory)
                             and os.path.basename(path) not in _PROBE_FILES)
        return watched[code]

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        code = frame.f_code
        if event == "call":
            if code is make_move_code:
                seen["moves"] += 1
            elif code is heartbeat_code:
                seen["heartbeat"] += 1
            elif is_watched(code):
                key = open_frames[id(frame)] = _identity(frame)
                active[key] = active.get(key, 0) + 1
                if active[key] > 1:
                    recursed.add(code.co_name)
        elif event == "return" and id(frame) in open_frames:
            key = open_frames.pop(id(frame))
            active[key] -= 1
        elif (event == "c_call" and getattr(arg, "__name__", None) == "setprofile"
              and code is not own_code):  # the probe's own call that restores the profiler
            tampering.append("your code called sys.setprofile")

    moves_before = tree.moves_made if tree is not None else 0
    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        _heartbeat()
        if seen["heartbeat"] != 1:
            tampering.append("sys.setprofile does not install the probe's profiler")
        value = function(*args)
        if sys.getprofile() is not profile:
            tampering.append("another profiler was in place when your function returned")
    finally:
        sys.setprofile(previous)
    if tree is not None and tree.moves_made - moves_before > seen["moves"]:
        tampering.append("the profiler missed moves your code made on the game")
    if tampering:
        raise InstrumentationDisabled(
            "instrumentation disabled: the grader's recursion probe was switched off while your "
            "function ran (" + "; ".join(dict.fromkeys(tampering)) + "), so it cannot tell "
            "whether your code recursed")
    return value, sorted(recursed)
