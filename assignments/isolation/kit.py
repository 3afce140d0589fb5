"""Isolation's game kit: rules, clock, the seat codec, house bots by name and the replay painter.

Everything the harness plays Isolation with (graded games, tournaments, replays) comes from
:class:`IsolationKit`. It needs the rules alone, so the student package holds it; the house bots
are the random and greedy players (``assignments.isolation.house_players``, which ship) and the
alpha-beta bots, named by dotted path (``assignments.isolation.players``: they stay with the
staff).
"""
from __future__ import annotations

from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any, ClassVar, Mapping, Optional

from assignments.isolation.house_players import house_bot
from assignments.isolation.pages import IsolationPages
from assignments.isolation.referee import student_contestant
from assignments.isolation.rules import SIZE, Isolation, IsolationState, Move, O, X
from harness.games.cpu_clock import wall_backstop
from harness.games.kit import HouseBot, SandboxLike
from harness.games.match import Clock, Seat
from harness.games.pages import ReplayView

DEFAULT_CLOCK = 60.0
"""Tournament clock per player per game, in seconds (the handout leaves it to the project)."""

_SHIPPED = house_bot
_STAFF = "assignments.isolation.players:house_bot"

SEARCHING_BOTS = ("depth1", "depth2", "depth3")
"""The fixed-depth alpha-beta house bots (clock ignored, ties broken the way the game's seed
says, so deterministic per seed); the staff's, never in the student package."""


@dataclass(frozen=True)
class IsolationKit:
    """Isolation on a ``size`` board, ``seconds`` on each player's chess clock; x moves first.

    Attributes:
        seconds: each player's clock for a game.
        size: board size (8 in the handout).
        slack: seconds added to both clocks' wall backstops for a tournament's per-game
            deadline.
    """

    seconds: float = DEFAULT_CLOCK
    size: int = SIZE
    slack: float = 30.0

    name: ClassVar[str] = "isolation"
    assignment: ClassVar[str] = "isolation"
    sides: ClassVar[tuple[str, str]] = (X, O)
    house_bots: ClassVar[tuple[HouseBot, ...]] = (
        HouseBot("random", _SHIPPED, "uniformly random legal moves"),
        HouseBot("greedy", _SHIPPED, "one-ply mobility difference"),
        HouseBot("reference", _STAFF, "the reference's timed alpha-beta"),
        *(HouseBot(name, _STAFF, f"alpha-beta to depth {name[-1]}, clock ignored, seeded ties")
          for name in SEARCHING_BOTS),
    )

    @property
    def clock(self) -> Clock:
        return Clock(game_seconds=self.seconds)

    @property
    def game_timeout(self) -> float:
        """Both clocks at their wall backstop's pace (a clock counts CPU time: a loaded host or
        a sleeping entrant takes longer in wall time), plus ``slack``."""
        return 2 * wall_backstop(self.seconds) + self.slack

    def rules(self) -> Isolation:
        return Isolation(self.size)

    def start(self) -> IsolationState:
        return self.rules().initial_state()

    def student_seat(self, sandbox: SandboxLike, stack: ExitStack) -> Seat[IsolationState, Move]:
        """The submission's ``choose_move`` served from a fresh process of ``sandbox``."""
        server = sandbox.start_server()
        stack.callback(server.close)
        return student_contestant(server, self.size)

    def settings(self) -> Mapping[str, Any]:
        return {"name": self.name, "size": self.size, "clock": self.seconds}

    def describe(self) -> str:
        return f"isolation: {self.size}x{self.size}; {self.clock.describe()}"

    def replay_view(self, result: Any, outcome: str) -> ReplayView:
        return IsolationPages(self.seconds, self.size).replay_view(result, outcome)


def make_kit(clock: Optional[float] = None, **settings: Any) -> IsolationKit:
    """The kit with ``clock`` seconds per player (default 60) and further ``settings``
    (dataclass fields); the ``arena`` of ``assignments/isolation/assignment.yaml``.

    Raises:
        TypeError: for an unknown setting.
    """
    return IsolationKit(DEFAULT_CLOCK if clock is None else float(clock), **settings)


__all__ = ["DEFAULT_CLOCK", "IsolationKit", "SEARCHING_BOTS", "make_kit"]
