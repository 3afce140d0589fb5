"""Test doubles for the Isolation tests: a clock and a call server."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable


class TickingClock:
    """A clock that advances ``step`` seconds every time it is read; deterministic."""

    def __init__(self, step: float = 0.001) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@dataclass
class FakeResult:
    """The fields of the harness's CallResult that seats read."""

    ok: bool
    value: Any = None
    error: str = ""
    timed_out: bool = False


@dataclass
class FakeServer:
    """A CallServer double: ``reply(function, args, timeout)`` gives each FakeResult."""

    reply: Callable[[str, list[Any], float], FakeResult]
    calls: list[tuple[str, list[Any], float]] = field(default_factory=list)

    def call(self, function: str, args: list[Any], timeout: float) -> FakeResult:
        self.calls.append((function, args, timeout))
        return self.reply(function, args, timeout)
