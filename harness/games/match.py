"""The one clocked match loop: a game between two seats, refereed on trusted rules.

Game-agnostic, like OpenSpiel's match loop: it needs the rules (a ``reference.core.Game``:
``to_move``, ``actions``, ``result``, ``utility``) and, for each player, a :class:`Seat` - an
in-process trusted agent, a sandboxed student function or a sandboxed student program
(``harness.games.seats``). Each seat is greeted once (a protocol handshake, if it has one), asked
for a move whenever its player is to move, and told the end.

Clocks are fair: a seat is resumed just before it is asked and paused (its processes stopped)
as soon as it has answered, so an entrant's clock is charged only for its own thinking and it
cannot compute during its opponent's turn. The referee measures the time itself, in the CPU
time the seat used (``Seat.cpu_spent``, read by the seat from the kernel while frozen): it does
not grow when the host is busy, so neither does a game's result. A seat that cannot read its
CPU time is charged the wall time of its reply, and the record says so (``wall_clocked``).

Waiting is charged to whoever kept the referee waiting. Each player's wall time waited on its
replies is kept beside the CPU time they used and the time its processes were held back from a
CPU by other programs (:class:`Waiting`); a player whose waiting in one game is more than those
explain (``cpu_clock.unexplained_wait``: sleeping or blocking, not the host's load) by over
``cpu_clock.BACKSTOP_SECONDS`` loses on time, however it spreads the waiting over its moves.
Work a seat does before its first move (starting, importing, its greeting) is read too: beyond
``Clock.setup_seconds`` it is charged to a game clock, and over ``Clock.handshake_seconds`` it
loses in the greeting.

The player to move loses when it runs out of time, crashes, answers something malformed (or
something that cannot even be read: any error while reading counts) or answers an illegal move,
including "no move" while it has one. A position without legal moves ends the game by the rules:
the player with the higher utility wins, equal utilities draw. Every game therefore ends with a
winner or a draw and a named :class:`~harness.records.games.Reason`; nothing an entrant does
makes this loop raise.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import (
    Any,
    Callable,
    Generic,
    Hashable,
    Mapping,
    Optional,
    Protocol,
    Sequence,
    TypeVar,
)

from harness.games.cpu_clock import BACKSTOP_SECONDS, unexplained_wait, wall_backstop
from harness.records.games import GameEnd, Reason

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)
S_contra = TypeVar("S_contra", bound=Hashable, contravariant=True)
M_co = TypeVar("M_co", bound=Hashable, covariant=True)
Player = Hashable

DETAIL_LIMIT = 160
"""Untrusted text quoted in a fault detail is cut to this many characters."""
HANDSHAKE = "handshake: "
"""How the detail of a forfeit in the greeting begins (before the seat learnt of the game)."""


STDERR_LINES = 6
"""Lines of a forfeiter's stderr shown with its forfeit (a traceback's last frames)."""
STDERR_LINE_CHARS = 200
"""Characters of each such line shown."""


def abbreviate(text: str, limit: int = DETAIL_LIMIT) -> str:
    """``text`` on one line, printable characters only, cut to ``limit`` with ``...``."""
    flat = " ".join("".join(ch if ch.isprintable() else " " for ch in text[:4 * limit]).split())
    return flat if len(flat) <= limit else flat[:limit - 3] + "..."


class Rules(Protocol[S, M]):
    """What the loop needs of a game's rules (a subset of ``reference.core.Game``)."""

    def to_move(self, state: S) -> Any: ...

    def actions(self, state: S) -> Sequence[M]: ...

    def result(self, state: S, move: M) -> S: ...

    def utility(self, state: S, player: Any) -> float: ...


@dataclass(frozen=True)
class Reply(Generic[M_co]):
    """What a seat answered.

    Attributes:
        move: the move, already read strictly into the game's move type; None for "no move".
        fault: MALFORMED, TIMEOUT or CRASH when the seat failed to give a readable answer;
            then ``move`` is meaningless.
        detail: for a fault, a short message (untrusted text abbreviated by the seat).
    """

    move: Optional[M_co]
    fault: Optional[Reason] = None
    detail: str = ""


