"""How a refereed game ends, and the plain-data records that cross process boundaries in a
tournament: entrants, tasks, results.

A game ends either by the rules (the player to move has no legal move; the game's utility then
names the winner or a draw) or by a forfeit of the player to move, for one named reason
(``Reason``, ``GameEnd``): one vocabulary for every game, grading runner and tournament.

Everything here is a frozen dataclass of builtins, picklable by the standard library and by dask,
and convertible to JSON-ready dicts (``to_dict``/``from_dict`` pairs), so a tournament can be
saved, reloaded and replayed. The engine also defines here the small :class:`Arena` interface a
game must offer to be played in a tournament.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Hashable, Optional, Protocol

from harness.records.verdicts import Verdict


class Reason(enum.Enum):
    """Why a game ended."""

    NO_MOVES = "no_moves"
    """The player to move had no legal move; the rules' utility decides the result."""
    ILLEGAL = "illegal"
    """The player to move answered a move that is not legal, or no move while it had one."""
    MALFORMED = "malformed"
    """The player to move answered something that is not a move at all (or too much of it)."""
    TIMEOUT = "timeout"
    """The player to move ran out of clock time before answering."""
    CRASH = "crash"
    """The player to move raised, died, or stopped answering."""
    ABORTED = "aborted"
    """A game a tournament gave up on, for a cause outside both entrants: its worker crashed
    or overran its deadline (an entrant's own faults and waiting are its forfeits). Such a game
    has no winner and is left out of ratings; it is never a win for anybody: a tournament plays
    it once more, and an elimination match that stays undecided by aborted games sends nobody
    on."""

    @property
    def is_forfeit(self) -> bool:
        """Whether the player to move lost by its own fault."""
        return self not in (Reason.NO_MOVES, Reason.ABORTED)

    @property
    def verdict(self) -> Verdict | None:
        """The case verdict of a game lost this way; None for a game lost by the rules, which is
        simply a wrong answer."""
        return _VERDICTS.get(self)

    @property
    def label(self) -> str:
        """Words for feedback and standings, e.g. ``"forfeit: timeout"``."""
        if self is Reason.NO_MOVES:
            return "no legal move left"
        return "aborted" if self is Reason.ABORTED else f"forfeit: {self.value}"


_VERDICTS = {Reason.TIMEOUT: Verdict.TIMED_OUT, Reason.CRASH: Verdict.CRASHED,
             Reason.MALFORMED: Verdict.PROTOCOL_VIOLATION, Reason.ILLEGAL: Verdict.ILLEGAL_MOVE}


@dataclass(frozen=True)
class GameEnd:
    """The end of a game: who won and why.

    Attributes:
        winner: the winning player (a value of the game's players), or None for a draw.
        reason: why the game ended.
        detail: for a forfeit, a short message about the faulty reply (bounded text), else "".
        forfeiter: the player who forfeited, or None when the rules ended the game.
    """

    winner: Optional[Hashable]
    reason: Reason
    detail: str = ""
    forfeiter: Optional[Hashable] = None


HOUSE_PREFIX = "house:"
"""An entrant whose source starts so is a house bot the arena holds (``house:greedy``); game
kits (``harness.games.kit``) name their bots by the rest."""


@dataclass(frozen=True)
class Entrant:
    """One player in a tournament.

    Attributes:
        name: unique display name, also the key in standings.
        source: where the arena finds the player: ``"house:NAME"`` for a built-in bot, otherwise
            a path to a submission file.
        code: a fingerprint of the entrant's code (``fingerprints``); a game is reused from
            the records only while both entrants' fingerprints are unchanged. "" when unknown,
            in which case ``source`` stands for the code.
    """

    name: str
    source: str
    code: str = ""

    @property
    def is_house(self) -> bool:
        """Whether the arena's own bot plays (``house:NAME``), not a submission."""
        return self.source.startswith(HOUSE_PREFIX)


@dataclass(frozen=True)
class GameTask:
    """One game to play.

    Attributes:
        index: position in the tournament's schedule; results are reported in this order.
        round: 1-based round number (round-robin round or elimination round).
        first: plays the game's first player (Isolation's x, Othello's dark).
        second: plays the other side.
        seed: seeds everything random in this game (random bots, deciding-game colours).
        label: free text shown in progress lines, e.g. ``"match 3, game 2"``.
    """

    index: int
    round: int
    first: Entrant
    second: Entrant
    seed: int
    label: str = ""


