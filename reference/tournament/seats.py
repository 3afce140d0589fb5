"""Contestant adapters: an in-process trusted agent or a sandboxed student process as a seat.

Both give the match loop (``reference.tournament.match``) the same :class:`Contestant` shape.
The student side is reached only through a harness ``CallServer`` (``call(function, args,
timeout) -> CallResult``); its reply is plain data, read by a strict game-specific decoder
before the referee looks at it. Nothing here starts a process.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Generic, Hashable, Optional, Protocol, TypeVar

from reference.tournament.match import Reply, Termination

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)
S_contra = TypeVar("S_contra", bound=Hashable, contravariant=True)
M_co = TypeVar("M_co", bound=Hashable, covariant=True)

DETAIL_LIMIT = 160
"""Untrusted text quoted in a fault detail is cut to this many characters."""


def abbreviate(text: str, limit: int = DETAIL_LIMIT) -> str:
    """``text`` on one line, cut to ``limit`` characters with a trailing ``...``."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit - 3] + "..."


class Agent(Protocol[S_contra, M_co]):
    """A trusted in-process player: told the position and its clock, returns a move or None."""

    def choose_move(self, state: S_contra, time_left: float) -> Optional[M_co]:
        """The move for the player to move in ``state``; None when it has no move."""


@dataclass
class InProcess(Generic[S, M]):
    """A trusted :class:`Agent` as a contestant. An exception it raises counts as a crash."""

    agent: Agent[S, M]

    def choose(self, state: S, time_left: float) -> Reply[M]:
        """The agent's move, or a CRASH reply naming the exception."""
        try:
            return Reply(self.agent.choose_move(state, time_left))
        except Exception as error:  # a reference bug must still end the game cleanly
            return Reply(None, Termination.CRASH, abbreviate(f"{type(error).__name__}: {error}"))


class CallResultLike(Protocol):
    """The fields of the harness's ``CallResult`` that a seat reads."""

    @property
    def ok(self) -> bool: ...

    @property
    def value(self) -> Any: ...

    @property
    def error(self) -> str: ...

    @property
    def timed_out(self) -> bool: ...


class CallServerLike(Protocol):
    """The harness's ``CallServer``: one sandboxed student process serving function calls."""

    def call(self, function: str, args: list[Any], timeout: float) -> CallResultLike:
        """Call ``function(*args)`` in the student process, waiting at most ``timeout`` s."""


@dataclass
class Served(Generic[S, M]):
    """A student process behind a ``CallServer`` as a contestant.

    Attributes:
        server: the sandboxed process; owned by the caller, who closes it.
        function: the student's function name, e.g. ``"choose_move"``.
        encode: ``encode(state, time_left)`` -> the plain-data argument list the student gets
            (a fresh copy on every call, so the student can never touch the referee's state).
        decode: strict reader of the student's plain-data reply: a move, or None for "no move";
            raises ValueError for anything malformed.
    """

    server: CallServerLike
    function: str
    encode: Callable[[S, float], list[Any]]
    decode: Callable[[Any], Optional[M]]

    def choose(self, state: S, time_left: float) -> Reply[M]:
        """Ask the student; a timeout, a raised error or a dead process become faults."""
        result = self.server.call(self.function, self.encode(state, time_left),
                                  max(time_left, 0.0))
        if result.timed_out:
            return Reply(None, Termination.TIMEOUT, "no reply before the clock ran out")
        if not result.ok:
            return Reply(None, Termination.CRASH, abbreviate(str(result.error)))
        try:
            return Reply(self.decode(result.value))
        except ValueError as error:
            return Reply(None, Termination.MALFORMED, abbreviate(str(error)))


__all__ = ["Agent", "CallResultLike", "CallServerLike", "DETAIL_LIMIT", "InProcess", "Served",
           "abbreviate"]