class Seat(Protocol[S_contra, M_co]):
    """One side of a game. ``choose`` must return a reply within ``seconds`` (or report a
    TIMEOUT); the loop guards every call anyway."""

    def start(self, player: Any, seconds: float) -> Optional[Reply[M_co]]:
        """Greet the seat as ``player``; a faulty Reply when the handshake failed, else None."""

    def choose(self, state: S_contra, seconds: float) -> Reply[M_co]:
        """The seat's reply for ``state``, where it is to move, within ``seconds``."""

    def finish(self, state: S_contra, outcome: GameEnd) -> None:
        """Tell the seat the game is over (never raises)."""

    def pause(self) -> None:
        """Stop the seat's processes (nothing for an in-process seat)."""

    def resume(self) -> None:
        """Let the seat's processes run again."""

    def stderr_tail(self) -> str:
        """The end of what the seat wrote to stderr ("" when none)."""

    def cpu_spent(self) -> Optional[float]:
        """CPU seconds the seat used from its last ``resume`` to the ``pause`` after it, read
        on the trusted side; None when it cannot tell (the loop then charges wall time). A
        seat that reads it lets a reply take up to ``cpu_clock.wall_backstop(seconds)`` of
        wall time."""

    def setup_spent(self) -> Optional[float]:
        """CPU seconds the seat's processes used before the game's first pause (starting,
        importing the submission); None for a seat without processes of its own or that
        cannot tell (optional: a seat without the method counts as such)."""

    def setup_waited(self) -> float:
        """Wall seconds its start waited for the submission before the game (a served
        module's import); 0.0 when nothing waited (optional, as ``setup_spent``)."""

    def queue_spent(self) -> Optional[float]:
        """Seconds the seat's processes were runnable but held back from a CPU by other
        programs from its last ``resume`` to the ``pause`` after it (the kernel's run-queue
        wait); None when it cannot tell (optional, as ``setup_spent``)."""

    def setup_queued(self) -> Optional[float]:
        """Run-queue seconds of the seat's processes before the game's first pause; None when
        it cannot tell (optional, as ``setup_spent``)."""


@dataclass(frozen=True)
class Clock:
    """Time rules of a game.

    Attributes:
        game_seconds: each player's chess clock for the whole game, or None.
        move_seconds: the limit for one reply, or None.
        handshake_seconds: the limit for a seat's greeting, and for all its work before its
            first move (starting, importing, greeting).
        setup_seconds: CPU time a seat may use before its first move without charge (starting
            an interpreter and importing numpy take a few tenths); the rest is charged to a
            game clock, so work done at import time is not free.
    """

    game_seconds: Optional[float] = None
    move_seconds: Optional[float] = None
    handshake_seconds: float = 10.0
    setup_seconds: float = 0.5

    def allowed(self, time_left: float) -> float:
        """Seconds the mover may take now."""
        return time_left if self.move_seconds is None else min(time_left, self.move_seconds)

    def describe(self) -> str:
        """E.g. ``"60 s per player per game"`` or ``"10 s per move"``."""
        parts = []
        if self.game_seconds is not None:
            parts.append(f"{self.game_seconds:g} s per player per game")
        if self.move_seconds is not None:
            parts.append(f"{self.move_seconds:g} s per move")
        return ", ".join(parts) or "no clock"


@dataclass(frozen=True)
class Ply(Generic[M]):
    """One move of a refereed game.

    Attributes:
        player: who moved.
        move: the move played.
        seconds: the time charged to ``player`` for this move.
        time_left: ``player``'s game clock after the move (``inf`` without a game clock).
    """

    player: Player
    move: M
    seconds: float
    time_left: float


@dataclass(frozen=True)
class Waiting:
    """What one player kept the referee waiting in a game.

    Attributes:
        player: whose replies.
        wall: wall seconds waited on its replies (its greeting included).
        cpu: CPU seconds its replies used (wall seconds where CPU time cannot be read).
        replies: how many replies (its greeting included).
        setup: CPU seconds it used before its first move (starting, importing, greeting).
        queued: seconds of ``wall`` its processes were runnable but held back from a CPU by
            other programs (each reply's at most its wall time: waiting the host's load
            explains, however heavy).
    """

    player: Player
    wall: float = 0.0
    cpu: float = 0.0
    replies: int = 0
    setup: float = 0.0
    queued: float = 0.0

    @property
    def unexplained(self) -> float:
        """Wall seconds waited that its CPU time and run-queue wait do not explain
        (``unexplained_wait``)."""
        return unexplained_wait(self.wall, self.cpu, self.replies, self.queued)

    def adding(self, asked: _Asked[Any]) -> Waiting:
        """This waiting with one more reply."""
        return Waiting(self.player, self.wall + asked.wall, self.cpu + asked.spent,
                       self.replies + 1, self.setup, self.queued + asked.queued)


