"""Standings from game results: the table, its CSV form, and Gradescope leaderboard entries.

A standing counts an entrant's games (aborted ones apart), adds its rating, its strength with a
95% interval and whether it is separated from the next rank (``intervals``), and, for an
elimination tournament, how far it went and its extra-credit points. Nothing here plays a game.
"""
from __future__ import annotations

import csv
import dataclasses
import io
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping, Optional, Sequence

from harness.games.intervals import SEPARATED, StrengthFit, fit_strengths
from harness.records.games import GameResult, Reason
from harness.tournament.ratings import Rating
from harness.wire.safe_text import spreadsheet_cell

CSV_COLUMNS = ("rank", "name", "games", "wins", "draws", "losses", "aborted", "forfeits",
               "first_move_timeouts", "score", "mu", "sigma", "rating", "strength",
               "strength_low", "strength_high", "beats_next", "separated_from_next", "summary",
               "round_reached", "points")
"""Header of :func:`format_csv`; ``rating`` is the conservative ``mu - 3 sigma``; ``forfeits``
counts losses by the entrant's own fault (``timeout:2 crash:1``), ``first_move_timeouts`` the
games it lost on time on its very first move (a clock or depth limit too tight for it).
``strength`` is the expected score against an entrant of average strength, ``strength_low`` and
``strength_high`` its 95% interval, ``beats_next`` the likelihood that the entrant is stronger
than the next one down, ``separated_from_next`` ``yes`` when that likelihood reaches 97.5%
(``intervals``), and ``summary`` says it in words."""


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
        strength, strength_low, strength_high: expected score against an entrant of the
            field's average strength, with its 95% interval (``intervals``).
        beats_next: the likelihood that this entrant is stronger than the next in the table;
            None for the last.
        separated_from_next: whether ``beats_next`` reaches 97.5% (None for the last).
        summary: the above in plain words.
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
    strength: float = 0.5
    strength_low: float = 0.0
    strength_high: float = 1.0
    beats_next: Optional[float] = None
    separated_from_next: Optional[bool] = None
    summary: str = ""

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
        A new list ordered by points (when given), then fitted strength (``intervals``: in a
        round robin where every pair played as often, the order of the scores), then score,
        then conservative rating, then name, so ties are broken the same way every time.
    """
    counts = {name: [0, 0, 0, 0] for name in names}  # wins, draws, losses, aborted
    forfeits: dict[str, dict[str, int]] = {name: {} for name in names}
    first_move_timeouts = {name: 0 for name in names}
    for result in results:
        loser = result.forfeiter_name
        if loser is not None:
            reason = result.reason.value
            forfeits[loser][reason] = forfeits[loser].get(reason, 0) + 1
            if result.reason is Reason.TIMEOUT and result.forfeit_on_first_move:
                first_move_timeouts[loser] += 1
        for side, name in enumerate((result.first, result.second)):
            if result.is_aborted:
                counts[name][3] += 1
            elif result.winner is None:
                counts[name][1] += 1
            else:
                counts[name][0 if result.winner == side else 2] += 1
    fit = fit_strengths(names, results)
    table = []
    for name in names:
        wins, draws, losses, aborted = counts[name]
        expected, low, high = fit.expected(name)
        table.append(Standing(name, wins, draws, losses, aborted, ratings[name],
                              None if reached is None else reached[name],
                              None if points is None else points[name],
                              tuple(sorted(forfeits[name].items())), first_move_timeouts[name],
                              expected, low, high))
    table.sort(key=lambda s: (-(s.points or 0), -round(fit.strength(s.name), 6), -s.score,
                              -s.rating.conservative, s.name))
    return with_neighbours(table, fit)


def with_neighbours(table: Sequence[Standing], fit: StrengthFit) -> list[Standing]:
    """The table with each entrant's comparison to the next one down and its summary."""
    out = []
    for rank, standing in enumerate(table):
        strength, low, high = (_as_in_csv(v) for v in (standing.strength, standing.strength_low,
                                                        standing.strength_high))
        words = (f"expected score {strength:.2f} (95% interval {low:.2f} to {high:.2f}) against "
                 "an average entrant")
        below = table[rank + 1] if rank + 1 < len(table) else None
        if below is None:
            out.append(dataclasses.replace(standing, summary=words + "; last"))
            continue
        likelihood = fit.superiority(standing.name, below.name)
        separated = likelihood >= SEPARATED
        verdict = "separated" if separated else "not separated"
        out.append(dataclasses.replace(
            standing, beats_next=likelihood, separated_from_next=separated,
            summary=f"{words}; stronger than {below.name} with likelihood "
                    f"{_as_in_csv(likelihood):.1%}, "
                    f"{'reaching' if separated else 'short of'} the {SEPARATED:.1%} that "
                    f"separates two entrants: {verdict}"))
    return out


def _as_in_csv(value: float) -> float:
    """``value`` as standings.csv holds it (three decimals): the summary rounds that, as the
    report's table (made from the CSV) does, so the two never show one number two ways
    (0.78466 was "0.78" in the summary and "0.79", from 0.785, beside it)."""
    return round(value, 3)


def format_csv(table: Sequence[Standing]) -> str:
    """The standings as CSV text with the :data:`CSV_COLUMNS` header, ranks from 1; an
    entrant's name (a submitted file's) cannot run as a spreadsheet formula."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for rank, s in enumerate(table, start=1):
        writer.writerow([
            rank, spreadsheet_cell(s.name), s.games, s.wins, s.draws, s.losses, s.aborted,
            s.forfeit_text, s.first_move_timeouts, f"{s.score:g}", f"{s.rating.mu:.3f}",
            f"{s.rating.sigma:.3f}", f"{s.rating.conservative:.3f}", f"{s.strength:.3f}",
            f"{s.strength_low:.3f}", f"{s.strength_high:.3f}",
            "" if s.beats_next is None else f"{s.beats_next:.3f}",
            "" if s.separated_from_next is None else
            ("yes" if s.separated_from_next else "no"),
            spreadsheet_cell(s.summary),
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


__all__ = ["CSV_COLUMNS", "Standing", "format_csv", "leaderboard_entries", "tally",
           "with_neighbours"]
