"""``gamegrader play``: a student's file against the staff ladder's house bots students may
play (``harness.games.practice``), before submitting.

The file is taken in as ``check`` takes it (the other Python files of its folder come along)
and run by the grader's own sandbox, so a host without the Linux sandbox (Windows) gets the
same plain child processes ``check`` uses there; a file that cannot be imported is said once,
as ``check`` says it, and nothing is played.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Optional

from harness.cli.common import (
    UsageProblem,
    at_least_one,
    existing_path,
    infer_assignment,
    install_missing_packages,
    known_assignment,
)
from harness.spec.loader import load_checked_cases
from harness.spec.run import RunContext

if TYPE_CHECKING:
    from harness.games.versus import HouseGame

DEFAULT_OUT = Path("games")


def _check_out(out: Path) -> None:
    """Refuse an ``--out`` folder holding Python files: once marked as a games folder, its code
    would be left out of every later intake."""
    if out.is_dir() and any(out.glob("*.py")):
        raise UsageProblem(f"{out} holds Python files: give --out a folder of its own for "
                           "the games")


def _games_folder(out: Path) -> None:
    """Make ``out`` with the marker that keeps its games out of any later intake (``check`` or
    ``play`` of a file in the folder above takes no game record for the student's data), and
    have the games kept there (the run context's games folder)."""
    from harness.intake.reading import GAMES_MARKER

    try:
        out.mkdir(parents=True, exist_ok=True)
        (out / GAMES_MARKER).write_text("Games written by 'gamegrader play': never graded.\n",
                                        encoding="utf-8")
    except OSError as exc:
        raise UsageProblem(f"cannot write the games to {out}: {exc}") from exc


def _cmd_play(args: argparse.Namespace) -> int:
    from harness.games.practice import (
        choose_rungs,
        games_per_rung,
        play_practice,
        practice_ladder,
        report,
    )
    from harness.grading.api import GradingOptions, GradingSession, weaker_isolation_line
    from harness.timing.calibration import host_speed

    existing_path(args.path)
    name = known_assignment(args.assignment) if args.assignment else infer_assignment(args.path)
    run = RunContext(name, games=args.out.resolve())
    assignment = run.assignment
    load_checked_cases(assignment)  # a broken spec is refused, as by every command
    ladder = practice_ladder(assignment)
    if ladder is None:
        raise UsageProblem(f"{name} has no house bots to play: its games (if any) are checked "
                           "by 'gamegrader check'")
    try:
        rungs = choose_rungs(ladder, args.bot)
    except ValueError as exc:
        raise UsageProblem(str(exc)) from exc
    _check_out(args.out)
    install_missing_packages(run)
    session = GradingSession(args.path, GradingOptions(visible_only=True, siblings=True),
                             games=run.games)
    grader = session.grader(assignment)
    try:
        grader.host = host_speed()  # the ladder's clock is divided by it
        problem = grader.preflight().import_problem
        print("\n".join(line for line in (session.summary(),
                                            weaker_isolation_line(grader.isolation_level))
                        if line))
        if problem:
            print("gamegrader play: nothing played (see above)", file=sys.stderr)
            return 1
        _games_folder(args.out)
        on_game = _progress(len(rungs) * games_per_rung(ladder, args.games))
        try:
            practice = play_practice(ladder, grader.sandbox, grader.host.factor, rungs=rungs,
                                     games=args.games, seed=args.seed, on_game=on_game)
        finally:
            if on_game is not None:  # the bar's line ends
                print(file=sys.stderr)
    finally:
        grader.close()
    print()
    print(report(practice))
    return 0


def _progress(total: int) -> Optional[Callable[[str, HouseGame], None]]:
    """On a terminal, each game as it finishes on a bar redrawn in place (``playing [##..]
    3/8  0:12 elapsed, ETA 0:20  greedy game 1: lost (crash)``); None when stderr is no
    terminal, so logs and pipes get the report only."""
    if not sys.stderr.isatty():
        return None
    from harness.batch.progress import Progress
    from harness.games.versus import loss_reason

    bar = Progress(total, label="playing")
    bar.start()

    def show(bot: str, game: HouseGame) -> None:
        result = "won" if game.won else "drew" if game.drawn else f"lost: {loss_reason(game)}"
        bar.advance(f"{bot} game {game.number + 1}: {result}"[:120])
    return show


def add_play_command(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """The ``play`` command, for students and instructors alike."""
    play = commands.add_parser(
        "play", help="students: play your file against the house bots you may play",
        description="Play your file against the staff ladder's house bots whose code is in "
        "this package, with the grader's referee, clocks (scaled to this computer's speed), "
        "seeds and sides, and write each game's replay page. The assignment is inferred from "
        "the file name.")
    play.add_argument("path", type=Path, help="your file (named as the handout says) or folder")
    play.add_argument("--assignment", help="the assignment, if the file name does not say")
    play.add_argument("--bot", metavar="NAME", help="play this house bot only (default: each)")
    play.add_argument("--games", type=at_least_one, metavar="N",
                      help="games per bot (default: as many as the grading ladder plays)")
    play.add_argument("--seed", type=int, help="another seed for the games (default: the "
                      "grading ladder's)")
    play.add_argument("--out", type=Path, default=DEFAULT_OUT, metavar="DIR",
                      help=f"folder for the replay pages (default: ./{DEFAULT_OUT}; pages of "
                      "the same name are replaced)")
    play.set_defaults(run=_cmd_play)


__all__ = ["DEFAULT_OUT", "add_play_command"]
