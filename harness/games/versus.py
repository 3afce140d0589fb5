"""Graded games against a house bot, for any game with a kit: the loop written once.

:func:`play_versus_house` plays a submission against one house bot of a
:class:`~harness.games.kit.GameKit`, one game per schedule entry, each in a fresh sandboxed
process, keeps every game as a record and replay page (``gamegrader grade --games DIR``) and
stops when the case's time is up. :func:`versus_house` is a runner specs can name directly
(``runner: "harness.games.versus:versus_house"``) or a game's runner can call with its kit;
options:

- ``kit``: the game's kit factory, ``package.module:function`` called as ``function(clock=...)``:
  the assignment's ``kit:``, which the loader puts here (``harness.spec.kit_key``; a case
  file does not name it);
- ``clock``: the kit's clock setting (seconds; the kit says per game or per move);
  ``settings``: the kit's other settings (e.g. a board size), if any; ``host_scaled``: divide
  the clock by the host's speed factor (``harness.timing.calibration``), as the staff ladder
  does, so that a player searches as deep on a slow grader as on the nominal machine (for games
  against a fixed-depth bot, whose strength no host changes);
- ``opponent``: a house bot of the kit; ``games``: how many games, the student taking the first
  side in even-numbered games (counting from 0) and the second in odd ones; ``seed``: each
  game's seed derives from it (the bot's random choices);
- ``score``: ``"wins"`` (default) earns ``min(1, wins / min_wins)``; ``"clean"`` earns the
  share of games in which the student made no fault, whoever won;
- ``even``: with ``"wins"``, the wins a player as strong as the bot gets (half the games, say),
  which earn nothing: the case then earns ``min(1, (wins - even) / (min_wins - even))``, so its
  points follow how much stronger than the bot the player is; ``even_means``: what those wins
  stand for, in the feedback (default: what a player as strong as the bot wins).

Games not played before the case's timeout count as neither wins nor clean games. A game's
runner may pass a ``picture`` function: the first lost games of a visible case are then drawn
in the feedback (a picture shows what the student's code did, so hidden cases get none).
"""
from __future__ import annotations

import time
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Hashable, Mapping, Optional, Sequence

from harness.games.kit import GameKit, SandboxLike, house_seat, play
from harness.games.match import HANDSHAKE, GameRecord
from harness.records.games import HOUSE_PREFIX, Reason
from harness.spec.contracts import INTEGER, NUMBER, TEXT, Option, declare_options

PICTURED_LOSSES = 2
"""Lost games drawn in a visible case's feedback (their last moves and final board)."""


@dataclass(frozen=True)
class HouseGame:
    """One graded game: its number (from 0), the student's side, its seed, its record and the
    replay page kept (``gamegrader grade --games``), or None."""

    number: int
    side: Hashable
    seed: int
    record: GameRecord[Any]
    replay: Optional[Path] = None

    @property
    def won(self) -> bool:
        return self.record.outcome.winner == self.side

    @property
    def drawn(self) -> bool:
        return self.record.outcome.winner is None

    @property
    def is_clean(self) -> bool:
        """Whether the student made no fault (a fault ends the game on the student's move)."""
        return self.record.outcome.forfeiter != self.side

    @property
    def student_fault(self) -> Optional[Reason]:
        """The reason the student forfeited, or None."""
        outcome = self.record.outcome
        return outcome.reason if outcome.forfeiter == self.side else None

    @property
    def failed_handshake(self) -> bool:
        """Whether the student forfeited before the game began (its greeting), which a
        program does the same way in every game."""
        return (self.student_fault is not None
                and self.record.outcome.detail.startswith(HANDSHAKE))

    @property
    def clock_left(self) -> float:
        return dict(self.record.clocks)[self.side]


@dataclass(frozen=True)
class Played:
    """The games of one case, why the rest were not played ("" when all were), and the replay
    pages kept (none unless ``gamegrader grade --games DIR``)."""

    games: tuple[HouseGame, ...]
    skipped: str = ""
    pages: tuple[Path, ...] = ()
    rest_lost: bool = False
    """Whether the games not played are lost all the same: the program failed its greeting,
    which it does the same way in every game."""


