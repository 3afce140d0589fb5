"""The staff ladder: a submission against house bots in order of strength, graded and rated.

``ladder:`` in assignment.yaml (``harness.spec.ladder`` turns it into one case) names a game
kit (default: the assignment's ``arena``), the clock on the nominal machine, the games per rung,
a seed and the rungs::

    ladder:
      clock: 2.0                  # the kit's clock, divided by the host's speed factor
      settings: {size: 6}         # the kit's other settings (optional)
      games: 4                    # per rung; sides alternate, the student first in game 1
      seed: 7                     # each rung's game seeds derive from it and the rung's place
      rungs:                      # weakest first
        - {bot: random, points: 1}
        - {bot: greedy, points: 2, wins: 3}   # wins needed to beat it (default: over half)

:func:`climb` plays every rung (a rung beaten earns its points; the grade does not depend on
classmates) and rates the submission: each rung stands at a fixed rating (``rating:``, by
default 1000, 1200, 1400 ... up the ladder) and the submission's rating is the one under which
its results are likeliest (the Elo logistic model, a draw half a win), with a 95 % interval from
the curvature of the likelihood. One virtual draw against the ladder's middle keeps the rating
finite when every game is won or lost. Rating, interval and the win rate against each rung go
to Gradescope's leaderboard (``Judgement.leaderboard``). Games are kept as replays when asked
(``gamegrader grade --games DIR``), and the feedback names their pages.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace
from typing import Any, Callable, Optional, Sequence

from harness.games.cpu_clock import BACKSTOP_SECONDS
from harness.games.kit import GameKit
from harness.games.versus import (
    HouseGame,
    Played,
    alternating,
    counted_time,
    load_kit,
    no_greeting,
    play_versus_house,
    setup_line,
)
from harness.spec.contracts import INTEGER, NUMBER, TEXT, Option, declare_options

BASE_RATING = 1000.0
RUNG_STEP = 200.0
"""Default ratings of the rungs: ``BASE_RATING + RUNG_STEP * place`` (place 0 at the bottom)."""
_ELO = math.log(10) / 400


@dataclass(frozen=True)
class Rung:
    """A house bot of the ladder, its points, the wins that beat it, its fixed rating and its
    place on the ladder (from 0 at the bottom), from which its games' seeds derive."""

    bot: str
    points: float
    wins: int
    rating: float
    place: int = 0

    def as_options(self) -> dict[str, Any]:
        """The rung as a ``rungs`` entry with every default written out (a part of the ladder,
        such as ``harness.games.practice``'s, keeps each rung's own place and rating)."""
        return {"bot": self.bot, "points": self.points, "wins": self.wins,
                "rating": self.rating, "place": self.place}