@dataclass(frozen=True)
class GameResult:
    """The result of one game, as plain data.

    Attributes:
        first: name of the entrant who played first.
        second: name of the entrant who played second.
        seed: the task's seed.
        winner: 0 when ``first`` won, 1 when ``second`` won, None for a draw or an aborted game.
        reason: why the game ended, a ``harness.records.games.Reason`` value (``"no_moves"``,
            ``"illegal"``, ..., ``"aborted"`` for a game the tournament gave up on).
        detail: short reason text for a fault or an abort, else "".
        moves: the moves in play order, each as a list of ints (the game's own move format).
        seconds: time charged for each move, aligned with ``moves``.
        clocks: time left on the first and on the second player's clock at the end.
        forfeiter: 0 or 1 when that side lost by its own fault, else None.
        game: the game's settings, for replays (e.g. ``{"name": GAME, "size": 8}``).
        setup: CPU seconds the first and the second player used before their first move
            (starting, importing, greeting; charged to a game clock beyond
            ``Clock.setup_seconds``), 0.0 for a house bot.
    """

    first: str
    second: str
    seed: int
    winner: Optional[int]
    reason: Reason
    detail: str = ""
    moves: tuple[tuple[int, ...], ...] = ()
    seconds: tuple[float, ...] = ()
    clocks: tuple[float, float] = (0.0, 0.0)
    forfeiter: Optional[int] = None
    game: tuple[tuple[str, Any], ...] = ()
    setup: tuple[float, float] = (0.0, 0.0)

    @property
    def forfeiter_name(self) -> Optional[str]:
        """The entrant who forfeited, or None."""
        return None if self.forfeiter is None else (self.first, self.second)[self.forfeiter]

    @property
    def forfeit_on_first_move(self) -> bool:
        """Whether the forfeiter failed on its own first move (its handshake included)."""
        return self.forfeiter is not None and len(self.moves) <= self.forfeiter

    @property
    def winner_name(self) -> Optional[str]:
        """The winner's entrant name, or None."""
        return None if self.winner is None else (self.first, self.second)[self.winner]

    @property
    def is_aborted(self) -> bool:
        """Whether the tournament gave up on this game."""
        return self.reason is Reason.ABORTED

    def outcome_key(self) -> tuple[Any, ...]:
        """The parts that a reproducible run repeats exactly (everything but the timings)."""
        return (self.first, self.second, self.seed, self.winner, self.reason, self.moves)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; :meth:`from_dict` rebuilds an equal result."""
        return {"first": self.first, "second": self.second, "seed": self.seed,
                "winner": self.winner, "reason": self.reason.value, "detail": self.detail,
                "moves": [list(m) for m in self.moves], "seconds": list(self.seconds),
                "clocks": list(self.clocks), "forfeiter": self.forfeiter,
                "game": dict(self.game), "setup": list(self.setup)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameResult:
        """Inverse of :meth:`to_dict` (trusted data: files this engine wrote)."""
        return cls(data["first"], data["second"], int(data["seed"]), data["winner"],
                   Reason(data["reason"]), data.get("detail", ""),
                   tuple(tuple(m) for m in data.get("moves", ())),
                   tuple(data.get("seconds", ())), tuple(data.get("clocks", (0.0, 0.0))),
                   data.get("forfeiter"), tuple(sorted(dict(data.get("game", {})).items())),
                   tuple(data.get("setup", (0.0, 0.0))))


def aborted(task: GameTask, detail: str) -> GameResult:
    """The result recorded for ``task`` when its game could not be finished."""
    return GameResult(task.first.name, task.second.name, task.seed, None,
                      Reason.ABORTED, detail)


class Arena(Protocol):
    """A game as the tournament engine sees it: plays one game between two entrants.

    Implementations are small picklable objects (frozen dataclasses of settings) so that they
    can be shipped to worker processes and dask workers. ``play`` must not raise for anything an
    entrant does; faults are results. It may raise for a bad configuration or a harness bug, which
    the engine records as an aborted game.
    """

    @property
    def game_timeout(self) -> float:
        """Seconds after which the engine gives up on one game (a backstop over the clocks)."""

    def play(self, task: GameTask) -> GameResult:
        """Play ``task`` and report its result."""


__all__ = ["HOUSE_PREFIX", "Arena", "Entrant", "GameEnd", "GameResult", "GameTask", "Reason",
           "aborted"]
