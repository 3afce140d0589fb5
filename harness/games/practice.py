"""Practice games: the staff ladder's rungs students may play, before they submit.

``gamegrader play`` (``harness.cli.play``) plays a student's file against the house bots of
the staff ladder (``harness.games.ladder``) whose code students may have: the bots a kit gives
as functions (``harness.games.kit.student_bots``), never those named by dotted path, which stay
with the staff. Each rung keeps its place on the ladder, so its games have the grading ladder's
seeds, sides and clock (the ladder's, divided by the host's speed); ``--games`` plays the first
N of the same schedule, ``--seed`` another one.

In the repository the practice ladder is narrowed from ``ladder:`` in assignment.yaml; the
student package, whose assignment.yaml has no ladder (it is a case of the whole assignment),
holds it as :data:`PRACTICE_FILE`, written by the build from the same function.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

from harness.games.kit import GameKit, bot_names, student_bots
from harness.games.ladder import Rung, ladder_kit, play_rungs, rungs_of, score
from harness.games.versus import HouseGame, Played, counted_time, load_kit, loss_reason
from harness.records.spec import Assignment

PRACTICE_FILE = "practice_ladder.yaml"
"""The practice ladder in a student package's ``assignments/NAME/`` (see the module docstring)."""
_KEYS = ("kit", "clock", "settings", "games", "seed")


def narrowed_ladder(assignment: Assignment) -> Optional[dict[str, Any]]:
    """The assignment's ladder with only the rungs students may play, every rung's place,
    rating and wins written out; None when it has no ladder or no such rung."""
    if not assignment.ladder:
        return None
    ladder = {key: value for key, value in assignment.ladder.items() if key in _KEYS}
    ladder["rungs"] = assignment.ladder["rungs"]
    ladder["kit"] = assignment.kit
    kit = load_kit(ladder)
    allowed = set(student_bots(kit))
    rungs = [rung.as_options() for rung in rungs_of(ladder) if rung.bot in allowed]
    return {**ladder, "rungs": rungs} if rungs else None


def practice_ladder(assignment: Assignment) -> Optional[dict[str, Any]]:
    """The practice ladder: the student package's :data:`PRACTICE_FILE`, else the repository's
    ladder narrowed (:func:`narrowed_ladder`)."""
    from harness.spec.yaml_files import read_yaml

    path = assignment.folder / PRACTICE_FILE
    return dict(read_yaml(path)) if path.is_file() else narrowed_ladder(assignment)


def practice_files(assignment: Assignment) -> tuple[dict[str, bytes], tuple[str, ...]]:
    """The student package's :data:`PRACTICE_FILE` (archive name -> bytes; {} when there is
    nothing to practise) and the bots it holds, for ``gamegrader build --student``."""
    import yaml

    from harness.paths import project_root

    ladder = narrowed_ladder(assignment)
    if ladder is None:
        return {}, ()
    name = (assignment.folder / PRACTICE_FILE).relative_to(project_root()).as_posix()
    text = ("# The staff ladder's rungs students may play with 'gamegrader play' (written by "
            "'gamegrader build --student').\n" + yaml.safe_dump(ladder, sort_keys=False))
    return {name: text.encode()}, tuple(str(rung["bot"]) for rung in ladder["rungs"])


README_SECTION = """

Before you submit, play your file against the grading ladder's house bots that ship here
({bots}), with the grader's referee, its clocks (scaled to this computer's speed), its
seeds and sides:

    .venv/bin/gamegrader play path/to/{main}
    .venv/bin/gamegrader play path/to/{main} --bot {first} --games 10 --seed 1 --out games

On Windows, `.venv\\Scripts\\gamegrader play path\\to\\{main}` (the games then run in plain
child processes, as the check's cases do). It prints, for each bot, the games you won, drew
and lost, your win rate with its 95% interval, what the bot's rung is worth on the ladder,
and the path of each game's replay page (in `./games` unless `--out` says otherwise). The
staff's stronger bots are not in this package: Gradescope plays them."""


def readme_section(assignment: Assignment, bots: Sequence[str]) -> str:
    """The student package README's section on ``gamegrader play`` ("" without bots)."""
    if not bots:
        return ""
    return README_SECTION.format(bots=", ".join(bots), main=assignment.main_file, first=bots[0])


@dataclass(frozen=True)
class RungResult:
    """One rung's practice games and the student's chance of beating that bot (a draw half a
    win), with its 95 % interval, from the Bradley-Terry fit of the tournament's intervals."""

    rung: Rung
    played: Played
    chance: tuple[float, float, float]

    @property
    def wins(self) -> int:
        return sum(game.won for game in self.played.games)

    @property
    def draws(self) -> int:
        return sum(game.drawn for game in self.played.games)

    @property
    def losses(self) -> int:
        return len(self.played.games) - self.wins - self.draws