def no_greeting(where: str) -> str:
    """Why games after a failed greeting are not played (``where``: "in game 1")."""
    return (f"your program did not say its name {where}, and it starts the same way in every "
            "game")


def play_one(kit: GameKit, sandbox: SandboxLike, bot: str, side: Hashable, seed: int
             ) -> GameRecord[Any]:
    """One game between the submission in ``sandbox`` (on ``side``) and house bot ``bot``,
    the submission in a fresh process."""
    house = house_seat(kit, bot, seed)
    with ExitStack() as stack:
        student = kit.student_seat(sandbox, stack)
        seats = (student, house) if side == kit.sides[0] else (house, student)
        return play(kit, *seats)


def play_versus_house(kit: GameKit, sandbox: SandboxLike, bot: str,
                      schedule: Sequence[tuple[Hashable, int]], seconds: float, name: str, *,
                      stop_after_timeout: bool = False, stop_after_handshake: bool = False,
                      timer: Callable[[], float] = time.monotonic,
                      on_game: Optional[Callable[[str, HouseGame], None]] = None) -> Played:
    """The games of ``schedule`` (the student's side and the game's seed, in order).

    Args:
        seconds: no game starts after this many seconds have passed.
        name: kept games are named ``NAME-gameN`` (N from 1).
        stop_after_timeout: play no more games after the student lost one on time (saves the
            grading time a hanging submission would spend on every game), nor after one lost
            in the handshake (a program greets the same way in every game, before it learns
            anything of the game).
        stop_after_handshake: only the latter (the staff ladder, whose rating counts the
            games not played as lost, which they would be: ``Played.rest_lost``).
        on_game: told ``bot`` and each game as it finishes (``play``'s progress).
    """
    deadline = timer() + seconds
    played: list[HouseGame] = []
    pages: list[Path] = []
    skipped = ""
    for number, (side, seed) in enumerate(schedule):
        if timer() >= deadline:
            skipped = f"the case's {seconds:g} s ran out"
            break
        record = play_one(kit, sandbox, bot, side, seed)
        game = HouseGame(number, side, seed, record)
        page = keep_house_game(kit, game, bot, f"{name}-game{number + 1}",
                               getattr(sandbox, "games", None))
        game = replace(game, replay=page)
        played.append(game)
        pages.extend([page] if page is not None else [])
        if on_game is not None:
            on_game(bot, game)
        if number + 1 < len(schedule):
            if stop_after_timeout and game.student_fault is Reason.TIMEOUT:
                skipped = "skipped after a timeout, to save grading time"
                break
            if (stop_after_timeout or stop_after_handshake) and game.failed_handshake:
                skipped = f"skipped: {no_greeting(f'in game {number + 1}')}"
                return Played(tuple(played), skipped, tuple(pages), rest_lost=True)
    return Played(tuple(played), skipped, tuple(pages))


def keep_house_game(kit: GameKit, game: HouseGame, bot: str, name: str,
                    folder: Optional[Path]) -> Optional[Path]:
    """Keep a graded game in ``folder`` as a record and replay page, "you" on the student's side
    (its forfeit's detail followed by the end of its stderr); the page's path, or None when
    games are not kept (``folder`` is None)."""
    from harness.games.kit import result_of
    from harness.games.replays import keep_graded_game
    from harness.records.games import Entrant, GameTask

    you, house = Entrant("you", "submission"), Entrant(bot, f"{HOUSE_PREFIX}{bot}")
    first, second = (you, house) if game.side == kit.sides[0] else (house, you)
    result = result_of(game.record, GameTask(0, 1, first, second, game.seed), kit.sides,
                       dict(kit.settings()))
    tail = game.record.stderr_lines() if game.student_fault is not None else []
    if tail:  # the page shows the outcome's detail: a crash's traceback belongs with it
        result = replace(result, detail=f"{result.detail}; your stderr ended with: "
                                        + " | ".join(line.strip() for line in tail))
    return keep_graded_game(kit, result, name, folder)


