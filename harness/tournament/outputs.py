"""A tournament's output folder, written so that a re-run rewrites only what changed.

``write_outputs`` writes ``results.json``, ``standings.csv``, ``games/NNNN.json`` (each game's
record), ``games/NNNN.html`` (its replay page) and ``report.html``. A file whose content is
already there is not written again, so an unchanged re-run on the same ``--out`` touches no
file but ``results.json`` (whose ``played``/``reused`` counts change once).

Replay pages are the costly part (each one replays its game move by move, and so does the
report's score column), so they are not drawn just to be compared. Beside them,
``games/.replay-index`` (JSON) keeps, per game number, the digest of what the page was drawn
from and the game's score: the painter's code (``painter_fingerprint``: the modules that draw
the page, the arena's included), the arena's settings and the game's record. A page is drawn
only when its game is new, was played again or moved to another number, when the page is
missing, or when the painter's code changed. The index is saved without the entries about to
be redrawn before any page is written, so a run killed while writing pages leaves no entry
that vouches for a page it did not finish.
"""
from __future__ import annotations

import json
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Sequence

from harness.games.replays import drawn_replay, report_page
from harness.records.games import GameResult
from harness.tournament.engine import TournamentResult
from harness.tournament.fingerprints import (
    arena_fingerprint,
    code_fingerprint,
    modules_fingerprint,
)
from harness.tournament.standings import format_csv

GAMES_DIR = "games"
PAGES_INDEX = ".replay-index"
"""JSON, named so that no glob of the games' `*.json` records or `*.html` pages finds it."""
INDEX_FORMAT = 1
MAX_INDEX_BYTES = 64 << 20
"""An index larger than this is not read (every page is drawn again)."""
PAINTER_MODULES = ("harness.games.replays", "harness.games.pages", "harness.pages.layout",
                   "harness.pages.style")
"""The modules that draw every page; the arena's own modules are added to them."""
_NUMBERED = re.compile(r"^\d{4,}\.(json|html)$")
PARTIAL = ".partial-"
"""The prefix of a file being written (renamed over its target once whole; ``.tmp``, so that
one a kill left behind matches no glob of pages or records, and is removed by the next run)."""


def write_if_changed(path: Path, text: str) -> bool:
    """Write ``text`` to ``path`` atomically unless the file already holds exactly it; True
    when written."""
    data = text.encode("utf-8")
    try:
        if path.stat().st_size == len(data) and path.read_bytes() == data:
            return False
    except OSError:
        pass
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=PARTIAL, suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return True


def painter_fingerprint(arena: Any) -> str:
    """A digest of the code that draws ``arena``'s replay pages and scores: the modules of
    :data:`PAINTER_MODULES`, of the arena and of its kit, and the project modules they import
    (``fingerprints.module_files``)."""
    names = list(PAINTER_MODULES)
    for part in (arena, getattr(arena, "kit", None)):
        if part is not None:
            names.append(type(part).__module__)
    return modules_fingerprint(names)


@dataclass(frozen=True)
class Written:
    """What ``write_outputs`` wrote: counts of game files written, pages drawn and kept, and
    which of the summary files changed."""

    records: int = 0
    pages: int = 0
    pages_kept: int = 0
    removed: int = 0
    report: bool = False
    results: bool = False
    standings: bool = False

    def summary(self) -> str:
        """One line for the end of a run."""
        report = "report rewritten" if self.report else "report unchanged"
        removed = f", {self.removed} old game files removed" if self.removed else ""
        return (f"{self.pages} replay pages written, {self.pages_kept} up to date; "
                f"{self.records} game records written{removed}; {report}")


def _load_index(path: Path, painter: str) -> dict[str, dict[str, Any]]:
    """The index's entries when it was written by this painter, else none."""
    try:
        if path.stat().st_size > MAX_INDEX_BYTES:
            return {}
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("format") != INDEX_FORMAT or \
            data.get("painter") != painter or not isinstance(data.get("pages"), dict):
        return {}
    return {name: entry for name, entry in data["pages"].items()
            if isinstance(entry, dict) and isinstance(entry.get("digest"), str)
            and isinstance(entry.get("score"), str) and isinstance(entry.get("page"), bool)}


