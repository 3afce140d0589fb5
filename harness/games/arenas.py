"""The house arena of every game, and finding a game's arena: the ``kit:`` factory its
assignment.yaml names, so the tournament engine (and replays) know no game.

A factory returns either an :class:`~harness.records.games.Arena` or a game kit
(``harness.games.kit.GameKit``), which is seated in :class:`HouseArena`: house bots play in the
game's process, a submission file in a sandbox of its own (its assignment's module name,
starter files and allowed packages), through the kit's seat codec and the one match loop.
"""
from __future__ import annotations

import importlib
import sys
from contextlib import AbstractContextManager, ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional

from harness.games.kit import (
    GameKit,
    SandboxLike,
    find_bot,
    house_bot_name,
    house_seat,
    play,
    result_of,
)
from harness.games.match import Seat
from harness.games.pages import ReplayView
from harness.games.seeds import derive_seed
from harness.records.games import Arena, Entrant, GameResult, GameTask

if TYPE_CHECKING:
    from harness.spec.run import RunContext

SandboxOpener = Callable[[str, str], AbstractContextManager[SandboxLike]]
"""``open_sandbox(assignment, path)``: a context manager holding a sandbox with the submission
file at ``path`` in it; leaving it closes the sandbox. A picklable top-level function, because
arenas are shipped to worker processes."""


@contextmanager
def entrant_sandbox(assignment: str, path: str) -> Iterator[SandboxLike]:
    """The default :data:`SandboxOpener`: a fresh harness sandbox holding the file at ``path``
    as the assignment's main module, beside the assignment's starter files."""
    from harness import Sandbox
    from harness.spec import find_assignment

    spec = find_assignment(assignment)
    files = {support.name: support for support in spec.support_files}
    files[f"{spec.module}.py"] = Path(path)
    with Sandbox(spec.module, files, packages=spec.allowed_packages) as sandbox:
        yield sandbox


@dataclass(frozen=True)
class HouseArena:
    """Plays one game of ``kit`` per task; the task's first entrant takes the kit's first side.

    Attributes:
        kit: the game.
        open_sandbox: how to seat a submission file; None allows house bots only.
    """

    kit: GameKit
    open_sandbox: Optional[SandboxOpener] = entrant_sandbox

    @property
    def game_timeout(self) -> float:
        return self.kit.game_timeout

    def describe(self) -> str:
        """The settings every game is played with, for the run's header line."""
        return self.kit.describe()

    def house_files(self) -> list[Path]:
        """The code house bots run, for their fingerprints (``fingerprints.house_files``):
        every ``*.py`` file under the folder of the kit's module (the game's bots and rules
        live beside its kit), not the harness's."""
        module = sys.modules.get(type(self.kit).__module__)
        origin = getattr(module, "__file__", None)
        if not origin:
            return []
        return sorted(p for p in Path(origin).parent.rglob("*.py") if "__pycache__" not in p.parts)

    def check(self, entrant: Entrant) -> None:
        """Raise ValueError for an unknown house bot (naming the known ones), or for a file
        entrant when files cannot be seated."""
        bot = house_bot_name(entrant.source)
        if bot is not None:
            find_bot(self.kit, bot)
        elif self.open_sandbox is None:
            raise ValueError(f"entrant {entrant.name!r} is a file ({entrant.source}); "
                             "seating files needs the harness sandbox (open_sandbox)")

    def replay_view(self, result: GameResult, outcome: str) -> ReplayView:
        """The replay page's view of a recorded game (the kit's painter).

        Raises:
            ValueError: when the recorded moves are not legal.
        """
        return self.kit.replay_view(result, outcome)

    def play(self, task: GameTask) -> GameResult:
        """Play ``task``; faults of entrants are results, never exceptions.

        Raises:
            ValueError: for an unknown house bot or a file entrant without ``open_sandbox``.
        """
        with ExitStack() as stack:
            first, second = (self._seat(entrant, derive_seed(task.seed, side), stack)
                             for side, entrant in enumerate((task.first, task.second)))
            record = play(self.kit, first, second)
        return result_of(record, task, self.kit.sides, dict(self.kit.settings()))

    def _seat(self, entrant: Entrant, seed: int, stack: ExitStack) -> Seat[Any, Any]:
        self.check(entrant)
        bot = house_bot_name(entrant.source)
        if bot is not None:
            return house_seat(self.kit, bot, seed)
        assert self.open_sandbox is not None
        sandbox = stack.enter_context(self.open_sandbox(self.kit.assignment, entrant.source))
        return self.kit.student_seat(sandbox, stack)


def as_arena(made: Any) -> Arena:
    """What an ``arena`` factory returned, as an arena: a game kit is seated in
    :class:`HouseArena`."""
    return HouseArena(made) if callable(getattr(made, "student_seat", None)) else made


def load_arena(game: str, clock: Optional[float], factory: Optional[str] = None,
               options: Optional[dict[str, Any]] = None) -> Arena:
    """The arena factory called with ``clock=clock, **options``.

    Args:
        game: the assignment name; its factory is ``reference.<game>.arena:make_arena``.
        clock: seconds per player per game, or None for the game's default.
        factory: ``package.module:function`` to use instead of the convention.
        options: further settings of the arena (its dataclass fields).

    Raises:
        ValueError: when the factory cannot be found.
    """
    if not game.isidentifier():
        raise ValueError(f"game name must be a Python identifier, got {game!r}")
    module_name, _, function = (factory or registered_arena(game)).partition(":")
    try:
        module = importlib.import_module(module_name)
        make = getattr(module, function or "make_arena")
    except (ModuleNotFoundError, AttributeError) as error:
        raise ValueError(f"game {game!r} has no tournament arena: {error} (expected "
                         f"{module_name}:{function or 'make_arena'})") from error
    try:
        return as_arena(make(clock=clock, **(options or {})))
    except TypeError as error:
        raise ValueError(f"bad arena option: {error}") from error


def registered_arena(game: RunContext | str) -> str:
    """The kit (or arena) factory the assignment ``game`` names as its ``kit:`` (``game``: a
    run's context, whose assignment is then looked up once for the whole run, or its name).

    Raises:
        ValueError: for an unknown assignment (with the close names) or one that is no game.
    """
    import difflib

    from harness.spec import SpecError, list_assignments
    from harness.spec.run import as_run

    run = as_run(game)
    known = list_assignments()
    if run.name not in known:
        close = difflib.get_close_matches(run.name, known, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise ValueError(f"no assignment named {run.name!r}{hint}")
    try:
        arena = run.assignment.kit
    except SpecError as error:
        raise ValueError(str(error)) from error
    if not arena:
        games = [name for name in known if _arena_or_empty(name)]
        raise ValueError(f"{run.name!r} has no tournament (games: {', '.join(games)})")
    return arena


def _arena_or_empty(name: str) -> str:
    from harness.spec import SpecError, find_assignment

    try:
        return find_assignment(name).kit
    except SpecError:
        return ""


__all__ = ["HouseArena", "SandboxOpener", "as_arena", "entrant_sandbox", "load_arena",
           "registered_arena"]