def alternating(kit: GameKit, games: int, seed: int) -> list[tuple[Hashable, int]]:
    """``games`` games, the student on the first side in even-numbered ones, seeds derived from
    ``seed``."""
    from harness.games.seeds import derive_seed

    return [(kit.sides[number % 2], derive_seed(seed, number)) for number in range(games)]


def host_factor() -> float:
    """The grading host's speed factor (``harness.timing.calibration``): clocks are divided by
    it, so a slow host gives every player the time the nominal machine would."""
    from harness.timing.calibration import host_speed

    return host_speed().factor


def case_clock(options: Mapping[str, Any],
               factor: Optional[Callable[[], float]] = None) -> Optional[float]:
    """The case's ``clock``, divided by the host's speed ``factor`` (default the calibrated
    one) when ``host_scaled`` is set; None when the case names no clock."""
    clock = options.get("clock")
    if clock is None or not options.get("host_scaled"):
        return None if clock is None else float(clock)
    return round(float(clock) / (factor or host_factor)(), 3)


def load_kit(options: Mapping[str, Any],
             factor: Optional[Callable[[], float]] = None) -> GameKit:
    """The kit a case's options name (``kit``, called with ``clock`` and the ``settings``; the
    clock divided by the host's speed ``factor`` with ``host_scaled``).

    Raises:
        ValueError: when the kit cannot be found or refuses the settings.
    """
    from harness.dotted import resolve_callable

    try:
        factory = resolve_callable(str(options["kit"]))
        return factory(clock=case_clock(options, factor),  # type: ignore[no-any-return]
                       **dict(options.get("settings") or {}))
    except (KeyError, LookupError, TypeError) as error:
        raise ValueError(f"the game kit (assignment.yaml's kit): {error}") from error


Picture = Callable[[HouseGame], str]
"""Draws one lost game for the feedback (a game's ``pictures.game_picture`` on its record)."""

HOUSE_GAME_OPTIONS: dict[str, Option] = dict(
    opponent=Option(TEXT, required=True), games=Option(INTEGER, required=True),
    seed=Option(INTEGER),
    score=Option(TEXT, choices=("wins", "clean")),
    min_wins=Option(INTEGER, required=True, unless=("score", "clean")),
    even=Option(INTEGER), even_means=Option(TEXT), host_scaled=Option((bool,)))
"""The options of games against a house bot (the module docstring says what each means)."""


@declare_options(kit=Option(TEXT, required=True), clock=Option(NUMBER),
                 settings=Option((dict,)), **HOUSE_GAME_OPTIONS)
def versus_house(case: Any, sandbox: SandboxLike, kit: Optional[GameKit] = None,
                 picture: Optional[Picture] = None) -> Any:
    """The runner specs name; see the module docstring for the options. A game's own runner
    passes its ``kit`` (so that the student package holds the kit's code) instead of naming
    it in the options, and may pass its ``picture`` of a lost game."""
    options = case.options
    kit = kit if kit is not None else load_kit(options)
    opponent, games = str(options["opponent"]), int(options["games"])
    schedule = alternating(kit, games, int(options.get("seed", 0)))
    played = play_versus_house(kit, sandbox, opponent, schedule, case.timeout, case.id)
    return judge(case, kit, opponent, games, played, picture)


def loss_reason(game: HouseGame) -> str:
    """How the student lost ``game``: no legal move left, or its forfeit and the bad move."""
    outcome, record = game.record.outcome, game.record
    ply = len(record.plies) + 1
    if outcome.reason is Reason.NO_MOVES:
        return f"no legal move left at ply {ply}"
    reason = f"forfeit ({outcome.reason.value}) at ply {ply}: {outcome.detail}"
    if record.bad_move is not None:
        reason += f"; your move: {record.bad_move}"
    return reason


def _describe_loss(kit: GameKit, game: HouseGame) -> str:
    return (f"game {game.number + 1}, you played {game.side} (seed {game.seed}): "
            f"{loss_reason(game)}")


def counted_time(games: Sequence[HouseGame]) -> str:
    """What the student's clock counted in ``games``: CPU time, unless its CPU time could not
    be read on this machine (no ``/proc``), which the words then say."""
    if any(game.side in game.record.wall_clocked for game in games):
        return "wall time (this machine cannot read your processes' CPU time)"
    return "CPU time"