@dataclass(frozen=True)
class GameRecord(Generic[M]):
    """A refereed game: its moves with times, both clocks at the end, the outcome, the faulty
    reply's move when an illegal move ended it (else None), the forfeiter's last stderr, and
    which players were charged wall time rather than CPU time."""

    plies: tuple[Ply[M], ...]
    clocks: tuple[tuple[Player, float], ...]
    outcome: GameEnd
    bad_move: Optional[Any] = None
    stderr: str = ""
    wall_clocked: tuple[Player, ...] = ()
    """The players charged wall time for some move, their CPU time being unreadable."""
    waiting: tuple[Waiting, ...] = ()
    """What each player kept the referee waiting, in seat order."""

    def waiting_of(self, player: Player) -> Waiting:
        """``player``'s waiting (none recorded: all zero)."""
        return next((w for w in self.waiting if w.player == player), Waiting(player))

    @property
    def forfeit_ply(self) -> Optional[int]:
        """1-based number of the move the forfeiter failed to make, or None."""
        return len(self.plies) + 1 if self.outcome.reason.is_forfeit else None

    def stderr_lines(self, count: int = STDERR_LINES) -> list[str]:
        """The last ``count`` non-blank lines of the forfeiter's stderr, each cut to
        ``STDERR_LINE_CHARS``: a crash's traceback, shown wherever the forfeit is (feedback,
        ``play``, replay pages)."""
        lines = [line.rstrip()[:STDERR_LINE_CHARS] for line in self.stderr.splitlines()
                 if line.strip()]
        return lines[-count:]


@dataclass(frozen=True)
class _Asked(Generic[M]):
    """A reply, the seconds charged for it, whether they are CPU time (else wall time), the
    wall seconds waited for it, and the run-queue seconds of those (0 when not read)."""

    reply: Optional[Reply[M]]
    spent: float
    cpu: bool
    wall: float = 0.0
    queued: float = 0.0


def _ask(seat: Seat[S, M], call: Callable[[], Optional[Reply[M]]],
         timer: Callable[[], float]) -> _Asked[M]:
    """Resume the seat, run ``call``, pause it again; any error becomes a MALFORMED reply."""
    seat.resume()
    started = timer()
    try:
        reply = call()
    except Exception as error:  # whatever the entrant sent that broke reading it is its fault
        reply = Reply(None, Reason.MALFORMED,
                      f"its reply could not be read ({type(error).__name__})")
    wall = timer() - started
    seat.pause()
    cpu = _cpu_spent(seat)
    # run-queue wait summed over threads may pass the wall time; no more than it is explained
    queued = min(_cpu_spent(seat, "queue_spent") or 0.0, wall)
    return (_Asked(reply, wall, False, wall) if cpu is None
            else _Asked(reply, cpu, True, wall, queued))


def _cpu_spent(seat: Seat[S, M], method: str = "cpu_spent") -> Optional[float]:
    """The seat's CPU seconds for the move just asked (or what ``method`` reads), or None (a
    seat without the method, a test double, counts as one that cannot tell)."""
    spent = getattr(seat, method, None)
    try:
        value = spent() if callable(spent) else None
    except Exception:  # an unreadable CPU clock must not end the referee: wall time charges
        return None
    return float(value) if isinstance(value, (int, float)) else None


