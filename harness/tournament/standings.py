"""Standings from game results: the table, its CSV form, and Gradescope leaderboard entries.

A standing counts an entrant's games (aborted ones apart), adds its rating and, for an
elimination tournament, how far it went and its extra-credit points. Nothing here plays a game.
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping, Optional, Sequence

from harness.tournament.ratings import Rating
from harness.tournament.records import GameResult
from harness.wire.safe_text import spreadsheet_cell

CSV_COLUMNS = ("rank", "name", "games", "wins", "draws", "losses", "aborted", "forfeits",
               "first_move_timeouts", "score", "mu", "sigma", "rating", "round_reached", "points")
"""Header of :func:`format_csv`; ``rating`` is the conservative ``mu - 3 sigma``; ``forfeits``
counts losses by the entrant's own fault (``timeout:2 crash:1``), ``first_move_timeouts`` the
games it lost on time on its very first move (a clock or depth limit too tight for it)."""


@dataclass(frozen=True)
class Standing:
    """One entrant's line in the table.

    Attributes:
        name: the entrant.
        wins, draws, losses: games that finished, from this entrant's side.
        aborted: games the tournament gave up on.
        rating: its rating after every game.
        round_reached: elimination only: the round it lost in, ``rounds + 1`` for the grand
            winner; None in a round robin.
        points: elimination only: its extra-credit points; None in a round robin.
    """

    name: str
    wins: int
    draws: int
    losses: int
    aborted: int
    rating: Rating
    round_reached: Optional[int] = None
    points: Optional[Fraction] = None
    forfeits: tuple[tuple[str, int], ...] = ()
    first_move_timeouts: int = 0

    @property
    def forfeit_text(self) -> str:
        """E.g. ``"timeout:2 crash:1"``; "" without forfeits."""
        return " ".join(f"{reason}:{count}" for reason, count in self.forfeits)

    @property
    def games(self) -> int:
        """Games that finished."""
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """Wins plus half the draws."""
        return self.wins + self.draws / 2


def tally(names: Sequence[str], results: Sequence[GameResult], ratings: Mapping[str, Rating],
          reached: Optional[Mapping[str, int]] = None,
          points: Optional[Mapping[str, Fraction]] = None) -> list[Standing]:
    """The standings, best first.

    Args:
        names: every entrant.
        results: every game played.
        ratings: a rating per name.
        reached: elimination only, round reached per name.
        points: elimination only, points per name.

    Returns:
        A new list ordered by points (when given), then score, then conservative rating, then
        name, so ties are broken the same way every time.
    """
    counts = {name: [0, 0, 0, 0] for name in names}  # wins, draws, losses, aborted
    forfeits: dict[str, dict[str, int]] = {name: {} for name in names}
    first_move_timeouts = {name: 0 for name in names}
    for result in results:
        loser = result.forfeiter_name
        if loser is not None:
            forfeits[loser][result.reason] = forfeits[loser].get(result.reason, 0) + 1
            if result.reason == "timeout" and result.forfeit_on_first_move:
                first_move_timeouts[loser] += 1
        for side, name in enumerate((result.first, result.second)):
            if result.is_aborted:
                counts[name][3] += 1
            elif result.winner is None:
                counts[name][1] += 1
            else:
                counts[name][0 if result.winner == side else 2] += 1
    table = []
    for name in names:
        wins, draws, losses, aborted = counts[name]
        table.append(Standing(name, wins, draws, losses, aborted, ratings[name],
                              None if reached is None else reached[name],
                              None if points is None else points[name],
                              tuple(sorted(forfeits[name].items())), first_move_timeouts[name]))
    table.sort(key=lambda s: (-(s.points or 0), -s.score, -s.rating.conservative, s.name))
    return table


def format_csv(table: Sequence[Standing]) -> str:
    """The standings as CSV text with the :data:`CSV_COLUMNS` header, ranks from 1; an
    entrant's name (a submitted file's) cannot run as a spreadsheet formula."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for rank, s in enumerate(table, start=1):
        writer.writerow([rank, spreadsheet_cell(s.name), s.games, s.wins, s.draws, s.losses,
                         s.aborted, s.forfeit_text, s.first_move_timeouts, f"{s.score:g}",
                         f"{s.rating.mu:.3f}", f"{s.rating.sigma:.3f}",
                         f"{s.rating.conservative:.3f}",
                         "" if s.round_reached is None else s.round_reached,
                         "" if s.points is None else f"{float(s.points):.2f}"])
    return out.getvalue()


def leaderboard_entries(standing: Standing) -> list[dict[str, Any]]:
    """Gradescope ``leaderboard`` entries for one entrant (documented keys only).

    Meant for a student's agent playing fixed house bots inside its own Gradescope run: the
    share of points won and the conservative rating, both "higher is better".
    """
    share = standing.score / standing.games if standing.games else 0.0
    return [{"name": "Share of points vs house bots", "value": round(share, 4), "order": "desc"},
            {"name": "Rating (mu - 3 sigma)", "value": round(standing.rating.conservative, 3),
             "order": "desc"}]


__all__ = ["CSV_COLUMNS", "Standing", "format_csv", "leaderboard_entries", "tally"]
