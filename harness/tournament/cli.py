"""``gamegrader tournament``: run a round robin or an elimination bracket from the command line.

``add_arguments`` defines the options on the ``tournament`` subcommand of ``harness.cli.main`` (one
parser, so ``gamegrader tournament --help`` shows them) and ``run`` executes it; ``main(argv)``
parses on its own for tests. The game is named like an assignment; its kit factory is the
``kit`` key of that assignment's ``assignment.yaml`` (registration by data: this module names
no game). Entrants are read by ``entrants`` (a Gradescope export folder included: a class
tournament in one command). Output: ``results.json`` (every game, standings), ``standings.csv``
and ``records/`` (every game, so a re-run on the same ``--out`` plays only what changed:
``store``) in the ``--out`` folder, each file written only when it changed (``outputs``), one
progress line per game on stderr.
"""
from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Sequence

from harness.games.arenas import load_arena, registered_arena
from harness.interrupts import exit_status
from harness.records.games import Entrant
from harness.tournament.engine import Format, run_elimination, run_round_robin
from harness.tournament.entrants import is_export, parse_entrant, parse_entrants
from harness.tournament.executors import make_executor
from harness.tournament.fingerprints import fingerprinted
from harness.tournament.outputs import write_outputs
from harness.tournament.progress import Progress
from harness.tournament.standings import format_csv
from harness.tournament.store import RECORDS_DIR, GameStore
from harness.wire.safe_text import from_spreadsheet_cell

if TYPE_CHECKING:
    from harness.spec.run import RunContext


