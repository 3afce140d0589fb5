"""Othello as a tournament arena, refereed by the trusted Othello referee over the real protocol.

Registered for ``gamegrader tournament othello`` by the ``arena`` key of
``test_specs/othello/assignment.yaml``. A submission's ``agent.py`` runs as a program in its own
sandbox with the template's ``othello_shared.py`` beside it; house bots (``house:random``,
``house:reference``) play in the game's process.

Defaults give real games: the agents get a depth limit of 4 in the config line (without one, a
handout agent searches the whole tree and loses every game on time on its first move) and 10 s
per move. Both are printed at the start of a run and kept in every game's record.
"""
from __future__ import annotations

from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional

from harness.games import Clock, InProcess, Seat
from harness.games.pages import ReplayView
from harness.tournament.records import (
    HOUSE_PREFIX,
    Entrant,
    GameResult,
    GameTask,
    result_of,
)
from reference.games.othello import DARK, LIGHT, Move, OthelloState
from reference.othello.referee import (
    Randy,
    Settings,
    player_seed,
    program_seat,
    referee_game,
    replay_view,
)

DEFAULT_MOVE_SECONDS = 10.0
DEFAULT_LIMIT = 4
"""Depth limit sent to agents by default: a few seconds per move for a handout agent on 8x8."""
HOUSE_BOTS = ("random", "reference")
"""Built-in players: Randy (seeded uniform random) and the reference's timed alpha-beta."""
TEMPLATE_DIR = Path(__file__).resolve().parents[2] / "student_template" / "othello"


@dataclass
class ReferenceBot:
    """The reference's timed alpha-beta with a weighted-squares evaluation."""

    budget: float = 1.0

    def choose_move(self, state: OthelloState, time_left: float) -> Optional[Move]:
        from reference.othello.heuristic import HeuristicAgent

        return HeuristicAgent(budget=min(self.budget, time_left / 3)).choose(
            state.board, state.to_move)


def house_seat(name: str, seed: int, budget: float = 1.0) -> Seat[OthelloState, Move]:
    """The house bot ``name`` (one of :data:`HOUSE_BOTS`) as a seat.

    Raises:
        ValueError: for an unknown name, listing the known ones.
    """
    if name == "random":
        return InProcess(Randy(seed))
    if name == "reference":
        return InProcess(ReferenceBot(budget))
    raise ValueError(f"unknown house bot {name!r}; known: {', '.join(HOUSE_BOTS)}")


@dataclass(frozen=True)
class OthelloArena:
    """Plays one Othello game per task; the task's first entrant plays dark (moves first).

    Attributes:
        size: board side (even, 4 or more).
        move_seconds: the limit per reply.
        limit, minimax, caching, ordering: the search settings sent to both players in the
            config line (``limit`` -1: no depth limit).
        reference_budget: seconds per move aimed at by ``house:reference``.
        slack: seconds added to the per-game deadline.
        assignment: the assignment (agent-API variant) whose starter modules go beside each
            agent and whose allowed packages it may import.
        color_only: send only the colour as the config line (the colour-only lineage).
    """

    size: int = 8
    move_seconds: float = DEFAULT_MOVE_SECONDS
    limit: int = DEFAULT_LIMIT
    minimax: bool = False
    caching: bool = False
    ordering: bool = False
    reference_budget: float = 1.0
    slack: float = 60.0
    assignment: str = "othello"
    color_only: bool = False

    @property
    def settings(self) -> Settings:
        return Settings(self.size, self.limit, self.minimax, self.caching, self.ordering,
                        self.color_only)

    @property
    def clock(self) -> Clock:
        return Clock(move_seconds=self.move_seconds)

    @property
    def game_timeout(self) -> float:
        """Every move at its limit, two handshakes, plus ``slack``."""
        return (self.size * self.size - 2) * self.move_seconds + self.slack

    def describe(self) -> str:
        """The settings every game is played with, for the run's header line."""
        return f"othello: {self.settings.describe()}; {self.clock.describe()}"

    def check(self, entrant: Entrant) -> None:
        """Raise ValueError for an unknown house bot, naming the known ones."""
        if entrant.source.startswith(HOUSE_PREFIX):
            bot = entrant.source[len(HOUSE_PREFIX):]
            if bot not in HOUSE_BOTS:
                raise ValueError(f"unknown house bot {bot!r}; known: {', '.join(HOUSE_BOTS)}")

    def replay_view(self, result: GameResult, outcome: str) -> ReplayView:
        """The positions of a recorded game for its replay page (see ``referee.replay_view``)."""
        return replay_view(result, outcome, self.size)

    def play(self, task: GameTask) -> GameResult:
        """Play ``task``; entrants' faults are results, never exceptions."""
        with ExitStack() as stack:
            dark, light = (self._seat(entrant, player_seed(task.seed, color), stack)
                           for color, entrant in ((DARK, task.first), (LIGHT, task.second)))
            record = referee_game(dark, light, self.settings, self.clock)
        return result_of(record, task, (DARK, LIGHT), {
            "name": "othello", "size": self.size, "limit": self.limit,
            "move_seconds": self.move_seconds})

    def _seat(self, entrant: Entrant, seed: int, stack: ExitStack
              ) -> Seat[OthelloState, Move]:
        """A house bot, or the entrant's agent in a sandbox of its own."""
        if entrant.source.startswith(HOUSE_PREFIX):
            return house_seat(entrant.source[len(HOUSE_PREFIX):], seed, self.reference_budget)
        from harness import Sandbox
        from harness.spec import find_assignment

        assignment = find_assignment(self.assignment)
        starters = {path.name: path for path in assignment.support_files}
        sandbox = stack.enter_context(Sandbox("agent", {
            **starters, "agent.py": Path(entrant.source)},
            packages=assignment.allowed_packages))
        program = stack.enter_context(sandbox.start_program())
        return program_seat(program, self.settings)


def make_arena(clock: Optional[float] = None, **options: Any) -> OthelloArena:
    """The tournament command's factory: ``clock`` is the limit per move (default 10 s)."""
    return OthelloArena(move_seconds=DEFAULT_MOVE_SECONDS if clock is None else clock,
                        **options)


def variant_arena(assignment: str, **defaults: Any) -> Callable[..., OthelloArena]:
    """The factory of an agent-API variant's arena (its ``assignment.yaml``'s ``arena``):
    :func:`make_arena` with the variant's starter modules and its own default settings."""
    def make(clock: Optional[float] = None, **options: Any) -> OthelloArena:
        return make_arena(clock, **{"assignment": assignment, **defaults, **options})
    return make


make_2025_arena = variant_arena("othello_2025")
make_valuefn_arena = variant_arena("othello_valuefn")
make_colour_arena = variant_arena("othello_colour", size=4, limit=-1, color_only=True)
"""The colour-only lineage: 4x4 boards searched to the end, the colour alone in the handshake."""


__all__ = ["DEFAULT_LIMIT", "DEFAULT_MOVE_SECONDS", "HOUSE_BOTS", "OthelloArena", "ReferenceBot",
           "house_seat", "make_2025_arena", "make_arena", "make_colour_arena",
           "make_valuefn_arena", "variant_arena"]
