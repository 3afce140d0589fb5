"""Every tournament game kept as a record and a replay page, and the run's HTML report.

A record is a game's ``GameResult.to_dict()`` (moves, times, clocks, outcome, reason and the
game's settings) in ``games/NNNN.json``; its replay page, ``games/NNNN.html``, is drawn by
``harness.games.pages`` from the positions the game's arena computes (``replay_view``). The
report (``report.html``) holds the standings and links every game to its replay. Which of these
files a run writes is decided by ``harness.tournament.outputs``.
``gamegrader replay RECORD`` turns a saved record into its page again.
"""
from __future__ import annotations

import csv
import html
import io
import json
import re
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from harness.games.arenas import load_arena
from harness.games.pages import replay_page
from harness.pages.layout import page, table
from harness.records.games import GameResult
from harness.wire.safe_text import from_spreadsheet_cell


def outcome_text(result: GameResult) -> str:
    """The result in words, e.g. ``"alice won: bob forfeited (timeout: no reply ...)"`` or
    ``"bob won (no legal move left)"`` (a game the rules ended, however many moves it had)."""
    if result.is_aborted:
        return f"aborted: {result.detail}"
    if result.winner_name is None:
        return f"draw ({result.reason.label})"
    if result.forfeiter_name is not None:
        first = " on its first move" if result.forfeit_on_first_move else ""
        how = result.reason.value.replace("_", " ")  # "timeout", "illegal", ...
        return (f"{result.winner_name} won: {result.forfeiter_name} forfeited{first} "
                f"({how}: {result.detail})")
    return f"{result.winner_name} won ({result.reason.label})"


def write_replay(arena: Any, result: GameResult, path: Path) -> Optional[Path]:
    """The replay page of ``result`` at ``path``; None when the arena cannot draw it (an
    arena without ``replay_view``, or an aborted game without moves to show).

    Raises:
        ValueError: when the game's rules refuse the recorded moves.
    """
    view_of = getattr(arena, "replay_view", None)
    if view_of is None or result.is_aborted:
        return None
    path.write_text(replay_page(view_of(result, outcome_text(result))), encoding="utf-8")
    return path


def drawn_replay(arena: Any, result: GameResult) -> Optional[tuple[str, str]]:
    """The replay page of ``result`` and its final score (``ReplayView.score``), from one
    replay of the game; None when the arena cannot draw it (as :func:`write_replay`) or the
    rules refuse the recorded moves (the record is kept without a page)."""
    view_of = getattr(arena, "replay_view", None)
    if view_of is None or result.is_aborted:
        return None
    try:
        view = view_of(result, outcome_text(result))
        return replay_page(view), str(view.score)
    except ValueError:
        return None


def keep_graded_game(arena: Any, result: GameResult, name: str,
                     folder: Optional[Path]) -> Optional[Path]:
    """Save a game played while grading as ``NAME.json`` and its replay ``NAME.html`` in
    ``folder`` (the run context's games folder: ``gamegrader grade --games DIR``); nothing when
    it is None. Never raises for a folder that cannot be written (the grade matters more than
    the record)."""
    if folder is None:
        return None
    stem = Path(folder) / re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[:120]
    try:
        stem.parent.mkdir(parents=True, exist_ok=True)
        stem.with_suffix(".json").write_text(json.dumps(result.to_dict(), indent=1) + "\n",
                                             encoding="utf-8")
        return write_replay(arena, result, stem.with_suffix(".html"))
    except (OSError, ValueError):
        return None


def replay_target(record: Path, out: Optional[Path] = None) -> Path:
    """Where ``gamegrader replay`` writes: ``out``, else the record's path with ``.html`` for
    its suffix (``games/0001.json`` -> ``games/0001.html``)."""
    return out or record.with_suffix(".html")