def setup_line(games: Sequence[HouseGame], kit: GameKit) -> str:
    """Words on the most CPU time the student used before its first move in one game
    (starting, importing), when it was more than the clock leaves free; else ""."""
    clock = kit.clock
    most = max((game.record.waiting_of(game.side).setup for game in games), default=0.0)
    if most <= clock.setup_seconds:
        return ""
    charged = ("charged to your clock" if clock.game_seconds is not None else
               f"not charged, up to {clock.handshake_seconds:g} s")
    return (f"Most CPU time used before the first move in one game (starting, importing): "
            f"{most:.2f} s ({clock.setup_seconds:g} s free, the rest {charged}).")


def judge(case: Any, kit: GameKit, opponent: str, games: int, played: Played,
          picture: Optional[Picture] = None) -> Any:
    """The case's judgement from its games (the module docstring says how it scores)."""
    from harness.records.verdicts import Judgement

    options, done = case.options, played.games
    wins = sum(game.won for game in done)
    first, second = kit.sides
    by_side = {side: [game for game in done if game.side == side] for side in kit.sides}
    clock = kit.clock
    lines = [f"Won {wins} of {games} games against the {opponent} player "
             f"(as {first}: {sum(g.won for g in by_side[first])} of {len(by_side[first])}, "
             f"as {second}: {sum(g.won for g in by_side[second])} of {len(by_side[second])}); "
             f"clock {clock.describe().replace(' per player', '')}, counted in "
             f"{counted_time(done)}."]
    if options.get("host_scaled"):
        lines.append(f"The case's clock is {float(options['clock']):g} s, divided by this "
                     "grader's speed factor: a player searches as deep here as on the nominal "
                     "machine.")
    if options.get("score", "wins") == "clean":
        clean = sum(game.is_clean for game in done)
        fraction = clean / games
        lines.append(f"Games without a timeout, crash or illegal answer: {clean} of {games}.")
    else:
        required, even = int(options["min_wins"]), int(options.get("even", 0))
        if not 0 <= even < required:
            raise ValueError(f"options.even must be from 0 to min_wins - 1, got {even}")
        fraction = min(1.0, max(0, wins - even) / (required - even))
        means = (options.get("even_means")
                 or f"what a player as strong as the {opponent} player wins")
        lines.append(f"Needed {required} wins" + (
            f"; the first {even} ({means}) earn nothing, each one beyond them a share of the "
            "points." if even else "."))
    if done and clock.game_seconds is not None:
        most = max(clock.game_seconds - game.clock_left for game in done)
        lines.append(f"Most clock used in one game: {most:.2f} s of {clock.game_seconds:g} s.")
    lines += [line for line in [setup_line(done, kit)] if line]
    if len(done) < games:
        lines.append(f"{games - len(done)} games were not played: {played.skipped}.")
    lost = [game for game in done if not game.won]
    lines.extend(f"Lost {_describe_loss(kit, game)}" for game in lost)
    faults = [game.student_fault for game in lost if game.student_fault is not None]
    pictures = ([picture(game) for game in lost[:PICTURED_LOSSES]]
                if picture is not None and case.visibility.reveals_expected else [])
    if lost and lost[0].record.plies and case.visibility.reveals_expected and not pictures:
        # a drawn game lists its own moves: said once, and not at all when none was played
        moves = " ".join("(" + ",".join(str(v) for v in ply.move) + ")"
                         for ply in lost[0].record.plies)
        lines.append(f"Moves of game {lost[0].number + 1}, {first} first: {moves}")
    return Judgement(fraction, "\n".join(lines), failure=faults[0].verdict if faults else None,
                     picture="\n\n".join(pictures))


__all__ = ["HOUSE_GAME_OPTIONS", "PICTURED_LOSSES", "HouseGame", "Picture", "Played",
           "alternating", "case_clock", "counted_time", "host_factor", "judge", "keep_house_game",
           "load_kit",
           "loss_reason", "no_greeting", "play_one", "play_versus_house", "setup_line",
           "versus_house"]