def play_game(
    game: Rules[S, M],
    state: S,
    seats: Mapping[Player, Seat[S, M]],
    clock: Clock,
    *,
    timer: Callable[[], float] = time.perf_counter,
) -> GameRecord[M]:
    """Referee one game from ``state`` to its end.

    Args:
        game: the rules; a move is legal when it is in ``game.actions(state)``.
        state: the starting position; not changed.
        seats: one seat per player, keyed by the game's player values, in handshake order.
        clock: the time rules.
        timer: monotonic seconds, the wall clock: it charges a seat whose CPU time cannot
            be read.

    Returns:
        The record; see the module docstring for how games end.
    """
    players = tuple(seats)
    budget = float("inf") if clock.game_seconds is None else float(clock.game_seconds)
    time_left = {player: budget for player in players}
    plies: list[Ply[M]] = []
    outcome: Optional[GameEnd] = None
    bad_move: Any = None
    forfeiter_seat: Optional[Seat[S, M]] = None
    wall_clocked: list[Player] = []
    waiting: dict[Player, Waiting] = {}
    watched: set[Player] = set()  # seats with processes of their own (not trusted bots)
    for player, seat in seats.items():
        seat.pause()
        setup = _cpu_spent(seat, "setup_spent")
        waited = _cpu_spent(seat, "setup_waited") or 0.0
        queued = min(_cpu_spent(seat, "setup_queued") or 0.0, waited)
        # the import's wait as a first reply, its CPU time and run-queue wait what explain it
        waiting[player] = Waiting(player, waited, setup or 0.0, int(waited > 0), setup or 0.0,
                                  queued)
        watched |= {player} if setup is not None else set()
    try:
        for player, seat in seats.items():
            asked_greeting = _ask(seat, lambda: seat.start(player, clock.handshake_seconds),
                                  timer)
            greeting = asked_greeting.reply
            # the set-up's wall time (import and greeting) has its own allowance, for a start
            # from a cold disk: only what is beyond it counts with the moves' waiting
            waiting[player] = waiting[player].adding(asked_greeting)
            wall = max(0.0, waiting[player].wall - BACKSTOP_SECONDS)
            waiting[player] = replace(waiting[player], wall=wall,
                                      queued=min(waiting[player].queued, wall))
            if asked_greeting.cpu:
                waiting[player] = replace(waiting[player],
                                          setup=waiting[player].setup + asked_greeting.spent)
            fault = ((greeting.fault, greeting.detail) if greeting is not None
                     and greeting.fault is not None else
                     _waiting_fault(waiting[player], asked_greeting, player in watched))
            if fault is not None:
                outcome = _forfeit(players, player, fault[0], f"{HANDSHAKE}{fault[1]}")
                forfeiter_seat = seat
                break
        for player, seat in seats.items():
            if outcome is not None:
                break
            time_left[player] -= _setup_charge(waiting[player].setup, clock)
            late = _setup_fault(waiting[player], time_left[player], clock)
            if late is not None:
                time_left[player] = max(time_left[player], 0.0)
                outcome, forfeiter_seat = _forfeit(players, player, Reason.TIMEOUT, late), seat
        while outcome is None:
            mover = game.to_move(state)
            legal = list(game.actions(state))
            if not legal:
                outcome = _scored_outcome(game, state, players)
                break
            allowed = clock.allowed(time_left[mover])
            asked = _ask(seats[mover], lambda: seats[mover].choose(state, allowed), timer)
            reply: Reply[M] = asked.reply if asked.reply is not None else Reply(
                None, Reason.MALFORMED, "no reply")
            spent = asked.spent
            waiting[mover] = waiting[mover].adding(asked)
            if not asked.cpu and mover not in wall_clocked:
                wall_clocked.append(mover)
            if clock.game_seconds is not None:
                time_left[mover] -= spent
            fault = (_fault(reply, legal, time_left[mover], allowed, asked, clock)
                     or _waiting_fault(waiting[mover], asked, mover in watched))
            if fault is not None:
                time_left[mover] = max(time_left[mover], 0.0)
                outcome = _forfeit(players, mover, *fault)
                bad_move = reply.move if fault[0] is Reason.ILLEGAL else None
                forfeiter_seat = seats[mover]
                break
            assert reply.move is not None
            plies.append(Ply(mover, reply.move, spent, time_left[mover]))
            state = game.result(state, reply.move)
    finally:
        final = outcome or GameEnd(None, Reason.CRASH, "the referee stopped")
        for seat in seats.values():
            seat.resume()
            try:
                seat.finish(state, final)
            except Exception:  # telling a broken entrant the end must not end the referee
                pass
    stderr = ""
    if forfeiter_seat is not None:
        try:
            stderr = forfeiter_seat.stderr_tail()
        except Exception:
            stderr = ""
    return GameRecord(tuple(plies), tuple(time_left.items()), outcome, bad_move, stderr,
                      tuple(wall_clocked), tuple(waiting.values()))


def _setup_charge(setup: float, clock: Clock) -> float:
    """What a game clock is charged for ``setup`` CPU seconds before the first move: the part
    beyond ``clock.setup_seconds``; nothing without a game clock."""
    return 0.0 if clock.game_seconds is None else max(0.0, setup - clock.setup_seconds)