def replay_record(record: Path, out: Optional[Path] = None, force: bool = False) -> Path:
    """Write the replay page of a saved game record (``games/NNNN.json``); return its path.

    The game's arena is found by the record's ``game.name`` like the tournament command finds
    it, and built with the record's board size. An existing page (a tournament's own, next to
    its record) is replaced only when ``force`` is set.

    Raises:
        FileExistsError: the page exists and ``force`` is not set (nothing is written).
        ValueError: for a file that is not a game record, an unknown game, or moves the game's
            rules refuse.
    """
    target = replay_target(record, out)
    if target.exists() and not force:
        raise FileExistsError(f"{target} exists (a tournament writes each game's page beside "
                              "its record); give --out PAGE for another file, or --force to "
                              "replace it")
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
    if write_replay(arena, result, target) is None:
        raise ValueError(f"{record}: this game cannot be replayed ({outcome_text(result)})")
    return target


def game_score(arena: Any, result: GameResult) -> str:
    """The final score of a game in words, as its replay gives it (``ReplayView.score``, e.g.
    Othello's disc counts); "" when the game keeps no score or cannot be replayed."""
    view_of = getattr(arena, "replay_view", None)
    if view_of is None or result.is_aborted:
        return ""
    try:
        return str(view_of(result, "").score)
    except (ValueError, AttributeError):
        return ""


def report_page(title: str, settings: str, standings_csv: str, results: Sequence[GameResult],
                pages: Sequence[Optional[Path]], out: Path, arena: Any = None,
                scores: Optional[Sequence[str]] = None) -> str:
    """The tournament's HTML report: settings, standings with ratings in words, and every game
    with its result, score and a link to its replay, in the look of every gamegrader page.
    ``scores`` are the games' scores when known (``outputs`` keeps them with the pages); by
    default each game is replayed for its score."""
    rows = [[from_spreadsheet_cell(cell) for cell in row]
            for row in csv.reader(io.StringIO(standings_csv))]
    if scores is None:
        scores = [game_score(arena, result) for result in results]
    body = (f'<h2 id="standings-heading">Standings</h2>{standings_table(rows[0], rows[1:])}'
            f'<p class="muted">{RATING_NOTE}</p>'
            f'<h2>Games</h2>{games_table(results, pages, scores, out)}')
    summary = "".join(f"<span>{html.escape(text)}</span>" for text in [
        f"{len(rows) - 1} entrants", f"{len(results)} games",
        f"{sum(1 for r in results if r.is_aborted)} aborted"])
    return page(title, title, settings, summary, body, kind="tournament report")


RATING_NOTE = ("Rating is a Bradley-Terry rating (openskill; every entrant starts at 25): the "
               "likely range spans three standard deviations either side of the estimate. "
               "Expected score is the chance of beating an average entrant, fitted to all the "
               "games, with its 95% interval. Two neighbours are separated when the likelihood "
               "that the upper one is stronger reaches 97.5%; more games narrow the ranges.")
_HEADERS = {"rank": "rank", "name": "entrant", "games": "games", "wins": "won",
            "draws": "drawn", "losses": "lost", "aborted": "aborted",
            "forfeits": "lost by own fault", "first_move_timeouts": "timed out on first move",
            "score": "points", "round_reached": "round reached", "points": "extra credit"}
_LEFT_OUT = {"rating", "summary"}  # the conservative rating; the summary goes under the table
_SHOWN_WHEN_NONZERO = {"aborted", "first_move_timeouts"}


def _number(text: str, form: str, scale: float = 1.0) -> str:
    try:
        return format(float(text) * scale, form)
    except ValueError:
        return ""


def _strength(mu: str, sigma: str) -> str:
    try:
        centre, spread = float(mu), 3 * float(sigma)
    except ValueError:
        return ""
    return f"{centre:.1f} ({centre - spread:.1f} to {centre + spread:.1f})"


def _expected(score: str, low: str, high: str) -> str:
    shown = _number(score, ".2f")
    return f"{shown} ({_number(low, '.2f')} to {_number(high, '.2f')})" if shown else ""


