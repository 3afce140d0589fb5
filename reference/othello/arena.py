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
from typing import Any, Optional

from harness.games import Clock, Seat, replay
from harness.games.pages import Paint, ReplayView
from harness.tournament.records import Entrant, GameResult, GameTask, result_of
from reference.games.othello import DARK, LIGHT, Move, Othello, OthelloState
from reference.othello.referee import (
    COLOR_NAMES, HOUSE_BOTS, Settings, house_seat, player_seed, program_seat, referee_game,
)

HOUSE_PREFIX = "house:"
DEFAULT_MOVE_SECONDS = 10.0
DEFAULT_LIMIT = 4
"""Depth limit sent to agents by default: a few seconds per move for a handout agent on 8x8."""
TEMPLATE_DIR = Path(__file__).resolve().parents[2] / "student_template" / "othello"


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
    """

    size: int = 8
    move_seconds: float = DEFAULT_MOVE_SECONDS
    limit: int = DEFAULT_LIMIT
    minimax: bool = False
    caching: bool = False
    ordering: bool = False
    reference_budget: float = 1.0
    slack: float = 60.0

    @property
    def settings(self) -> Settings:
        return Settings(self.size, self.limit, self.minimax, self.caching, self.ordering)

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
        """The positions of a recorded game for its replay page (dark and light discs on green).

        Raises:
            ValueError: when the recorded moves are not legal.
        """
        game = Othello(self.size)
        states = replay(game, game.initial, [(m[0], m[1]) for m in result.moves])
        marks = {0: ".", DARK: "X", LIGHT: "O"}
        frames = [["".join(marks[square] for square in row) for row in state.board]
                  for state in states]
        labels = [f"{COLOR_NAMES[state.to_move]} (column, row) {tuple(move)}"
                  for state, move in zip(states, result.moves)]
        green = "#2e7d32"
        return ReplayView(
            f"othello {self.size}x{self.size}: {result.first} (dark) v {result.second} (light)",
            frames, {".": Paint(green), "X": Paint(green, "#111111"),
                     "O": Paint(green, "#f5f5f5")},
            labels, result.seconds, (), outcome,
            {"X": f"{result.first} (dark)", "O": f"{result.second} (light)"})

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

        sandbox = stack.enter_context(Sandbox("agent", {
            "agent.py": Path(entrant.source),
            "othello_shared.py": TEMPLATE_DIR / "othello_shared.py"}))
        program = stack.enter_context(sandbox.start_program())
        return program_seat(program, self.settings)


def make_arena(clock: Optional[float] = None, **options: Any) -> OthelloArena:
    """The tournament command's factory: ``clock`` is the limit per move (default 10 s)."""
    return OthelloArena(move_seconds=DEFAULT_MOVE_SECONDS if clock is None else clock,
                        **options)


__all__ = ["DEFAULT_LIMIT", "DEFAULT_MOVE_SECONDS", "OthelloArena", "make_arena"]
