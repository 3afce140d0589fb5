"""Probe run inside the student's process: counts the work a search does in ``othello_shared``.

Copied into the sandbox as a probe file (stdlib only; it holds no expected values). A case
transcript installs it, runs searches, and shows the work of each as plain data for the trusted
comparator::

    >>> import othello_probe
    >>> work = othello_probe.install()
    >>> minimax_max_node(board, 1, 4, 0)
    ((2, 3), 5)
    >>> work()
    (812, 40, 311)

``work()`` reports three numbers: the calls into the helpers, how many times the search
explored a position again, i.e. called ``play_move`` with a board, player and square it had
already played since the previous ``work()`` (a successor generated again: the position was
expanded again), and the successors it generated (``play_move`` calls) in all.

The second is what the handout's cache is for ("if a state is already in the dictionary, do
not explore it again"): a position found in the cache is not expanded, whatever else the node
did first (some students ask ``get_possible_moves`` before looking in the cache), and a cache
that is never found saves none of it, however few calls it makes. It also shows a cache at
work where the cache's side effects cost calls elsewhere: an alpha-beta cache that stores a
pruned node's bound changes later pruning, and can make a search call the helpers a few times
more while it explores far fewer positions again. The third shows a search re-using what an
earlier one stored: searched again, a position found in the cache generates fewer successors
than without caching, and a cache only filled (never read) generates as many, whatever other
helpers the filling called.

:func:`set_up` runs a first select_move as a game's first turn would, before the first counted
window, so a cache a student creates there (``cache = None`` at the top of the file, a dict
made on the first call) exists when the node functions are called directly.

Counting does not depend on how the student reached the helpers. Instead of rebinding names,
:func:`install` swaps the *code* of each helper function object of ``othello_shared`` for a
counting stub, so every reference to it counts: ``from othello_shared import ...`` in the agent
or in a helper module of the student's, a default argument, a class attribute. Calls the helpers
make to each other are not counted (only the outermost call is).

The counters live in the student's process, so they are guarded rather than trusted: an audit
hook refuses, with "instrumentation disabled", any attempt to swap a helper's code back or to
list objects through ``gc``; and ``work()`` reports "instrumentation disabled: <what>" instead of
a number when a helper was replaced in ``othello_shared``, or a student module's name for a
helper was rebound, after :func:`install`. The comparator fails such a case with that message.
"""
from __future__ import annotations

import os
import sys
import types
from typing import Any, Callable, Union

HELPERS = ("find_lines", "get_possible_moves", "get_score", "play_move")
DISABLED = "instrumentation disabled"
_HOOK_NAME = "__othello_probe_call__"
_GC_EVENTS = ("gc.get_referrers", "gc.get_referents", "gc.get_objects")

Work = Callable[[], Union[tuple[int, int, int], str]]
EXPLORE = "play_move"
"""The helper whose repeated calls (same board, player and square) count as exploring a
position again: each is a successor generated a second time."""