def _next(likelihood: str, separated: str) -> str:
    shown = _number(likelihood, ".1f", 100)
    if not shown:
        return ""
    return f"{shown}%: " + ("separated" if separated == "yes" else "not separated")


# Standings fields shown together in one column: its header, the fields, and how.
_COMBINED: tuple[tuple[str, tuple[str, ...], Callable[..., str]], ...] = (
    ("rating (likely range)", ("mu", "sigma"), _strength),
    ("expected score (95% interval)", ("strength", "strength_low", "strength_high"), _expected),
    ("stronger than next", ("beats_next", "separated_from_next"), _next))


def standings_table(header: list[str], rows: list[list[str]]) -> str:
    """The standings from their CSV form: plain-word headers, one header per column and one
    column per idea (``mu`` and ``sigma`` as one rating with its likely range, the expected
    score with its interval, the comparison with the next rank), no column that is empty (or
    all zero where only a non-zero count says something), and each entrant's summary in words
    under the table. Columns this page does not know (new fields of the standings) are shown
    under their own names."""
    index = {name: i for i, name in enumerate(header)}
    combined = {fields[0]: (label, fields, render) for label, fields, render in _COMBINED
                if all(f in index for f in fields)}
    consumed = {field for _, fields, _ in combined.values() for field in fields}
    columns: list[tuple[str, Any]] = []
    for name in header:
        if name in combined:
            label, fields, render = combined[name]
            columns.append((label, lambda row, fields=fields, render=render:
                            render(*(row[index[f]] for f in fields))))
            continue
        if name in consumed or name in _LEFT_OUT:
            continue
        values = [row[index[name]] for row in rows]
        if rows and all(not v.strip() for v in values) or (
                name in _SHOWN_WHEN_NONZERO and all(v.strip() in ("", "0") for v in values)):
            continue
        columns.append((_HEADERS.get(name, name.replace("_", " ")),
                        lambda row, i=index[name]: row[i]))
    columns = [(label, cell) for label, cell in columns
               if not rows or any(cell(row) for row in rows)]
    numeric = frozenset(i for i, (label, _) in enumerate(columns)
                        if label in ("rank", "games", "won", "drawn", "lost", "points",
                                     "extra credit"))
    cells = [[html.escape(cell(row)) for _, cell in columns] for row in rows]
    words = ""
    if "summary" in index and "name" in index:
        words = ('<ul id="standings-words">' + "".join(
            f"<li><strong>{html.escape(row[index['name']])}</strong>: "
            f"{html.escape(row[index['summary']])}</li>"
            for row in rows if row[index["summary"]].strip()) + "</ul>")
    return table([html.escape(label) for label, _ in columns], cells, "standings", numeric,
                 sortable=True) + words


def games_table(results: Sequence[GameResult], pages: Sequence[Optional[Path]],
                scores: Sequence[str], out: Path) -> str:
    """Every game: who played first, the result in words, the final score (a column only when
    some game keeps one), the number of moves and the replay."""
    with_score = any(scores)
    rows = []
    for number, (result, kept, score) in enumerate(zip(results, pages, scores), start=1):
        link = (f'<a href="{html.escape(kept.relative_to(out).as_posix())}">replay</a>'
                if kept is not None else "")
        cells = [str(number), html.escape(result.first), html.escape(result.second),
                 html.escape(outcome_text(result)),
                 *([html.escape(score)] if with_score else []), str(len(result.moves)), link]
        rows.append(cells)
    headers = ["game", "first to move", "second", "result",
               *(["score"] if with_score else []), "moves", "replay"]
    return table(headers, rows, "games", frozenset({0, len(headers) - 2}), sortable=True)


__all__ = ["drawn_replay", "game_score", "games_table", "keep_graded_game",
           "outcome_text", "replay_record", "replay_target", "report_page", "standings_table",
           "write_replay"]
