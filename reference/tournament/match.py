"""The clocked match loop: one game between two contestants, refereed on the reference rules.

Game-agnostic, like OpenSpiel's match loop: it needs a :class:`reference.core.Game` and, for
each player of that game, a :class:`Contestant` - anything that is told the position and the
seconds left on its clock and replies with a move. An in-process reference player and a
sandboxed student process fit behind the same interface (see ``reference.tournament.seats``).

The referee keeps a chess clock per player and measures it itself: the wall-clock time from
asking to receiving the reply is charged to the mover. The player to move loses when it has run
out of time, crashed, answered something malformed or answered an illegal move (including "no
move" while it has one). A terminal position is scored by the game's utility. A player whose
position is terminal is not asked at all. Nothing here knows a particular game.
"""
from __future__ import annotations

import enum
import time
from dataclasses import dataclass
from typing import Callable, Generic, Hashable, Mapping, Optional, Protocol, TypeVar

from reference.core.protocols import Game, Player

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)
S_contra = TypeVar("S_contra", bound=Hashable, contravariant=True)
M_co = TypeVar("M_co", bound=Hashable, covariant=True)


class Termination(enum.Enum):
    """Why a game ended."""

    NO_MOVES = "no_moves"
    """The player to move had no legal move; the rules' utility decides the result."""
    ILLEGAL = "illegal"
    """The player to move answered a move that is not legal, or no move while it had one."""
    MALFORMED = "malformed"
    """The player to move answered something that is not a move at all."""
    TIMEOUT = "timeout"
    """The player to move ran out of clock time before answering."""
    CRASH = "crash"
    """The player to move raised, died, or stopped answering."""


@dataclass(frozen=True)
class Outcome:
    """The end of a game: who won and why.

    Attributes:
        winner: the winning player, or None for a draw.
        termination: why the game ended.
        detail: for a fault, a short message about the faulty reply, else "".
    """

    winner: Optional[Player]
    termination: Termination
    detail: str = ""


@dataclass(frozen=True)
class Reply(Generic[M_co]):
    """What a contestant answered.

    Attributes:
        move: the move, already read strictly into the game's move type; None for "no move".
        fault: MALFORMED, TIMEOUT or CRASH when the contestant failed to give a readable answer;
            then ``move`` is meaningless.
        detail: for a fault, a short message (untrusted text abbreviated by the contestant).
    """

    move: Optional[M_co]
    fault: Optional[Termination] = None
    detail: str = ""


class Contestant(Protocol[S_contra, M_co]):
    """Anything that is told the position and the seconds left on its clock and returns a move."""

    def choose(self, state: S_contra, time_left: float) -> Reply[M_co]:
        """The contestant's reply for ``state``, where it is to move; must not raise."""


@dataclass(frozen=True)
class Ply(Generic[M]):
    """One move of a refereed game.

    Attributes:
        player: who moved.
        move: the destination or square played.
        seconds: the time charged to ``player`` for this move.
        time_left: ``player``'s clock after the move.
    """

    player: Player
    move: M
    seconds: float
    time_left: float


@dataclass(frozen=True)
class GameRecord(Generic[M]):
    """A refereed game: its moves with times, both clocks at the end, and the outcome."""

    plies: tuple[Ply[M], ...]
    clocks: tuple[tuple[Player, float], ...]
    outcome: Outcome


def play_game(
    game: Game[S, M],
    state: S,
    contestants: Mapping[Player, Contestant[S, M]],
    seconds: float,
    *,
    clock: Callable[[], float] = time.perf_counter,
) -> GameRecord[M]:
    """Referee one game from ``state`` to its end.

    Args:
        game: the rules; ``actions`` decides legality (a move is legal when it is in that list).
        state: the starting position; not changed.
        contestants: one contestant per player of the game, keyed by the game's player values.
        seconds: each player's total clock for the game.
        clock: monotonic seconds, used to charge the mover for each reply.

    Returns:
        The record. The game ends at a terminal position (``NO_MOVES``; the winner is the player
        with the higher utility, None when equal) or at the first fault of the player to move,
        who then loses.
    """
    players = tuple(contestants)
    time_left = {player: float(seconds) for player in players}
    plies: list[Ply[M]] = []
    while True:
        mover = game.to_move(state)
        legal = list(game.actions(state))
        if not legal:
            outcome = _scored_outcome(game, state, players)
            break
        started = clock()
        reply = contestants[mover].choose(state, time_left[mover])
        spent = clock() - started
        time_left[mover] -= spent
        fault = _fault(reply, legal, time_left[mover])
        if fault is not None:
            time_left[mover] = max(time_left[mover], 0.0)
            winner = next(p for p in players if p != mover)
            outcome = Outcome(winner, fault[0], fault[1])
            break
        assert reply.move is not None
        plies.append(Ply(mover, reply.move, spent, time_left[mover]))
        state = game.result(state, reply.move)
    return GameRecord(tuple(plies), tuple(time_left.items()), outcome)


def _fault(reply: Reply[M], legal: list[M], time_left: float) -> tuple[Termination, str] | None:
    """The mover's fault, if any: overtime first, then the reply's own fault, then legality."""
    if time_left < 0:
        return Termination.TIMEOUT, f"clock ran out ({-time_left:.3f} s over)"
    if reply.fault is not None:
        return reply.fault, reply.detail
    if reply.move is None:
        return Termination.ILLEGAL, f"answered no move while {len(legal)} legal moves exist"
    if reply.move not in legal:
        return Termination.ILLEGAL, f"{reply.move!r} is not a legal move"
    return None


def _scored_outcome(game: Game[S, M], state: S, players: tuple[Player, ...]) -> Outcome:
    """NO_MOVES outcome: the player with the higher utility wins; None on equal utilities."""
    values = {player: game.utility(state, player) for player in players}
    best = max(values.values())
    leaders = [player for player, value in values.items() if value == best]
    return Outcome(leaders[0] if len(leaders) == 1 else None, Termination.NO_MOVES)


def replay(game: Game[S, M], state: S, moves: list[M]) -> list[S]:
    """Checked: the positions of a game replayed from ``state``.

    Args:
        game: the rules.
        state: the starting position; not changed.
        moves: the moves in play order.

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


__all__ = ["Contestant", "GameRecord", "Outcome", "Ply", "Reply", "Termination", "play_game",
           "replay"]
