"""A game kit: what one two-player game supplies so that the harness can play it anywhere.

The harness plays every game the same way: graded games against house bots
(``harness.games.versus``), tournaments (``harness.games.arenas.HouseArena``), the staff
ladder and replays. What differs between games is small and lives in the game's kit:

- the rules and the start position, the two sides (first mover first) and the clock;
- the seat codec: how a sandboxed submission sits at the board (a function behind a
  ``CallServer`` or a program speaking a line protocol);
- the house bots, by name: the bots students may have as functions, the staff's by dotted
  path, so the student package holds the kit and only the bots students may have;
- the replay painter and the settings kept in every record.

A kit is a small frozen dataclass of settings, picklable, so it travels to worker processes.
"""
from __future__ import annotations

from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any, Callable, Hashable, Mapping, Optional, Protocol, Sequence, Union

from harness.games.match import Clock, GameRecord, Rules, Seat, play_game
from harness.games.pages import ReplayView
from harness.games.seats import Agent, InProcess
from harness.records.games import HOUSE_PREFIX, GameResult, GameTask


def house_bot_name(source: str) -> Optional[str]:
    """The house bot an entrant's source names (``"house:greedy"`` -> ``"greedy"``), or None
    for a file."""
    return source[len(HOUSE_PREFIX):] if source.startswith(HOUSE_PREFIX) else None


@dataclass(frozen=True)
class HouseBot:
    """A house bot by name.

    Attributes:
        name: the name specs, ladders and tournaments use (``house:NAME``).
        factory: ``factory(kit, name, seed)`` returns a new :class:`~harness.games.seats.Agent`.
            A bot students may have is given as the function itself (the kit imports it, so
            the student package holds it); a staff bot is named by its dotted path
            ``package.module:function``, so that the kit imports none of its code.
        about: a few words for listings and feedback, e.g. ``"one-ply greedy"``.
    """

    name: str
    factory: Union[str, Callable[[Any, str, int], Any]]
    about: str = ""


class SandboxLike(Protocol):
    """The harness ``Sandbox`` as a kit's seat codec uses it."""

    def start_server(self) -> Any: ...

    def start_program(self) -> Any: ...


class GameKit(Protocol):
    """What a game supplies (see the module docstring). Implementations are frozen dataclasses
    whose fields are the game's settings (board size, clock, ...)."""

    @property
    def name(self) -> str:
        """The game's name in records (``game.name``), which finds its arena again."""

    @property
    def assignment(self) -> str:
        """The assignment whose module, starter files and allowed packages seat a file."""

    @property
    def sides(self) -> tuple[Hashable, Hashable]:
        """The two players' values, the first mover first."""

    @property
    def house_bots(self) -> Sequence[HouseBot]:
        """Every house bot, in the order listings name them."""

    @property
    def clock(self) -> Clock:
        """The time rules of one game."""

    @property
    def game_timeout(self) -> float:
        """Seconds after which a tournament gives up on one game (a backstop over the clocks)."""

    def rules(self) -> Rules[Any, Any]:
        """The trusted rules the referee plays by."""

    def start(self) -> Any:
        """The start position."""

    def student_seat(self, sandbox: SandboxLike, stack: ExitStack) -> Seat[Any, Any]:
        """The seat codec: the submission in ``sandbox`` as a seat; processes it starts are
        closed by ``stack``."""

    def settings(self) -> Mapping[str, Any]:
        """The settings kept in every record (``"name"`` first), for replays."""

    def describe(self) -> str:
        """The settings in words, e.g. ``"isolation: 8x8; 60 s per player per game"``."""

    def replay_view(self, result: Any, outcome: str) -> ReplayView:
        """The painter: a recorded game (a ``GameResult``) as a replay page's view.

        Raises:
            ValueError: when the recorded moves are not legal.
        """


def bot_names(kit: GameKit) -> tuple[str, ...]:
    """The kit's house bots' names, in the kit's order."""
    return tuple(bot.name for bot in kit.house_bots)


def student_bots(kit: GameKit) -> tuple[str, ...]:
    """The house bots students may have (given as functions, so the student package holds
    them), in the kit's order; the staff's, named by dotted path, are left out."""
    return tuple(bot.name for bot in kit.house_bots if not isinstance(bot.factory, str))


def find_bot(kit: GameKit, name: str) -> HouseBot:
    """The house bot ``name``.

    Raises:
        ValueError: for an unknown name, listing the known ones.
    """
    for bot in kit.house_bots:
        if bot.name == name:
            return bot
    raise ValueError(f"unknown house bot {name!r}; known: {', '.join(bot_names(kit))}")


def house_agent(kit: GameKit, name: str, seed: int) -> Agent[Any, Any]:
    """A new house bot ``name`` seeded by ``seed``.

    Raises:
        ValueError: for an unknown name, or a staff bot whose code is not here (the student
            package holds only the bots students may have).
    """
    from harness.dotted import resolve_callable

    factory = find_bot(kit, name).factory
    if isinstance(factory, str):
        try:
            factory = resolve_callable(factory)
        except LookupError as error:
            raise ValueError(f"house bot {name!r} is not available here ({error})") from error
    return factory(kit, name, seed)  # type: ignore[no-any-return]


def house_seat(kit: GameKit, name: str, seed: int) -> Seat[Any, Any]:
    """The house bot ``name`` as an in-process seat (see :func:`house_agent`)."""
    return InProcess(house_agent(kit, name, seed))


def play(kit: GameKit, first: Seat[Any, Any], second: Seat[Any, Any]) -> GameRecord[Any]:
    """One refereed game from the kit's start position, ``first`` moving first."""
    return play_game(kit.rules(), kit.start(), dict(zip(kit.sides, (first, second))), kit.clock)




def result_of(record: GameRecord[Any], task: GameTask, sides: Sequence[Hashable],
              game: Optional[dict[str, Any]] = None) -> GameResult:
    """A refereed game as the tournament's plain result.

    Args:
        record: the match loop's record.
        task: the game's task; its first entrant played ``sides[0]``.
        sides: the game's two player values, the first entrant's first.
        game: the game's settings, kept for replays.
    """
    index = {side: i for i, side in enumerate(sides)}
    outcome, clocks = record.outcome, dict(record.clocks)
    return GameResult(
        task.first.name, task.second.name, task.seed,
        None if outcome.winner is None else index[outcome.winner], outcome.reason,
        outcome.detail, tuple(tuple(int(v) for v in p.move) for p in record.plies),
        tuple(round(p.seconds, 6) for p in record.plies),
        (_clock(clocks[sides[0]]), _clock(clocks[sides[1]])),
        None if outcome.forfeiter is None else index[outcome.forfeiter],
        tuple(sorted((game or {}).items())),
        (round(record.waiting_of(sides[0]).setup, 6), round(record.waiting_of(sides[1]).setup, 6)))


def _clock(seconds: float) -> float:
    """A clock for JSON: rounded, and 0.0 for a game without a chess clock (infinite)."""
    return round(seconds, 6) if seconds != float("inf") else 0.0


__all__ = ["GameKit", "HouseBot", "SandboxLike", "bot_names", "find_bot", "house_agent",
           "house_bot_name", "house_seat", "play", "result_of", "student_bots"]
