"""Othello's game kit: rules, clock, the handout's line protocol as the seat codec, house bots by
name and the replay painter.

A submission's ``agent.py`` runs as a program with the assignment's starter modules beside it
and speaks the handout's protocol (``assignments.othello.referee``). The kit needs the rules
alone, so the student package holds it; of the house bots only Randy (``referee.Randy``) ships,
the reference's timed alpha-beta (``assignments.othello.heuristic``) stays with the staff.

Tournament defaults give real games: the agents get a depth limit of 4 in the config line
(without one, a handout agent searches the whole tree and loses every game on time on its first
move) and 10 s per move. Both are printed at the start of a run and kept in every record.
"""
from __future__ import annotations

from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Mapping, Optional

from assignments.othello.referee import Settings, house_bot, program_seat, replay_view
from assignments.othello.rules import DARK, LIGHT, Move, Othello, OthelloState
from harness.games.cpu_clock import wall_backstop
from harness.games.kit import HouseBot, SandboxLike
from harness.games.match import Clock, Seat
from harness.games.pages import ReplayView

DEFAULT_MOVE_SECONDS = 10.0
DEFAULT_LIMIT = 4
"""Depth limit sent to agents by default: a few seconds per move for a handout agent on 8x8."""


@dataclass(frozen=True)
class OthelloKit:
    """Othello on a ``size`` board; dark moves first.

    Attributes:
        size: board side (even, 4 or more).
        move_seconds: the limit per reply.
        handshake_seconds: the limit for the name line.
        limit, minimax, caching, ordering: the search settings sent to both players in the
            config line (``limit`` -1: no depth limit).
        color_only: send only the colour as the config line (the colour-only lineage).
        reference_budget: seconds per move aimed at by ``house:reference``.
        slack: seconds added to a tournament's per-game deadline.
        assignment: the assignment (agent-API variant) whose starter modules go beside each
            agent and whose allowed packages it may import.
    """

    size: int = 8
    move_seconds: float = DEFAULT_MOVE_SECONDS
    handshake_seconds: float = 10.0
    limit: int = DEFAULT_LIMIT
    minimax: bool = False
    caching: bool = False
    ordering: bool = False
    color_only: bool = False
    reference_budget: float = 1.0
    slack: float = 60.0
    assignment: str = "othello"

    name: ClassVar[str] = "othello"
    sides: ClassVar[tuple[int, int]] = (DARK, LIGHT)
    house_bots: ClassVar[tuple[HouseBot, ...]] = (
        HouseBot("random", house_bot, "Randy: uniformly random"),
        HouseBot("reference", "assignments.othello.heuristic:house_bot",
                 "the reference's timed alpha-beta, weighted squares"),
    )

    @property
    def game_settings(self) -> Settings:
        """The settings sent in the config line."""
        return Settings(self.size, self.limit, self.minimax, self.caching, self.ordering,
                        self.color_only)

    @property
    def clock(self) -> Clock:
        return Clock(move_seconds=self.move_seconds, handshake_seconds=self.handshake_seconds)

    @property
    def game_timeout(self) -> float:
        """Every move at its limit, one of them at its wall backstop (a clock counts CPU time:
        a sleeping agent loses after the backstop), plus ``slack``."""
        return ((self.size * self.size - 3) * self.move_seconds
                + wall_backstop(self.move_seconds) + self.slack)

    def rules(self) -> Othello:
        return Othello(self.size)

    def start(self) -> OthelloState:
        return self.rules().initial_state()

    def student_seat(self, sandbox: SandboxLike, stack: ExitStack) -> Seat[OthelloState, Move]:
        """The submission's ``agent.py`` run as a program of ``sandbox``."""
        return program_seat(stack.enter_context(sandbox.start_program()), self.game_settings)

    def settings(self) -> Mapping[str, Any]:
        return {"name": self.name, "size": self.size, "limit": self.limit,
                "move_seconds": self.move_seconds}

    def describe(self) -> str:
        return f"othello: {self.game_settings.describe()}; {self.clock.describe()}"

    def replay_view(self, result: Any, outcome: str) -> ReplayView:
        return replay_view(result, outcome, self.size)


def make_kit(clock: Optional[float] = None, **settings: Any) -> OthelloKit:
    """The kit with ``clock`` seconds per move (default 10) and further ``settings`` (dataclass
    fields); the ``arena`` of ``assignments/othello/assignment.yaml``.

    Raises:
        TypeError: for an unknown setting.
    """
    return OthelloKit(move_seconds=DEFAULT_MOVE_SECONDS if clock is None else float(clock),
                      **settings)


def variant_kit(assignment: str, **defaults: Any) -> Callable[..., OthelloKit]:
    """The kit factory of an agent-API variant (its ``assignment.yaml``'s ``arena``):
    :func:`make_kit` with the variant's starter modules and its own default settings."""
    def make(clock: Optional[float] = None, **settings: Any) -> OthelloKit:
        return make_kit(clock, **{"assignment": assignment, **defaults, **settings})
    return make


make_2025_kit = variant_kit("othello_2025")
make_valuefn_kit = variant_kit("othello_valuefn")
make_colour_kit = variant_kit("othello_colour", size=4, limit=-1, color_only=True)
"""The colour-only lineage: 4x4 boards searched to the end, the colour alone in the handshake."""


__all__ = ["DEFAULT_LIMIT", "DEFAULT_MOVE_SECONDS", "OthelloKit", "make_2025_kit",
           "make_colour_kit", "make_kit", "make_valuefn_kit", "variant_kit"]
