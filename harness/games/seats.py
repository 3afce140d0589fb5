"""Seats: the ways an entrant takes part in a game, all behind the match loop's ``Seat`` shape.

- :class:`InProcess`: a trusted agent in the referee's process (house bots);
- :class:`Served`: a sandboxed student module answering function calls (a harness
  ``CallServer``); its reply is converted by msgspec into the game's exact wire type, so depth,
  size and types are checked in one bounded pass before any game code looks at it;
- :class:`Program`: a sandboxed student program speaking the game's line protocol (a harness
  ``StudentProgram``) through a :class:`LineCodec`.

Sandboxed seats freeze their processes between turns (``harness.games.freeze``) and read
their CPU time while frozen, before and after each move (``harness.games.cpu_clock``): that is
what the referee charges them. Waiting for a reply, they stop as soon as the move has used its
CPU time, or after the wall backstop for code that sleeps. An in-process seat is charged its
own thread's CPU time. Nothing here starts a process: the caller opens the sandbox and closes
it after the game.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Generic, Hashable, Optional, Protocol, Sequence, TypeVar

import msgspec

from harness.games.cpu_clock import CpuMeter, CpuSample, thread_sample, wall_backstop
from harness.games.freeze import Freezer, freezer_for
from harness.games.match import Reply, abbreviate
from harness.records.games import GameEnd, Reason

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)
S_contra = TypeVar("S_contra", bound=Hashable, contravariant=True)
M_co = TypeVar("M_co", bound=Hashable, covariant=True)


class Agent(Protocol[S_contra, M_co]):
    """A trusted in-process player: told the position and its clock, returns a move or None."""

    def choose_move(self, state: S_contra, time_left: float) -> Optional[M_co]:
        """The move for the player to move in ``state``; None when it has no move."""


class _Quiet:
    """Seat defaults: no handshake, no processes, nothing to say at the end."""

    def start(self, player: Any, seconds: float) -> Optional[Reply[Any]]:
        return None

    def finish(self, state: Any, outcome: GameEnd) -> None:
        return None

    def pause(self) -> None:
        return None

    def resume(self) -> None:
        return None

    def stderr_tail(self) -> str:
        return ""

    def cpu_spent(self) -> Optional[float]:
        return None

    def setup_spent(self) -> Optional[float]:
        return None

    def setup_waited(self) -> float:
        return 0.0

    def setup_queued(self) -> Optional[float]:
        return None


class _Metered(_Quiet):
    """A seat that reads its CPU time when it is resumed and when it is paused again."""

    _since: Optional[CpuSample] = None
    _until: Optional[CpuSample] = None
    _latest: Optional[CpuSample] = None
    """The last reading taken while the move ran (a sandboxed seat's wait takes them)."""

    def _sample(self) -> Optional[CpuSample]:
        return None

    def _go(self) -> None:
        return None

    def _stop(self) -> None:
        return None

    def resume(self) -> None:
        self._since, self._until, self._latest = self._sample(), None, None
        self._go()

    def pause(self) -> None:
        self._stop()
        self._until = self._sample()

    def cpu_spent(self) -> Optional[float]:
        """CPU seconds used from the last resume to the pause after it; None when nothing
        could be read at the resume (the referee then charges wall time). Processes that ended
        during the move (a server killed at a timeout, a crash) are charged up to the last
        reading taken while the move ran, never less."""
        if self._since is None:
            return None
        ends = [end for end in (self._until, self._latest) if end is not None]
        return max((end.since(self._since) for end in ends), default=0.0)

    def queue_spent(self) -> Optional[float]:
        """Seconds the seat's processes were runnable but held back from a CPU by other
        programs from the last resume to the pause after it; None when not read."""
        if self._since is None or self._until is None:
            return None
        return self._until.queued_since(self._since)


@dataclass
class InProcess(_Metered, Generic[S, M]):
    """A trusted :class:`Agent` as a seat. An exception it raises counts as a crash.

    Attributes:
        agent: the house bot.
        clock: the seat's CPU clock, read when it is resumed and paused: the thread's CPU
            time (the bot runs in the referee's thread). A bot that searches by its clock
            should read the same one.
    """

    agent: Agent[S, M]
    clock: Callable[[], float] = time.thread_time

    def _sample(self) -> Optional[CpuSample]:
        return thread_sample(self.clock)

    def choose(self, state: S, seconds: float) -> Reply[M]:
        """The agent's move, or a CRASH reply naming the exception."""
        try:
            return Reply(self.agent.choose_move(state, seconds))
        except Exception as error:  # a house bot's bug must still end the game cleanly
            return Reply(None, Reason.CRASH, abbreviate(f"{type(error).__name__}: {error}"))


class _Frozen(_Metered):
    """A sandboxed seat: pause/resume stop and continue its processes, whose CPU time is read
    (by ``meter``, from the freezer's members) while they are stopped."""

    freezer: Optional[Freezer]
    meter: Optional[CpuMeter]
    _setup: Optional[CpuSample] = None
    _paused_once: bool = False
    _host: Optional[tuple[int, Optional[float]]] = None
    """The zygote the seat's process was forked from, frozen with it (``_freezer``), and its
    CPU seconds at the fork: what it had used, and reaped of earlier processes, is not the
    seat's set-up (``_zygote``)."""

    def pause(self) -> None:
        super().pause()
        if not self._paused_once:
            self._paused_once, self._setup = True, self._until

    def setup_spent(self) -> Optional[float]:
        """CPU seconds the seat's processes used before their first pause (starting and
        importing the submission: a server imports it before it serves), read then, the
        zygote's apart; None when they could not be read."""
        setup = self._setup
        if setup is None:
            return None
        if self._host is None:
            return setup.total
        root, before = self._host
        if before is None:  # the zygote unreadable at the fork: leave it out altogether
            before = setup.own.get(root, 0.0) + setup.reaped.get(root, 0.0)
        return max(0.0, setup.total - before)

    def setup_queued(self) -> Optional[float]:
        """Run-queue seconds of the seat's processes before their first pause (the zygote's
        left out); None when not read."""
        setup = self._setup
        if setup is None or not setup.queued:
            return None
        root = None if self._host is None else self._host[0]
        return sum(seconds for pid, seconds in setup.queued.items() if pid != root)

    def _meter(self) -> Optional[CpuMeter]:
        """The meter given, else one reading the freezer's members; None without a freezer."""
        if self.meter is None and self.freezer is not None:
            self.meter = CpuMeter(self.freezer.members)
        return self.meter

    def _sample(self) -> Optional[CpuSample]:
        meter = self._meter()
        if meter is None or self.freezer is None:
            return None
        try:
            return meter.sample(self.freezer.frozen_members())
        except OSError:  # no /proc to find the processes in: wall time charges
            return None

    def _go(self) -> None:
        if self.freezer is not None:
            self.freezer.resume()

    def _stop(self) -> None:
        if self.freezer is not None:
            self.freezer.pause()

    def _limits(self, seconds: float) -> tuple[float, Optional[Callable[[], bool]]]:
        """How to wait for a reply that may use ``seconds`` of CPU time: the wall backstop,
        and a check that the CPU time since the seat was resumed is used up. Without a reading
        at the resume: ``seconds`` of wall time, and no check."""
        start, meter, freezer = self._since, self._meter(), self.freezer
        if start is None or meter is None or freezer is None:
            return max(seconds, 0.0), None
        known = sorted(start.own)

        def used_up() -> bool:
            try:
                now = meter.sample(freezer.running_members(known), queued=False)
            except OSError:
                return False
            if now is None:
                return False
            self._latest = now
            return now.since(start) > seconds

        return wall_backstop(seconds), used_up


def _zygote(process: Any) -> Optional[tuple[int, Optional[float]]]:
    """The zygote a harness process was forked from (the first process of its pid namespace,
    which the freezer freezes with it) and its CPU seconds at the fork
    (``ForkedProgram.root_cpu``), or None for a process started afresh."""
    forked = getattr(process, "process", None)
    root, own = getattr(forked, "namespace_root", None), getattr(forked, "pid", None)
    if not isinstance(root, int) or root == own:
        return None
    before = getattr(forked, "root_cpu", None)
    return root, float(before) if isinstance(before, (int, float)) else None


def _freezer(process: Any) -> Optional[Freezer]:
    """The freezer of a harness process (a ``StudentProgram`` or ``CallServer``: it has
    ``process``, the sandbox's isolation and tag); None for a test double without them. A
    program forked by a zygote is frozen with its whole namespace (``namespace_root``)."""
    try:
        pid, sandbox_isolation, tag = process.process.pid, process.isolation, process.tag
    except AttributeError:
        return None
    pid = getattr(process.process, "namespace_root", pid)
    return freezer_for(pid, sandbox_isolation, str(tag)) if isinstance(pid, int) else None


class CallServerLike(Protocol):
    """The harness's ``CallServer``: one sandboxed student process serving function calls."""

    def call(self, function: str, args: list[Any], timeout: float, *,
             expired: Optional[Callable[[], bool]] = None) -> Any:
        """``CallResult`` of ``function(*args)`` in the student process; a wait longer than
        ``timeout`` seconds, or one ``expired()`` ends, is a timeout (``expired`` is passed
        only by a seat that reads its CPU time, so a double may leave it out)."""


def convert(value: Any, wire_type: Any) -> Any:
    """``value`` converted strictly into ``wire_type`` by msgspec (bools are not ints, no
    coercion); raises ValueError with msgspec's message, which names where the value is wrong
    and never quotes more than the path."""
    try:
        return msgspec.convert(value, wire_type, strict=True)
    except (msgspec.ValidationError, TypeError, RecursionError) as error:
        raise ValueError(abbreviate(str(error))) from None


@dataclass
class Served(_Frozen, Generic[S, M]):
    """A student function behind a ``CallServer`` as a seat.

    Attributes:
        server: the sandboxed process; owned by the caller, who closes it.
        function: the student's function name, e.g. ``"choose_move"``.
        encode: ``encode(state, seconds)`` -> the plain-data argument list the student gets.
        wire_type: the exact type of a reply (for msgspec), e.g. a 2-tuple of bounded ints.
        to_move: the game's move (or None for "no move") from a converted reply; raises
            ValueError for a reply of the right type that still means nothing.
        expect: words for the wire type in feedback, e.g. ``"(row, col) or (None, None)"``.
    """

    server: CallServerLike
    function: str
    encode: Callable[[S, float], list[Any]]
    wire_type: Any
    to_move: Callable[[Any], Optional[M]]
    expect: str = "a move"
    freezer: Optional[Freezer] = field(default=None)
    meter: Optional[CpuMeter] = field(default=None)
    traceback: str = field(default="", init=False)

    def __post_init__(self) -> None:
        if self.freezer is None:
            self.freezer = _freezer(self.server)
        self._host = _zygote(self.server)

    def setup_waited(self) -> float:
        """Wall seconds the server's start waited for the submission's import."""
        waited = getattr(self.server, "import_seconds", 0.0)
        return float(waited) if isinstance(waited, (int, float)) else 0.0

    def finish(self, state: S, outcome: GameEnd) -> None:
        """The game is over: the server (one per game) gets no more calls, so it may end now
        rather than idle while the referee reads its stderr."""
        end_calls = getattr(self.server, "end_calls", None)
        if callable(end_calls):
            end_calls()

    def choose(self, state: S, seconds: float) -> Reply[M]:
        """Ask the student; a timeout, a raised error or a dead process become faults."""
        wall, used_up = self._limits(seconds)
        arguments = self.encode(state, seconds)
        result = (self.server.call(self.function, arguments, wall) if used_up is None else
                  self.server.call(self.function, arguments, wall, expired=used_up))
        if result.timed_out:
            return Reply(None, Reason.TIMEOUT, "no reply before the clock ran out")
        if not result.ok:
            self.traceback = str(getattr(result, "traceback", ""))
            return Reply(None, Reason.CRASH, abbreviate(str(result.error)))
        try:
            wire = convert(result.value, self.wire_type)
        except ValueError as error:
            return Reply(None, Reason.MALFORMED, f"expected {self.expect}: {error}")
        try:
            return Reply(self.to_move(wire))
        except ValueError as error:
            return Reply(None, Reason.MALFORMED, abbreviate(str(error)))

    def stderr_tail(self) -> str:
        """The server's stderr, then the traceback of the call that raised (which a served
        function's caller, not Python, would print)."""
        tail = getattr(self.server, "stderr_tail", None)
        text = str(tail()) if callable(tail) else ""
        return "\n".join(part for part in (text, self.traceback) if part)


class LineCodec(Protocol[S_contra, M_co]):
    """A game's line protocol, as the referee speaks it to a student program."""

    def greeting(self, player: Any, name: str) -> Sequence[str]:
        """Lines sent once the program has sent its name line."""

    def request(self, state: S_contra) -> Sequence[str]:
        """Lines that ask for a move in ``state``."""

    def decode(self, line: str, state: S_contra) -> Optional[M_co]:
        """The move a reply line names; raises ValueError when the line is not a move."""

    def farewell(self, state: S_contra, outcome: GameEnd) -> Sequence[str]:
        """Lines sent when the game is over."""


class ProgramLike(Protocol):
    """The harness's ``StudentProgram`` (or a test double)."""

    def send_line(self, text: str) -> bool: ...

    def read_line(self, timeout: float, *,
                  expired: Optional[Callable[[], bool]] = None) -> Optional[str]: ...

    def stderr_tail(self) -> str: ...


NAME_CHARS = 40
"""A program's name line is cut to this many printable characters."""

STDOUT_HINT = ("your program's stdout is the game's protocol, so anything else printed there is "
               "read as your reply: print debug output to stderr "
               "(print(..., file=sys.stderr))")
"""Said after a reply line that is not a move: a stray debug ``print`` is the usual cause."""


@dataclass
class Program(_Frozen, Generic[S, M]):
    """A student program speaking a line protocol as a seat.

    Attributes:
        program: the running program; owned by the caller, who closes it.
        codec: the game's line protocol.
        name: the program's name line once greeted (printable, bounded).
    """

    program: ProgramLike
    codec: LineCodec[S, M]
    name: str = "?"
    freezer: Optional[Freezer] = field(default=None)
    meter: Optional[CpuMeter] = field(default=None)

    def __post_init__(self) -> None:
        if self.freezer is None:
            self.freezer = _freezer(self.program)
        self._host = _zygote(self.program)

    def _read(self, seconds: float, waiting_for: str) -> tuple[Optional[str], Optional[Reply[M]]]:
        wall, used_up = self._limits(seconds)
        try:
            line = (self.program.read_line(wall) if used_up is None else
                    self.program.read_line(wall, expired=used_up))
        except TimeoutError:
            within = (f"{seconds:g} s" if used_up is None else
                      f"{seconds:g} s of CPU time or {wall:g} s of wall time")
            return None, Reply(None, Reason.TIMEOUT, f"no {waiting_for} within {within}")
        except ValueError as error:  # a line over the protocol's bound
            return None, Reply(None, Reason.MALFORMED, f"unreadable {waiting_for}: "
                               f"{abbreviate(str(error))}; {STDOUT_HINT}")
        except OSError as error:
            return None, Reply(None, Reason.CRASH, f"reading its {waiting_for} failed: "
                               f"{abbreviate(str(error))}")
        if line is None:
            return None, Reply(None, Reason.CRASH,
                               f"it exited or closed its output before its {waiting_for}")
        return line, None

    def _send(self, lines: Sequence[str]) -> Optional[Reply[M]]:
        for text in lines:
            if self.program.send_line(text) is False:
                return Reply(None, Reason.CRASH, "it stopped reading its input")
        return None

    def start(self, player: Any, seconds: float) -> Optional[Reply[M]]:
        line, fault = self._read(seconds, "name line")
        if fault is not None or line is None:
            return fault
        printable = "".join(ch for ch in line.strip() if ch.isascii() and ch.isprintable())
        self.name = printable[:NAME_CHARS] or "(no name)"
        return self._send(self.codec.greeting(player, self.name))

    def choose(self, state: S, seconds: float) -> Reply[M]:
        fault = self._send(self.codec.request(state))
        if fault is not None:
            return fault
        line, fault = self._read(seconds, "move")
        if fault is not None or line is None:
            return fault or Reply(None, Reason.CRASH, "no move")
        try:
            return Reply(self.codec.decode(line, state))
        except ValueError as error:
            return Reply(None, Reason.MALFORMED, f"{abbreviate(str(error))}; {STDOUT_HINT}")

    def finish(self, state: S, outcome: GameEnd) -> None:
        self._send(self.codec.farewell(state, outcome))

    def stderr_tail(self) -> str:
        return str(self.program.stderr_tail())


__all__ = ["Agent", "CallServerLike", "InProcess", "LineCodec", "NAME_CHARS", "Program",
           "ProgramLike", "STDOUT_HINT", "Served", "convert"]
