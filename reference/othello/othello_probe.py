"""Probe run inside the student's process: counts calls into the supplied ``othello_shared``.

Copied into the sandbox as a probe file (stdlib only; it holds no expected values). A case
transcript installs it, runs a search, and shows the counts as plain data for the trusted
comparator::

    >>> import othello_probe
    >>> probe = othello_probe.install("agent")
    >>> probe.reset()
    >>> select_move_alphabeta(board, 1, 4, 0, 1)
    >>> probe.counts()
    {'find_lines': 0, 'get_possible_moves': 812, 'get_score': 3000, 'play_move': 2900}

``install`` wraps each helper of the ``othello_shared`` module in a counting wrapper and puts
the wrapper wherever the original function is bound: in ``othello_shared`` itself (for
``othello_shared.play_move(...)`` calls) and in the student module's globals (for
``from othello_shared import ...``). Calls the helpers make to each other are not counted.
"""
from __future__ import annotations

import functools
import sys
from typing import Any, Callable

HELPERS = ("find_lines", "get_possible_moves", "get_score", "play_move")


class CallCounter:
    """Counts of calls made by student code to each helper since the last ``reset``."""

    def __init__(self) -> None:
        self._counts = dict.fromkeys(HELPERS, 0)
        self._depth = 0

    def reset(self) -> None:
        """Set every count to 0."""
        for name in self._counts:
            self._counts[name] = 0

    def counts(self) -> dict[str, int]:
        """A new dict: helper name -> calls since the last reset (plain ints)."""
        return {name: int(count) for name, count in sorted(self._counts.items())}

    def wrap(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        """A wrapper of ``function`` that counts outermost calls under ``name``."""

        @functools.wraps(function)
        def counted(*args: Any, **kwargs: Any) -> Any:
            if self._depth == 0:
                self._counts[name] += 1
            self._depth += 1
            try:
                return function(*args, **kwargs)
            finally:
                self._depth -= 1

        counted.__wrapped_by_probe__ = True  # type: ignore[attr-defined]
        return counted


def install(module_name: str) -> CallCounter:
    """Wrap the helpers of ``othello_shared`` for the student module ``module_name``.

    Returns:
        The CallCounter that the wrappers report to, with all counts at 0.

    Raises:
        ImportError: othello_shared cannot be imported.
    """
    import othello_shared  # type: ignore[import-not-found]  # exists in the sandbox only

    counter = CallCounter()
    student = sys.modules.get(module_name)
    for name in HELPERS:
        current = getattr(othello_shared, name, None)
        if current is None:
            continue
        # installing again replaces the earlier wrapper, so only the newest counter counts
        original = current.__wrapped__ if getattr(current, "__wrapped_by_probe__", False) \
            else current
        wrapper = counter.wrap(name, original)
        setattr(othello_shared, name, wrapper)
        if student is not None:
            space = vars(student)
            for key, value in list(space.items()):
                if value is original or value is current:
                    space[key] = wrapper
    return counter