def _position_key(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """A hashable key for a helper call's arguments (list boards by their text); None when the
    arguments cannot be told apart safely."""
    key = (args, tuple(sorted(kwargs.items())))
    try:
        hash(key)
        return key
    except TypeError:
        pass
    try:
        text = repr(key)
    except Exception:  # a student's odd argument: not counted
        return None
    return text if len(text) < 100_000 else None


def _stub_code(name: str, index: int) -> types.CodeType:
    """A code object ``name(*args, **kwargs)`` that hands the call to the probe's hook."""
    space: dict[str, Any] = {}
    exec(f"def {name}(*args, **kwargs):\n"  # fixed text, no outside input
         f"    return {_HOOK_NAME}({index}, args, kwargs)\n", space)
    return space[name].__code__  # type: ignore[no-any-return]


def _student_bindings(helpers: dict[str, Any]) -> list[tuple[dict[str, Any], str, Any]]:
    """(module globals, name, function) for every helper bound in a module of the case folder."""
    folder = os.path.realpath(os.getcwd())
    found = []
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        if not path or not os.path.realpath(path).startswith(folder + os.sep):
            continue
        space = vars(module)
        for key, value in list(space.items()):
            for function in helpers.values():
                if value is function:
                    found.append((space, key, function))
    return found


def set_up(first_turn: Callable[[], Any], work: Work) -> None:
    """Call ``first_turn()`` (a select_move call with caching on, as a game's first turn makes
    it) and ignore what it returns: it only lets the agent set itself up (a cache created on the
    first call). Then ``work()`` starts a fresh window, so the set-up is not counted; it runs
    after :func:`install`, so a helper rebound during it is still noticed. What the call raises
    is raised again: a search with caching that fails on a game's first turn is a caching that
    does not work, and the case must say so rather than go on with what the failed call left
    in the cache (issue 50)."""
    try:
        first_turn()
    finally:
        work()


def install() -> Work:
    """Start counting calls into ``othello_shared``; return ``work()``.

    ``work()`` returns the number of (outermost) helper calls since the previous ``work()`` (or
    since ``install``), the number of those that explored a position again and the number of
    ``play_move`` calls, or a text starting
    with :data:`DISABLED` when the instruments were tampered with. Installing twice in one process
    is refused.

    Raises:
        ImportError: othello_shared cannot be imported.
        RuntimeError: the probe is already installed.
    """
    import othello_shared  # type: ignore[import-not-found]  # exists in the sandbox only

    space = vars(othello_shared)
    if _HOOK_NAME in space:
        raise RuntimeError("othello_probe is already installed in this process")
    helpers = {name: space[name] for name in HELPERS
               if isinstance(space.get(name), types.FunctionType)}
    originals = {name: types.FunctionType(f.__code__, f.__globals__, name, f.__defaults__,
                                          f.__closure__) for name, f in helpers.items()}
    stubs = {name: _stub_code(name, index) for index, name in enumerate(helpers)}
    names = list(helpers)
    state = {"calls": 0, "depth": 0, "again": 0, "plays": 0}
    explored: set[Any] = set()

    def call(index: int, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if state["depth"] == 0:
            state["calls"] += 1
            if names[index] == EXPLORE:
                state["plays"] += 1
                key = _position_key(args, kwargs)
                if key in explored:
                    state["again"] += 1
                elif key is not None:
                    explored.add(key)
        state["depth"] += 1
        try:
            return originals[names[index]](*args, **kwargs)
        finally:
            state["depth"] -= 1

    guarded = {id(f) for f in helpers.values()}

    def audit(event: str, args: tuple[Any, ...]) -> None:
        if event == "object.__setattr__" and id(args[0]) in guarded:
            raise RuntimeError(f"{DISABLED}: the code of othello_shared.{args[0].__name__} "
                               "was changed")
        if event in _GC_EVENTS:
            raise RuntimeError(f"{DISABLED}: {event} is not allowed while work is measured")

    bindings = _student_bindings(helpers)
    space[_HOOK_NAME] = call
    for name, function in helpers.items():
        function.__code__ = stubs[name]
    sys.addaudithook(audit)

    def tampering() -> str:
        if space.get(_HOOK_NAME) is not call:
            return f"othello_shared.{_HOOK_NAME} was replaced"
        for name, function in helpers.items():
            if space.get(name) is not function:
                return f"othello_shared.{name} was replaced"
        for module_space, key, function in bindings:
            if module_space.get(key) is not function:
                where = module_space.get("__name__", "?")
                return f"{where}.{key} no longer names othello_shared.{function.__name__}"
        return ""

    def work() -> Union[tuple[int, int, int], str]:
        problem = tampering()
        if problem:
            return f"{DISABLED}: {problem}"
        calls, again, plays = state["calls"], state["again"], state["plays"]
        state["calls"] = state["again"] = state["plays"] = 0
        explored.clear()
        return int(calls), int(again), int(plays)

    return work


__all__ = ["DISABLED", "HELPERS", "Work", "install", "set_up"]