def rungs_of(options: dict[str, Any]) -> list[Rung]:
    """The ladder's rungs, defaults filled in."""
    games = int(options["games"])
    return [Rung(str(rung["bot"]), float(rung["points"]), int(rung.get("wins", games // 2 + 1)),
                 float(rung.get("rating", BASE_RATING + RUNG_STEP * place)),
                 int(rung.get("place", place)))
            for place, rung in enumerate(options["rungs"])]


def expected(rating: float, opponent: float) -> float:
    """The expected score of ``rating`` against ``opponent`` (Elo's logistic curve)."""
    return 1.0 / (1.0 + 10 ** ((opponent - rating) / 400))


@dataclass(frozen=True)
class Rating:
    """A rating with its 95 % interval."""

    value: float
    low: float
    high: float


def rate(results: Sequence[tuple[float, float, int]]) -> Rating:
    """The likeliest rating for ``results``: ``(opponent rating, points scored, games)`` per
    opponent (a win 1, a draw 0.5), with one virtual draw against the opponents' middle.

    >>> rate([(1000.0, 2.0, 4)]).value
    1000.0
    """
    anchors = [opponent for opponent, _, _ in results]
    middle = (min(anchors) + max(anchors)) / 2 if anchors else BASE_RATING
    terms = [*results, (middle, 0.5, 1)]

    def slope(rating: float) -> float:
        return sum(scored - games * expected(rating, opponent) for opponent, scored, games in terms)

    low, high = middle - 4000.0, middle + 4000.0
    for _ in range(100):  # the slope falls as the rating rises: bisect for its zero
        mid = (low + high) / 2
        low, high = (mid, high) if slope(mid) > 0 else (low, mid)
    value = round((low + high) / 2, 1)
    information = sum(games * expected(value, opponent) * (1 - expected(value, opponent))
                      for opponent, _, games in terms) * _ELO * _ELO
    spread = 1.96 / math.sqrt(information)
    return Rating(value, round(value - spread, 1), round(value + spread, 1))


def leaderboard(rungs: Sequence[Rung], played: Sequence[Played], rating: Rating,
                counted: Sequence[int]) -> tuple[dict[str, Any], ...]:
    """Gradescope leaderboard entries (documented keys only): the rating, its interval, and
    the win rate (a draw half a win) against each rung over its ``counted`` games (those
    played, and those counted as lost)."""
    entries: list[dict[str, Any]] = [
        {"name": "Ladder rating", "value": round(rating.value), "order": "desc"},
        {"name": "Rating 95% interval", "value": f"{rating.low:.0f} to {rating.high:.0f}"}]
    for rung, games, count in zip(rungs, played, counted):
        rate_of = score(games) / count if count else 0.0
        entries.append({"name": f"Win rate v {rung.bot}", "value": round(rate_of, 3),
                        "order": "desc"})
    return tuple(entries)


def host_factor() -> float:
    """The grading host's speed factor (``harness.timing.calibration``): clocks are divided by
    it, so a slow host gives every player the time the nominal machine would."""
    from harness.timing.calibration import host_speed

    return host_speed().factor


def ladder_kit(options: dict[str, Any], speed: float) -> GameKit:
    """The ladder's kit with its clock divided by the host's ``speed`` factor."""
    return load_kit({"kit": options["kit"], "clock": round(float(options["clock"]) / speed, 3),
                     "settings": options.get("settings", {})})


def play_rungs(kit: GameKit, sandbox: Any, rungs: Sequence[Rung], games: int, seed: int,
               seconds: float, prefix: str = "", *, stop_after_handshake: bool = False,
               on_game: Optional[Callable[[str, HouseGame], None]] = None) -> list[Played]:
    """Every rung's ``games`` games, the student's sides alternating and each rung's seeds
    derived from ``seed`` and its place; no game starts after ``seconds``. Kept games are named
    ``PREFIXBOT-gameN``. With ``stop_after_handshake``, no game is played after one the
    program lost in its greeting (it would lose every other the same way): the rest of that
    rung and the later rungs are ``rest_lost``. Games the time left unplayed are
    ``rest_lost`` too when the program kept the games waiting (:func:`charge_waiting`)."""
    from harness.games.seeds import derive_seed

    deadline = time.monotonic() + seconds
    played: list[Played] = []
    failed_against = ""
    for rung in rungs:
        if failed_against:
            played.append(Played((), f"not played: {no_greeting(f'against {failed_against}')}",
                                 rest_lost=True))
            continue
        games_ = play_versus_house(
            kit, sandbox, rung.bot, alternating(kit, games, derive_seed(seed, rung.place)),
            max(0.0, deadline - time.monotonic()), f"{prefix}{rung.bot}",
            stop_after_handshake=stop_after_handshake, on_game=on_game)
        played.append(games_)
        if stop_after_handshake and any(game.failed_handshake for game in games_.games):
            failed_against = rung.bot
    return charge_waiting(played, games)


def waited_on(played: Sequence[Played]) -> float:
    """Wall seconds the program kept its games waiting beyond what its CPU time and the host's
    load explain
    (``cpu_clock.unexplained_wait``; each game's when positive)."""
    return sum(max(0.0, game.record.waiting_of(game.side).unexplained)
               for games_ in played for game in games_.games)


def charge_waiting(played: list[Played], games: int) -> list[Played]:
    """``played`` with the games the ladder's time left unplayed counted as lost
    (``rest_lost``) when the program's own waiting (:func:`waited_on`) passed
    ``BACKSTOP_SECONDS``: a program that sleeps through its moves, each within its backstop,
    runs the ladder's time out, and the games it kept from being played are its losses. When
    the host's load ran the time out, they stay left out (the host's doing)."""
    waited = waited_on(played)
    if waited <= BACKSTOP_SECONDS:
        return played
    why = (f"your program kept its games waiting {waited:.1f} s of wall time more than its "
           "CPU time and the host's load explain")
    return [games_ if games_.rest_lost or len(games_.games) >= games else
            replace(games_, skipped=f"{games_.skipped}; {why}", rest_lost=True)
            for games_ in played]


def score(played: Played) -> float:
    """Points scored in ``played``: a win 1, a draw 0.5."""
    return sum(1.0 if game.won else 0.5 if game.drawn else 0.0 for game in played.games)


@declare_options(kit=Option(TEXT, required=True), clock=Option(NUMBER, required=True),
                 settings=Option((dict,)), games=Option(INTEGER, required=True),
                 seed=Option(INTEGER), visibility=Option(TEXT), timeout=Option(NUMBER),
                 rungs=Option((list,), required=True))
def climb(case: Any, sandbox: Any, *, factor: Optional[Callable[[], float]] = None) -> Any:
    """The ladder case's runner (``harness.spec.ladder``); see the module docstring."""
    from harness.records.verdicts import Judgement

    options = dict(case.options)
    speed = (factor or host_factor)()
    kit = ladder_kit(options, speed)
    games, seed = int(options["games"]), int(options.get("seed", 0))
    rungs = rungs_of(options)
    played = play_rungs(kit, sandbox, rungs, games, seed, case.timeout, f"{case.group}-",
                        stop_after_handshake=True)
    counted = [games if games_.rest_lost else len(games_.games) for games_ in played]
    rating = rate([(rung.rating, score(games_), count)
                   for rung, games_, count in zip(rungs, played, counted)])
    every = [game for games_ in played for game in games_.games]
    lines = [f"The staff ladder: {games} games against each house bot, sides alternating, "
             f"{kit.clock.describe()} (scaled to this host: {speed:.2f}x nominal speed), "
             f"counted in {counted_time(every)}."]
    earned, faults = 0.0, []
    for rung, games_, count in zip(rungs, played, counted):
        wins = sum(game.won for game in games_.games)
        draws = sum(game.drawn for game in games_.games)
        beaten = wins >= rung.wins
        earned += rung.points if beaten else 0.0
        line = (f"{rung.bot} (rating {rung.rating:g}, worth {rung.points:g}): won {wins}, "
                f"drew {draws}, lost {count - wins - draws} of {games}; "
                f"{'beaten' if beaten else 'not beaten'} (needed {rung.wins} wins)")
        if games_.skipped:
            lost = " and counted as lost" if games_.rest_lost else ""
            line += (f"; {games - len(games_.games)} games not played{lost} "
                     f"({games_.skipped})")
        lines.append(line)
        if games_.pages:
            lines.append("  replays: " + ", ".join(page.name for page in games_.pages))
        faults += [game.student_fault for game in games_.games if game.student_fault]
    lines += [line for line in [setup_line(every, kit)] if line]
    lines.append(f"Your ladder rating: {rating.value:.0f} (95% interval {rating.low:.0f} to "
                 f"{rating.high:.0f}).")
    total = sum(rung.points for rung in rungs)
    return Judgement(earned / total if total else 1.0, "\n".join(lines),
                     leaderboard=leaderboard(rungs, played, rating, counted),
                     failure=faults[0].verdict if faults and earned < total else None)


__all__ = ["BASE_RATING", "RUNG_STEP", "Rating", "Rung", "charge_waiting", "climb", "expected",
           "ladder_kit", "leaderboard", "play_rungs", "rate", "rungs_of", "score",
           "waited_on"]