def _save_index(path: Path, painter: str, entries: dict[str, dict[str, Any]]) -> None:
    write_if_changed(path, json.dumps({"format": INDEX_FORMAT, "painter": painter,
                                       "pages": entries}, sort_keys=True) + "\n")


@dataclass(frozen=True)
class GameFiles:
    """The games' pages (None for a game without one) and scores; how many records and pages
    were written (a page drawn again to the same text is not), pages left as they were, and
    numbered files removed."""

    pages: list[Optional[Path]]
    scores: list[str]
    records: int
    drawn: int
    kept: int
    removed: int


def write_games(arena: Any, results: Sequence[GameResult], out: Path) -> GameFiles:
    """``games/NNNN.json`` for every game and its replay page where it has one, each written
    only when it changed (see the module docstring); numbered files beyond the last game (a
    smaller field's leftovers) are removed."""
    folder = out / GAMES_DIR
    folder.mkdir(parents=True, exist_ok=True)
    painter = painter_fingerprint(arena)
    settings = arena_fingerprint(arena) if arena is not None else ""
    index_path = folder / PAGES_INDEX
    index = _load_index(index_path, painter)
    records = [json.dumps(result.to_dict(), indent=1) + "\n" for result in results]
    names = [f"{number:04d}" for number in range(1, len(results) + 1)]
    digests = [code_fingerprint([("painter", painter.encode()), ("arena", settings.encode()),
                                 ("record", text.encode())]) for text in records]
    stale = {name for name, digest in zip(names, digests)
             if index.get(name, {}).get("digest") != digest
             or (index[name]["page"] and not (folder / f"{name}.html").exists())}
    if stale:  # no entry may vouch for a page while it is being redrawn
        _save_index(index_path, painter,
                    {name: entry for name, entry in index.items() if name not in stale})
    pages: list[Optional[Path]] = []
    scores: list[str] = []
    written = drawn_pages = 0
    for name, result, text, digest in zip(names, results, records, digests):
        written += write_if_changed(folder / f"{name}.json", text)
        page = folder / f"{name}.html"
        if name in stale:
            drawn = drawn_replay(arena, result)
            if drawn is None:
                page.unlink(missing_ok=True)
            else:
                drawn_pages += write_if_changed(page, drawn[0])
            index[name] = {"digest": digest, "page": drawn is not None,
                           "score": drawn[1] if drawn else ""}
        pages.append(page if index[name]["page"] else None)
        scores.append(index[name]["score"])
    removed = 0
    for path in folder.iterdir():
        if _NUMBERED.match(path.name) and int(path.name.split(".")[0]) > len(results):
            path.unlink()
            removed += 1
        elif path.name.startswith(PARTIAL) and path.suffix == ".tmp":  # a killed run's
            path.unlink(missing_ok=True)
    kept = {name: index[name] for name in names}
    _save_index(index_path, painter, kept)
    return GameFiles(pages, scores, written, drawn_pages,
                     sum(1 for n in names if kept[n]["page"]) - drawn_pages, removed)


def write_outputs(result: TournamentResult, out: Path, arena: Any = None,
                  title: str = "Tournament", settings: str = "") -> Written:
    """``results.json``, ``standings.csv``, every game's record and replay page under
    ``games/``, and ``report.html`` linking them, in ``out`` (created if needed), each written
    only when its content changed."""
    out.mkdir(parents=True, exist_ok=True)
    results = write_if_changed(out / "results.json",
                               json.dumps(result.to_dict(), indent=1) + "\n")
    table = format_csv(result.standings)
    standings = write_if_changed(out / "standings.csv", table)
    games = write_games(arena, result.results, out)
    report = write_if_changed(out / "report.html", report_page(
        title, settings, table, result.results, games.pages, out, arena, games.scores))
    return Written(games.records, games.drawn, games.kept, games.removed, report, results,
                   standings)


__all__ = ["GAMES_DIR", "GameFiles", "PAGES_INDEX", "PAINTER_MODULES", "Written",
           "painter_fingerprint", "write_games", "write_if_changed", "write_outputs"]
