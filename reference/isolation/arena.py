"""Isolation as a tournament arena: who plays, with which clock, and how a student is seated.

``make_arena`` is the entry point the tournament command finds through the ``arena`` key of
``test_specs/isolation/assignment.yaml``. House bots (``house:random``, ``house:greedy``,
``house:reference``, ``house:depth1`` ... see ``players.HOUSE_BOTS``) play in the game's own
process; a submission file is imported in a fresh sandboxed process for every game through
``open_server``, the harness's ``CallServer`` factory, and plays through the same clocked loop.
"""
from __future__ import annotations

from contextlib import AbstractContextManager, ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

from harness.games.match import Seat
from harness.games.pages import ReplayView
from harness.games.seats import CallServerLike, InProcess
from harness.tournament.records import HOUSE_PREFIX, Entrant, GameResult, GameTask
from harness.tournament.schedule import derive_seed
from reference.games.isolation import SIZE, Isolation, IsolationState, Move
from reference.isolation.pages import IsolationPages
from reference.isolation.players import HOUSE_BOTS, house_agent
from reference.isolation.referee import game_result, referee_game, student_contestant

MODULE = "player"
"""The module name a submission is imported as (``test_specs/isolation/assignment.yaml``)."""
DEFAULT_CLOCK = 60.0
"""Tournament clock per player per game, in seconds (the handout leaves it to the project)."""

ServerOpener = Callable[[str], AbstractContextManager[CallServerLike]]
"""``open_server(path)``: a context manager holding a sandboxed ``CallServer`` for the
submission file at ``path``; leaving it closes the process. Must be a picklable top-level
function, because arenas are shipped to worker processes."""


@contextmanager
def sandbox_server(path: str) -> Iterator[CallServerLike]:
    """The default :data:`ServerOpener`: the harness sandbox serving the file at ``path``.

    The file is copied into a fresh sandbox as ``player.py`` and imported once in an isolated,
    resource-limited process; leaving the context closes the process and the sandbox.
    """
    from harness import Sandbox
    from harness.spec import find_assignment

    with Sandbox(MODULE, {f"{MODULE}.py": Path(path)},
                 packages=find_assignment("isolation").allowed_packages) as sandbox:
        server = sandbox.start_server()
        try:
            yield server
        finally:
            server.close()


@dataclass(frozen=True)
class IsolationArena:
    """Plays one clocked Isolation game per task; the task's first entrant plays x.

    Attributes:
        seconds: each player's clock for a game.
        size: board size (8 in the handout).
        open_server: how to seat a submission file; None allows house bots only.
        slack: seconds added to both clocks for the engine's per-game deadline (process start
            and referee overhead).
    """

    seconds: float = DEFAULT_CLOCK
    size: int = SIZE
    open_server: Optional[ServerOpener] = None
    slack: float = 30.0

    @property
    def game_timeout(self) -> float:
        """Both clocks plus ``slack``: a game that takes longer is given up on."""
        return 2 * self.seconds + self.slack

    def describe(self) -> str:
        """The settings every game is played with, for the run's header line."""
        return f"isolation: {self.size}x{self.size}; {self.seconds:g} s per player per game"

    def check(self, entrant: Entrant) -> None:
        """Raise ValueError for an unknown house bot (naming the known ones), or for a file
        entrant when files cannot be seated."""
        if entrant.source.startswith(HOUSE_PREFIX):
            bot = entrant.source[len(HOUSE_PREFIX):]
            if bot not in HOUSE_BOTS:
                raise ValueError(f"unknown house bot {bot!r}; known: {', '.join(HOUSE_BOTS)}")
        elif self.open_server is None:
            raise ValueError(f"entrant {entrant.name!r} is a file ({entrant.source}); "
                             "seating files needs the harness sandbox (open_server)")

    def replay_view(self, result: GameResult, outcome: str) -> ReplayView:
        """The replay page's view of a recorded game (:class:`IsolationPages`).

        Raises:
            ValueError: when the recorded moves are not legal.
        """
        return IsolationPages(self.seconds, self.size).replay_view(result, outcome)

    def play(self, task: GameTask) -> GameResult:
        """Play ``task``; faults of entrants are results, never exceptions.

        Raises:
            ValueError: for an unknown house bot or a file entrant without ``open_server``.
        """
        game = Isolation(self.size)
        with ExitStack() as stack:
            seats = [self._seat(entrant, game, derive_seed(task.seed, side), stack)
                     for side, entrant in enumerate((task.first, task.second))]
            record = referee_game(seats[0], seats[1], self.seconds, game)
        return game_result(record, task, self.size, self.seconds)

    def _seat(self, entrant: Entrant, game: Isolation, seed: int, stack: ExitStack
              ) -> Seat[IsolationState, Move]:
        if entrant.source.startswith(HOUSE_PREFIX):
            return InProcess(house_agent(entrant.source[len(HOUSE_PREFIX):], game, seed))
        if self.open_server is None:
            raise ValueError(f"entrant {entrant.name!r} is a file ({entrant.source}); "
                             "seating files needs the harness sandbox (open_server)")
        return student_contestant(stack.enter_context(self.open_server(entrant.source)),
                                  self.size)


def make_arena(clock: Optional[float] = None, open_server: Optional[ServerOpener] = sandbox_server,
               **options: Any) -> IsolationArena:
    """The tournament command's factory: ``clock`` seconds per player (default 60), submission
    files seated in the harness sandbox.

    Raises:
        TypeError: for an unknown option.
    """
    return IsolationArena(DEFAULT_CLOCK if clock is None else clock, open_server=open_server,
                          **options)


__all__ = ["DEFAULT_CLOCK", "HOUSE_PREFIX", "IsolationArena", "MODULE", "ServerOpener",
           "make_arena", "sandbox_server"]
