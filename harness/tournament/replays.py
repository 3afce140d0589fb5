"""Every tournament game kept as a record and a replay page, and the run's HTML report.

A record is a game's ``GameResult.to_dict()`` (moves, times, clocks, outcome, reason and the
game's settings) in ``games/NNNN.json``; its replay page, ``games/NNNN.html``, is drawn by
``harness.games.pages`` from the positions the game's arena computes (``replay_view``). The
report (``report.html``) holds the standings and links every game to its replay.
``gamegrader replay RECORD`` turns a saved record into its page again.
"""
from __future__ import annotations

import csv
import html
import io
import json
import os
import re
from pathlib import Path
from typing import Any, Optional

from harness.games.pages import replay_page
from harness.tournament.arenas import load_arena
from harness.tournament.records import GameResult
from harness.wire.safe_text import from_spreadsheet_cell


def outcome_text(result: GameResult) -> str:
    """The result in words, e.g. ``"alice won: bob forfeited (timeout: no reply ...)"``."""
    if result.is_aborted:
        return f"aborted: {result.detail}"
    if result.winner_name is None:
        return f"draw ({result.reason})"
    if result.forfeiter_name is not None:
        first = " on its first move" if result.forfeit_on_first_move else ""
        return (f"{result.winner_name} won: {result.forfeiter_name} forfeited{first} "
                f"({result.reason}: {result.detail})")
    return f"{result.winner_name} won ({result.reason})"


def write_replay(arena: Any, result: GameResult, path: Path) -> Optional[Path]:
    """The replay page of ``result`` at ``path``; None when the arena cannot draw it (an
    arena without ``replay_view``, or an aborted game without moves to show)."""
    view_of = getattr(arena, "replay_view", None)
    if view_of is None or result.is_aborted:
        return None
    path.write_text(replay_page(view_of(result, outcome_text(result))), encoding="utf-8")
    return path


GAMES_DIR_ENV = "GAMEGRADER_GAMES_DIR"
"""When set (``gamegrader grade --games DIR``), game runners keep every game they play there."""


def keep_graded_game(arena: Any, result: GameResult, name: str) -> Optional[Path]:
    """Save a game played while grading as ``NAME.json`` and its replay ``NAME.html`` in the
    folder named by :data:`GAMES_DIR_ENV`; nothing when it is unset. Never raises for a
    folder that cannot be written (the grade matters more than the record)."""
    folder = os.environ.get(GAMES_DIR_ENV)
    if not folder:
        return None
    stem = Path(folder) / re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[:120]
    try:
        stem.parent.mkdir(parents=True, exist_ok=True)
        stem.with_suffix(".json").write_text(json.dumps(result.to_dict(), indent=1) + "\n",
                                             encoding="utf-8")
        return write_replay(arena, result, stem.with_suffix(".html"))
    except (OSError, ValueError):
        return None


def write_games(arena: Any, results: tuple[GameResult, ...], out: Path) -> list[Optional[Path]]:
    """``games/NNNN.json`` for every game and its replay page where it has one."""
    folder = out / "games"
    folder.mkdir(parents=True, exist_ok=True)
    pages: list[Optional[Path]] = []
    for number, result in enumerate(results, start=1):
        stem = folder / f"{number:04d}"
        stem.with_suffix(".json").write_text(json.dumps(result.to_dict(), indent=1) + "\n",
                                             encoding="utf-8")
        try:
            pages.append(write_replay(arena, result, stem.with_suffix(".html")))
        except ValueError:  # a record the rules refuse keeps its JSON, without a page
            pages.append(None)
    return pages


def replay_record(record: Path, out: Optional[Path] = None) -> Path:
    """Write the replay page of a saved game record (``games/NNNN.json``); return its path.

    The game's arena is found by the record's ``game.name`` like the tournament command finds
    it, and built with the record's board size.

    Raises:
        ValueError: for a file that is not a game record, an unknown game, or moves the game's
            rules refuse.
    """
    try:
        data = json.loads(record.read_text(encoding="utf-8"))
        result = GameResult.from_dict(data)
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ValueError(f"{record}: not a game record ({type(error).__name__}: {error})") \
            from error
    game = dict(result.game)
    if not isinstance(game.get("name"), str):
        raise ValueError(f"{record}: the record names no game")
    options = {"size": game["size"]} if isinstance(game.get("size"), int) else {}
    arena = load_arena(game["name"], None, None, options)
    target = out or record.with_suffix(".html")
    if write_replay(arena, result, target) is None:
        raise ValueError(f"{record}: this game cannot be replayed ({outcome_text(result)})")
    return target


def report_page(title: str, settings: str, standings_csv: str, results: tuple[GameResult, ...],
                pages: list[Optional[Path]], out: Path) -> str:
    """The tournament's HTML report: settings, standings, and every game linked to its replay."""
    rows = [[from_spreadsheet_cell(cell) for cell in row]
            for row in csv.reader(io.StringIO(standings_csv))]
    head = "".join(f"<th>{html.escape(cell)}</th>" for cell in rows[0])
    body = "".join("<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>"
                   for row in rows[1:])
    games = []
    for number, (result, page) in enumerate(zip(results, pages), start=1):
        text = html.escape(f"{result.first} v {result.second}: {outcome_text(result)}")
        link = (f' <a href="{html.escape(page.relative_to(out).as_posix())}">replay</a>'
                if page is not None else "")
        games.append(f"<li>game {number}: {text}{link}</li>")
    return (f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title></head><body><h1>{html.escape(title)}</h1>"
            f"<p>{html.escape(settings)}</p><table id=\"standings\"><tr>{head}</tr>{body}"
            f"</table><h2>Games</h2><ol id=\"games\">{''.join(games)}</ol></body></html>\n")


__all__ = ["GAMES_DIR_ENV", "keep_graded_game", "outcome_text", "replay_record", "report_page",
           "write_games", "write_replay"]