def parse_option(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` with VALUE read as a Python literal (a bare word stays a string).

    Raises:
        ValueError: without ``=`` or with an empty key.
    """
    key, sep, value = text.partition("=")
    if not sep or not key.isidentifier():
        raise ValueError(f"--set expects KEY=VALUE, got {text!r}")
    try:
        return key, ast.literal_eval(value)
    except (ValueError, SyntaxError):
        return key, value


DESCRIPTION = ("Run a round robin or an elimination tournament between players of a game "
               "assignment (one whose assignment.yaml names an arena): submission files, "
               "folders of them, and house bots. Every game is refereed by the match loop with "
               "fair clocks; the settings "
               "are printed first, the standings last.")


def add_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Define the tournament's options on ``parser`` (the ``tournament`` subcommand's)."""
    parser.add_argument("game", help="assignment name of a game (see 'gamegrader list')")
    parser.add_argument("entrants", nargs="+",
                        help="player files, folders of player files, Gradescope export folders "
                        "(one entrant per submission, named as the export names its "
                        "submitters), house:BOT or NAME=SOURCE")
    parser.add_argument("--format", choices=[f.value for f in Format],
                        default=Format.ROUND_ROBIN.value,
                        help=f"default: {Format.ROUND_ROBIN.value}")
    parser.add_argument("--seed", type=int, default=0, help="tournament seed (default 0)")
    parser.add_argument("--workers", type=int, default=2,
                        help="games played at once in local processes (default 2)")
    parser.add_argument("--scheduler", metavar="ADDRESS", help="play the games on this "
                        "dask.distributed scheduler, e.g. tcp://10.0.0.5:8786 (default: local "
                        "processes)")
    parser.add_argument("--clock", type=float, help="the game's clock in seconds: per player "
                        "per game for a chess clock, per move for a game with a move limit "
                        "(the game's docs give the default; the settings line shows it)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="an arena setting, e.g. size=6 or limit=4 (repeatable)")
    parser.add_argument("--arena", help="arena factory package.module:function, instead of "
                        "the 'kit' of the game's assignment.yaml")
    parser.add_argument("--seeding", type=Path,
                        help="elimination: a standings.csv whose rank order seeds the bracket")
    parser.add_argument("--precision", type=float, metavar="WIDTH",
                        help="round robin: after it, play more games between neighbouring "
                        "ranks that are not separated until the 95%% interval of the chance "
                        "that one beats the other is at most WIDTH wide (e.g. 0.3; "
                        "docs/games.md gives the games this takes; default: the round robin alone)")
    parser.add_argument("--game-budget", type=int, metavar="GAMES",
                        help="with --precision: at most this many games in all, round robin "
                        "included (default three round robins)")
    parser.add_argument("--out", type=Path, default=Path("tournament-out"),
                        help="output folder: report.html, standings.csv, results.json, games/ "
                        "and records/, which keep every game, so a run on the same folder "
                        "plays only games it has no record of and rewrites only the files and "
                        "replay pages that changed (default: tournament-out)")
    parser.add_argument("--fresh", action="store_true",
                        help="play every game again, ignoring the records in --out")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    return parser


def _parser() -> argparse.ArgumentParser:
    return add_arguments(argparse.ArgumentParser(prog="gamegrader tournament",
                                                 description=DESCRIPTION))


def _seeding(path: Path, entrants: Sequence[Entrant]) -> list[Entrant]:
    """Entrants ordered by the ``name`` column of a standings CSV; unlisted ones go last."""
    import csv

    with path.open(newline="") as handle:
        ranked = [from_spreadsheet_cell(row["name"]) for row in csv.DictReader(handle)]
    position = {name: i for i, name in enumerate(ranked)}
    return sorted(entrants, key=lambda e: (position.get(e.name, len(ranked)), e.name))


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the tournament described by ``argv``; return the exit status.

    Args:
        argv: arguments after ``tournament``; default ``sys.argv[1:]``.

    Returns:
        0 on success, 2 for a usage error (printed on stderr).
    """
    return run(_parser().parse_args(argv))


def _submission_files(game: RunContext) -> tuple[str, ...]:
    """The file names a grading of ``game`` takes from a submission, the main one first.

    Raises:
        ValueError: for a name that is no assignment.
    """
    from harness.spec import SpecError

    registered_arena(game)  # the clear error for an unknown name or a game with no arena
    try:
        return game.assignment.submission_files
    except SpecError as error:
        raise ValueError(str(error)) from error


def _check_spec(game: RunContext) -> None:
    """Refuse a game whose assignment spec is broken, as every command does (its house bots,
    clocks and ladder come from it).

    Raises:
        ValueError: naming the file, line and field (or the unknown game).
    """
    from harness.spec import SpecError
    from harness.spec.loader import load_checked_cases

    registered_arena(game)  # the clear error for an unknown name or a game with no arena
    try:
        load_checked_cases(game.assignment)
    except SpecError as error:
        raise ValueError(str(error)) from error


def run(args: argparse.Namespace) -> int:
    """Run the tournament the parsed ``args`` describe; 0 on success, 2 for a usage error."""
    from harness.spec.run import RunContext
    game = RunContext(args.game)  # the one context of the run: its spec is read once
    try:
        if args.arena is None:  # a factory of its own names no assignment
            _check_spec(game)
        exports = any(is_export(Path(word)) for word in args.entrants)
        entrants = parse_entrants(args.entrants, _submission_files(game) if exports else ())
        arena = load_arena(args.game, args.clock, args.arena or registered_arena(game),
                           dict(parse_option(o) for o in args.set))
        check = getattr(arena, "check", None)
        for entrant in entrants:
            if check is not None:
                check(entrant)
        entrants = fingerprinted(entrants, arena)
        seeding = _seeding(args.seeding, entrants) if args.seeding else None
        if args.precision is not None and args.format != Format.ROUND_ROBIN.value:
            raise ValueError("--precision schedules games of a round robin, not of an "
                             f"{args.format}")
    except (ValueError, OSError, KeyError) as error:
        print(f"gamegrader tournament: {error}", file=sys.stderr)
        return 2
    describe = getattr(arena, "describe", None)
    settings = describe() if describe is not None else ""
    if settings:
        print(f"settings: {settings}", file=sys.stderr)
    progress = None if args.quiet else Progress()
    executor = make_executor(args.workers, args.scheduler)
    store = GameStore(args.out, arena, reuse=not args.fresh)
    try:
        if args.format == Format.ELIMINATION.value:
            result = run_elimination(arena, entrants, args.seed, executor, seeding, progress,
                                     store)
        else:
            result = run_round_robin(arena, entrants, args.seed, executor, progress, store,
                                     args.precision, args.game_budget)
    except ValueError as error:
        print(f"gamegrader tournament: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as interrupt:  # Ctrl-C or SIGTERM (harness.interrupts)
        print(f"\ngamegrader tournament: interrupted; every game that finished is kept in "
              f"{args.out / RECORDS_DIR} (the games cut short are not): run the same command "
              "to play the rest", file=sys.stderr)
        return exit_status(interrupt)
    finally:
        executor.close()
    written = write_outputs(result, args.out, arena,
                            f"{args.game} {args.format} (seed {args.seed})", settings)
    print(f"{result.played} games played, {result.reused} taken from the records in "
          f"{args.out}; {written.summary()}", file=sys.stderr)
    print(format_csv(result.standings), end="")
    return 0


__all__ = ["DESCRIPTION", "add_arguments", "load_arena", "main", "parse_entrant",
           "parse_option", "registered_arena", "run", "write_outputs"]


if __name__ == "__main__":
    sys.exit(main())