def _setup_fault(waiting: Waiting, time_left: float, clock: Clock) -> Optional[str]:
    """The forfeit detail when a player's work before its first move ran its game clock out or
    passed the greeting's limit, else None."""
    setup = waiting.setup
    if time_left >= 0 and setup <= clock.handshake_seconds:
        return None
    limit = (f"its {clock.describe()}, {clock.setup_seconds:g} s of it free"
             if time_left < 0 else f"the {clock.handshake_seconds:g} s a greeting may take")
    return (f"{HANDSHAKE}its work before its first move (starting, importing, greeting) used "
            f"{setup:.3f} s of CPU time, over {limit}")


def _waiting_fault(waiting: Waiting, asked: _Asked[Any], watched: bool
                   ) -> Optional[tuple[Reason, str]]:
    """A timeout when the mover kept the game waiting longer than its CPU time and run-queue
    wait explain
    (``cpu_clock.unexplained_wait``) by over ``BACKSTOP_SECONDS``; never for a reply charged
    in wall time (its clock counted the waiting already), nor for a seat not ``watched`` (a
    trusted bot in the referee's thread: its waiting is the host's)."""
    if not watched or not asked.cpu or waiting.unexplained <= BACKSTOP_SECONDS:
        return None
    return Reason.TIMEOUT, (
        f"it kept the game waiting {waiting.wall:.1f} s of wall time over {waiting.replies} "
        f"replies that used {waiting.cpu:.3f} s of CPU time and were held back "
        f"{waiting.queued:.1f} s by other programs: more than a slow host explains, "
        f"so the waiting is its own (sleeping or blocking)")


def _forfeit(players: tuple[Player, ...], loser: Player, reason: Reason, detail: str) -> GameEnd:
    winner = next(p for p in players if p != loser)
    return GameEnd(winner, reason, detail, loser)


def _fault(reply: Reply[M], legal: list[M], time_left: float, allowed: float,
           asked: _Asked[M], clock: Clock) -> Optional[tuple[Reason, str]]:
    """The mover's fault, if any: overtime first, then the reply's own fault, then legality.

    Charged in CPU time, a reply that used more than ``allowed`` is overtime even on a clock
    per move (the seat's wait only stops shortly after the CPU time is used up)."""
    kind = " of CPU time" if asked.cpu else ""
    over = max(-time_left, asked.spent - allowed if asked.cpu else 0.0)
    if time_left < 0 or over > 0:
        return Reason.TIMEOUT, (f"its clock ran out ({over:.3f} s{kind} over its "
                                f"{clock.describe()})")
    if reply.fault is not None:
        detail = reply.detail
        if reply.fault is Reason.TIMEOUT:
            detail = f"no reply within the {allowed:.3f} s left ({clock.describe()})"
            if asked.cpu:
                detail = (f"no reply within {wall_backstop(allowed):.3f} s of wall time, the "
                          f"backstop for the {allowed:.3f} s{kind} left ({clock.describe()}); "
                          f"it used {asked.spent:.3f} s{kind}")
        return reply.fault, detail
    if reply.move is None:
        return Reason.ILLEGAL, f"answered no move while {len(legal)} legal moves exist"
    if reply.move not in legal:
        return Reason.ILLEGAL, f"{reply.move!r} is not a legal move"
    return None


def _scored_outcome(game: Rules[S, M], state: S, players: tuple[Player, ...]) -> GameEnd:
    """NO_MOVES outcome: the player with the higher utility wins; None on equal utilities."""
    values = {player: game.utility(state, player) for player in players}
    best = max(values.values())
    leaders = [player for player, value in values.items() if value == best]
    return GameEnd(leaders[0] if len(leaders) == 1 else None, Reason.NO_MOVES)


def replay(game: Rules[S, M], state: S, moves: Sequence[M]) -> list[S]:
    """Checked: the positions of a game replayed from ``state``.

    Returns:
        ``len(moves) + 1`` positions, ``state`` first.

    Raises:
        ValueError: naming the ply (1-based), the mover and the first illegal move.
    """
    states = [state]
    for ply, move in enumerate(moves, start=1):
        if move not in game.actions(states[-1]):
            raise ValueError(f"ply {ply}: {game.to_move(states[-1])!r} cannot play {move!r}")
        states.append(game.result(states[-1], move))
    return states


__all__ = ["Clock", "DETAIL_LIMIT", "GameRecord", "HANDSHAKE", "Ply", "Reply", "Rules", "Seat",
           "Waiting", "abbreviate", "play_game", "replay"]
