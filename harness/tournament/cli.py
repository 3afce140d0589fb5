"""``gamegrader tournament``: run a round robin or an elimination bracket from the command line.

``add_arguments`` defines the options on the ``tournament`` subcommand of ``harness.cli.main`` (one
parser, so ``gamegrader tournament --help`` shows them) and ``run`` executes it; ``main(argv)``
parses on its own for tests. The game is named like an assignment; its arena factory is the
``arena`` key of that assignment's ``assignment.yaml`` (registration by data: this module names
no game). Output: ``results.json`` (every game, standings), ``standings.csv`` in the ``--out``
folder, one progress line per game on stderr.
"""
from __future__ import annotations

import argparse
import ast
import atexit
import functools
import json
import shutil
import sys
import tempfile
from pathlib import Path, PurePosixPath
from typing import Any, Optional, Sequence

from harness.games.kit import HOUSE_PREFIX
from harness.intake.reading import take
from harness.tournament.arenas import load_arena, registered_arena
from harness.tournament.engine import Format, TournamentResult, run_elimination, run_round_robin
from harness.tournament.executors import make_executor
from harness.tournament.progress import Progress
from harness.tournament.records import Arena, Entrant
from harness.tournament.standings import format_csv
from harness.wire.safe_text import from_spreadsheet_cell


def parse_entrant(text: str, staging: Optional[Path] = None) -> list[Entrant]:
    """Entrants from one command-line word.

    ``NAME=SOURCE`` names a source; ``house:BOT`` is a house bot named BOT; a file is named by
    its stem; a folder stands for every ``*.py`` file directly inside it, sorted by name.
    Students' files are read once, bounded and without following links, through the same intake
    as a grading (``harness.intake.reading``): links, fifos and devices in a folder are passed over, and
    each entrant's source is a copy written to ``staging`` (a private folder; a temporary one,
    removed at exit, when None), so no game opens a path a student controls.

    Raises:
        ValueError: for a path that does not exist, holds no Python file that can be read, or
            an empty name.
    """
    name, sep, source = text.partition("=")
    if not sep:
        name, source = "", text
    if source.startswith(HOUSE_PREFIX):
        return [Entrant(name or source[len(HOUSE_PREFIX):], source)]
    path = Path(source)
    if not path.exists():
        raise ValueError(f"entrant {text!r}: no such file or folder")
    snapshot = take(path)
    if snapshot.refused:
        raise ValueError(f"entrant {text!r}: not read: {snapshot.refused}")
    files = sorted((f for f in snapshot.files if len(f.path.parts) == 1), key=lambda f: f.name)
    if path.is_dir() and not name:
        return [Entrant(PurePosixPath(f.name).stem, _staged(f.data, f.name, staging))
                for f in files]
    if not snapshot.is_file or not files:
        why = "; ".join(snapshot.ignored) or "not a Python file"
        raise ValueError(f"entrant {text!r}: nothing to play ({why})")
    return [Entrant(name or path.stem, _staged(files[0].data, files[0].name, staging))]


def _staged(data: bytes, file_name: str, staging: Optional[Path]) -> str:
    """Write an entrant's bytes to a fresh private folder under ``staging``; the copy's path."""
    folder = Path(tempfile.mkdtemp(prefix="entrant-", dir=staging or _staging_root()))
    target = folder / file_name
    target.write_bytes(data)
    return str(target)


@functools.lru_cache(maxsize=None)
def _staging_root() -> str:
    root = tempfile.mkdtemp(prefix="gamegrader-entrants-")
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    return root


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
               "folders of them, and house bots. Every game is refereed by the match loop with fair clocks; the settings "
               "are printed first, the standings last.")


def add_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Define the tournament's options on ``parser`` (the ``tournament`` subcommand's)."""
    parser.add_argument("game", help="assignment name of a game (see 'gamegrader list')")
    parser.add_argument("entrants", nargs="+",
                        help="player files, folders of player files, house:BOT or NAME=SOURCE")
    parser.add_argument("--format", choices=[f.value for f in Format],
                        default=Format.ROUND_ROBIN.value)
    parser.add_argument("--seed", type=int, default=0, help="tournament seed (default 0)")
    parser.add_argument("--workers", type=int, default=2, help="parallel local games")
    parser.add_argument("--scheduler", help="dask.distributed scheduler address")
    parser.add_argument("--clock", type=float, help="the game's clock in seconds: per player "
                        "per game for a chess clock, per move for a game with a move limit "
                        "(the game's docs give the default; the settings line shows it)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="an arena setting, e.g. size=6 or limit=4 (repeatable)")
    parser.add_argument("--arena", help="arena factory package.module:function, instead of "
                        "the 'arena' of the game's assignment.yaml")
    parser.add_argument("--seeding", type=Path,
                        help="elimination: a standings.csv whose rank order seeds the bracket")
    parser.add_argument("--out", type=Path, default=Path("tournament-out"))
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


def write_outputs(result: TournamentResult, out: Path, arena: Optional[Arena] = None,
                  title: str = "Tournament", settings: str = "") -> None:
    """``results.json``, ``standings.csv``, every game's record and replay page under
    ``games/``, and ``report.html`` linking them, in ``out`` (created if needed)."""
    from harness.tournament.replays import report_page, write_games

    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps(result.to_dict(), indent=1) + "\n")
    table = format_csv(result.standings)
    (out / "standings.csv").write_text(table)
    pages = write_games(arena, result.results, out)
    (out / "report.html").write_text(report_page(title, settings, table, result.results,
                                                 pages, out), encoding="utf-8")


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the tournament described by ``argv``; return the exit status.

    Args:
        argv: arguments after ``tournament``; default ``sys.argv[1:]``.

    Returns:
        0 on success, 2 for a usage error (printed on stderr).
    """
    return run(_parser().parse_args(argv))


def run(args: argparse.Namespace) -> int:
    """Run the tournament the parsed ``args`` describe; 0 on success, 2 for a usage error."""
    try:
        entrants = [e for word in args.entrants for e in parse_entrant(word)]
        arena = load_arena(args.game, args.clock, args.arena,
                           dict(parse_option(o) for o in args.set))
        check = getattr(arena, "check", None)
        for entrant in entrants:
            if check is not None:
                check(entrant)
        seeding = _seeding(args.seeding, entrants) if args.seeding else None
    except (ValueError, OSError, KeyError) as error:
        print(f"gamegrader tournament: {error}", file=sys.stderr)
        return 2
    describe = getattr(arena, "describe", None)
    settings = describe() if describe is not None else ""
    if settings:
        print(f"settings: {settings}", file=sys.stderr)
    progress = None if args.quiet else Progress()
    executor = make_executor(args.workers, args.scheduler)
    try:
        if args.format == Format.ELIMINATION.value:
            result = run_elimination(arena, entrants, args.seed, executor, seeding, progress)
        else:
            result = run_round_robin(arena, entrants, args.seed, executor, progress)
    except ValueError as error:
        print(f"gamegrader tournament: {error}", file=sys.stderr)
        return 2
    finally:
        executor.close()
    write_outputs(result, args.out, arena, f"{args.game} {args.format} (seed {args.seed})",
                  settings)
    print(format_csv(result.standings), end="")
    return 0


__all__ = ["DESCRIPTION", "add_arguments", "load_arena", "main", "parse_entrant",
           "parse_option", "registered_arena", "run", "write_outputs"]


if __name__ == "__main__":
    sys.exit(main())