def chance_of_winning(kit: GameKit, bot: str, played: Played) -> tuple[float, float, float]:
    """P(the student beats ``bot``) and its 95 % interval: ``harness.games.intervals``'s
    fit of the games (with its weak prior, so a clean sweep is not a certainty)."""
    from harness.games.intervals import fit_strengths
    from harness.records.games import GameResult

    you = "you"
    results = []
    for game in played.games:
        first, second = (you, bot) if game.side == kit.sides[0] else (bot, you)
        winner = game.record.outcome.winner
        results.append(GameResult(first, second, game.seed, None if winner is None
                                  else kit.sides.index(winner), game.record.outcome.reason))
    return fit_strengths([you, bot], results).pair(you, bot)


@dataclass(frozen=True)
class Practice:
    """What ``gamegrader play`` played: the kit, the host's speed factor, games per rung (and
    the ladder's own number), the seed and each rung's result."""

    kit: GameKit
    speed: float
    games: int
    ladder_games: int
    seed: int
    rungs: tuple[RungResult, ...]


def choose_rungs(ladder: dict[str, Any], bot: Optional[str]) -> list[Rung]:
    """The practice ladder's rungs, or only ``bot``'s.

    Raises:
        ValueError: ``bot`` is no rung of it, naming the ones there are.
    """
    rungs = rungs_of(ladder)
    if bot is None:
        return rungs
    chosen = [rung for rung in rungs if rung.bot == bot]
    if not chosen:
        known = ", ".join(rung.bot for rung in rungs)
        staff = bot in bot_names(load_kit(ladder))
        what = (f"{bot!r} is one of the staff's bots, which students do not get" if staff
                else f"no house bot {bot!r}")
        raise ValueError(f"{what}; the bots you can play: {known}")
    return chosen


def games_per_rung(ladder: dict[str, Any], games: Optional[int]) -> int:
    """The games ``play`` plays against each bot: ``--games``, else the ladder's own number."""
    return int(ladder["games"]) if games is None else games


def play_practice(ladder: dict[str, Any], sandbox: Any, speed: float, *,
                  rungs: Sequence[Rung], games: Optional[int] = None,
                  seed: Optional[int] = None,
                  on_game: Optional[Callable[[str, HouseGame], None]] = None) -> Practice:
    """Play ``rungs`` of the practice ``ladder`` against the submission in ``sandbox`` (kept
    as replay pages in the sandbox's games folder, ``Sandbox.games``); ``on_game`` is told the
    bot and each game as it finishes."""
    kit = ladder_kit(ladder, speed)
    count = games_per_rung(ladder, games)
    base = int(ladder.get("seed", 0)) if seed is None else seed
    played = play_rungs(kit, sandbox, rungs, count, base, float("inf"), on_game=on_game)
    return Practice(kit, speed, count, int(ladder["games"]), base, tuple(
        RungResult(rung, games_, chance_of_winning(kit, rung.bot, games_))
        for rung, games_ in zip(rungs, played)))


def report(practice: Practice) -> str:
    """The practice games in words: per rung the games won, drawn and lost, the win rate
    against the bot with its interval, what the rung is worth on the ladder, and each game's
    replay page; a game you forfeited shows the end of your stderr (a crash's traceback)."""
    kit = practice.kit
    each = f"{practice.games} game{'s' * (practice.games != 1)} each"
    lines = [f"Practice against the staff ladder's house bots you may play: {each}, sides "
             f"alternating, seed {practice.seed}; {kit.describe()} (scaled "
             f"to this host: {practice.speed:.2f}x nominal speed), counted in "
             f"{counted_time([g for r in practice.rungs for g in r.played.games])}."]
    for result in practice.rungs:
        rung, (chance, low, high) = result.rung, result.chance
        lines.append("")
        played = len(result.played.games)
        rate = score(result.played) / played if played else 0.0
        lines.append(f"{rung.bot}: won {result.wins}, drew {result.draws}, lost {result.losses} "
                     f"of {played}; win rate {rate:.0%} (a draw half a win), 95% interval "
                     f"{low:.0%} to {high:.0%} (estimated {chance:.0%})")
        lines.append(f"  on the ladder: rung {rung.place + 1}, worth {rung.points:g} points "
                     f"for winning {rung.wins} of its {practice.ladder_games} games; rated "
                     f"{rung.rating:g}")
        for game in result.played.games:
            order = "first" if game.side == kit.sides[0] else "second"
            won = "won" if game.won else "drew" if game.drawn else f"lost: {loss_reason(game)}"
            line = f"  game {game.number + 1} (you moved {order}, seed {game.seed}): {won}"
            tail = game.record.stderr_lines() if game.student_fault is not None else []
            if tail:
                line += "\n    your stderr ended with:" + "".join(f"\n      {t}" for t in tail)
            if game.replay is not None:
                line += f"\n    replay: {game.replay}"
            lines.append(line)
    return "\n".join(lines)


__all__ = ["PRACTICE_FILE", "README_SECTION", "Practice", "RungResult", "chance_of_winning",
           "choose_rungs", "games_per_rung", "narrowed_ladder", "play_practice", "practice_files",
           "practice_ladder", "readme_section", "report"]
