"""Benchmark: games per minute of a 30-entrant class tournament from a Gradescope export, on 2
local cores and on a dask LocalCluster, and what a re-run costs.

Builds a Gradescope export (``submission_metadata.yml`` and one folder per submission, a few of
them group submissions) of ENTRANTS honest Isolation players in the student API: the kinds of
``bench_referee.py`` in turn (the reference solution, greedy, seeded random, first legal move),
every file made unique by a comment. Then runs the real command, ``gamegrader tournament
isolation EXPORT`` (``harness.tournament.cli.main``), round robin, ``--clock`` seconds per
player per game, each submission in the harness sandbox:

1. on this machine with ``--workers`` local processes;
2. again on the same ``--out`` with nothing changed (every game taken from the records);
3. again after one student resubmits (only that student's games are played);
4. on a dask ``LocalCluster`` with as many single-threaded worker processes (its start-up is
   not timed), into a fresh ``--out`` (last, being the longest on a loaded machine).

Prints wall time, games played and games per minute of each, the replay pages each re-run
wrote (told by the pages' inode and modification time) and whether it rewrote the report, and
the load average before and after: on a shared machine the numbers are loaded ones. Asserts
that no game was aborted, that both full runs played every game, the unchanged re-run none
and no page, and the resubmission's re-run exactly that entrant's games and no other page.

    .venv/bin/python bench/bench_class_tournament.py [--entrants 30] [--workers 2] [--clock 1]
        [--no-dask]
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_referee import PLAYERS  # noqa: E402

from harness.tournament.cli import main as tournament  # noqa: E402


def make_export(folder: Path, count: int) -> Path:
    """An export of ``count`` submissions; every fifth one is a pair's group submission."""
    kinds = sorted(PLAYERS)
    lines = []
    for index in range(count):
        submission = folder / f"submission_{1000 + index}"
        submission.mkdir(parents=True)
        kind = kinds[index % len(kinds)]
        (submission / "player.py").write_text(f"# submission {index}\n{PLAYERS[kind]}",
                                              encoding="utf-8")
        lines.append(f"submission_{1000 + index}:\n  :submitters:\n"
                     f"  - :name: Student {index:02d} ({kind})\n")
        if index % 5 == 4:
            lines.append(f"  - :name: Partner {index:02d}\n")
    (folder / "submission_metadata.yml").write_text("".join(lines), encoding="utf-8")
    return folder


def timed_run(export: Path, out: Path, clock: float, *options: str) -> tuple[float, dict]:
    """One ``gamegrader tournament`` run: its wall seconds and its results.json."""
    started = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        status = tournament(["isolation", str(export), "--clock", str(clock), "--quiet",
                             "--out", str(out), *options])
    seconds = time.perf_counter() - started
    assert status == 0, f"tournament exited {status}"
    document = json.loads((out / "results.json").read_text(encoding="utf-8"))
    aborted = [g for g in document["games"] if g["reason"] == "aborted"]
    assert not aborted, f"{len(aborted)} games aborted, e.g. {aborted[0]['detail']}"
    return seconds, document


def line(name: str, seconds: float, document: dict, pages: str = "") -> str:
    played = document["played"]
    rate = played / seconds * 60 if played else 0.0
    return (f"{name:<34} {seconds:8.1f} s  {played:4d} played  {document['reused']:4d} reused"
            f"  {rate:6.1f} games/min{pages}")


def snapshot(out: Path) -> dict[str, tuple[int, int]]:
    """Every page's inode and modification time (a rewrite changes one or both)."""
    return {path.name: (path.stat().st_ino, path.stat().st_mtime_ns)
            for path in [*(out / "games").glob("*.html"), out / "report.html"]}


def rerun(export: Path, out: Path, clock: float, workers: int, name: str
          ) -> tuple[dict, set[str]]:
    """A re-run on ``out``: its results and the pages it rewrote, printed as one line."""
    before = snapshot(out)
    seconds, document = timed_run(export, out, clock, "--workers", str(workers))
    after = snapshot(out)
    rewritten = {page for page, stamp in after.items() if before.get(page) != stamp}
    report = "report rewritten" if "report.html" in rewritten else "report unchanged"
    replays = len(rewritten - {"report.html"})
    print(line(name, seconds, document, f"  {replays:4d} pages rewritten, {report}"),
          flush=True)
    return document, rewritten - {"report.html"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=30)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--clock", type=float, default=1.0,
                        help="seconds per player per game (default 1)")
    parser.add_argument("--no-dask", action="store_true")
    args = parser.parse_args()
    games = args.entrants * (args.entrants - 1)
    print(f"{args.entrants} entrants, {games} games, {args.clock:g} s per player per game, "
          f"load average before {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory(prefix="bench-class-") as scratch:
        root = Path(scratch)
        export = make_export(root / "export", args.entrants)
        local = root / "local"
        seconds, document = timed_run(export, local, args.clock, "--workers", str(args.workers))
        assert document["played"] == games
        print(line(f"local, {args.workers} workers", seconds, document), flush=True)
        again, rewritten = rerun(export, local, args.clock, args.workers,
                                 "re-run, nothing changed")
        assert again["played"] == 0 and not rewritten, sorted(rewritten)[:5]
        resubmitted = export / "submission_1000" / "player.py"
        resubmitted.write_text(resubmitted.read_text() + "# resubmitted\n", encoding="utf-8")
        changed, rewritten = rerun(export, local, args.clock, args.workers,
                                   "re-run, one resubmission")
        assert changed["played"] == 2 * (args.entrants - 1)
        theirs = {f"{number:04d}.html" for number, game in enumerate(changed["games"], 1)
                  if any(name.startswith("Student 00 ")
                         for name in (game["first"], game["second"]))}
        assert rewritten <= theirs, sorted(rewritten - theirs)[:5]
        if not args.no_dask:
            import distributed

            with distributed.LocalCluster(n_workers=args.workers, threads_per_worker=1,
                                          processes=True, dashboard_address=None) as cluster:
                seconds, remote = timed_run(export, root / "dask", args.clock,
                                            "--scheduler", cluster.scheduler_address)
            assert remote["played"] == games
            print(line(f"dask LocalCluster, {args.workers} workers", seconds, remote),
                  flush=True)
    print(f"load average after {os.getloadavg()[0]:.2f} (a shared machine's numbers are "
          "loaded ones)")


if __name__ == "__main__":
    main()
