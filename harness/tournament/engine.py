"""Tournament formats: a round robin and a single-elimination bracket, over any arena.

The engine schedules games (``schedule``), hands them to an executor (local processes or
dask), and turns the results into ratings and standings. It knows no game: everything
game-specific sits behind the ``Arena`` it is given. Results are kept in schedule order, so a
run is reproducible from its seed wherever its games were played. Given a ``GameStore``, every
batch of games takes the finished ones from its records and records each new one as it ends
(``store``), which makes a re-run incremental and a killed run resumable.
"""
from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Optional, Sequence

from harness.games.intervals import fit_strengths, unsettled_neighbours
from harness.records.games import Arena, Entrant, GameResult, GameTask
from harness.tournament.executors import Executor
from harness.tournament.points import points_table
from harness.tournament.progress import Progress
from harness.tournament.ratings import rate
from harness.tournament.schedule import (
    Match,
    bracket_rounds,
    check_entrants,
    decider_task,
    draw_order,
    first_round,
    match_tasks,
    next_round,
    pair_task,
    round_robin,
)
from harness.tournament.standings import Standing, tally
from harness.tournament.store import GameStore


class Format(enum.Enum):
    """Tournament formats."""

    ROUND_ROBIN = "round-robin"
    ELIMINATION = "elimination"


@dataclass(frozen=True)
class TournamentResult:
    """A finished tournament.

    Attributes:
        format: which format was played.
        seed: the tournament seed.
        entrants: the field, in the order given.
        results: every game in schedule order.
        standings: best first.
        played: games played by this run.
        reused: games taken from the records of earlier runs (``store``).
    """

    format: Format
    seed: int
    entrants: tuple[Entrant, ...]
    results: tuple[GameResult, ...]
    standings: tuple[Standing, ...]
    played: int = 0
    reused: int = 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary: settings, standings and every game."""
        return {
            "format": self.format.value, "seed": self.seed,
            "played": self.played, "reused": self.reused,
            "entrants": [{"name": e.name, "source": e.source, "code": e.code}
                         for e in self.entrants],
            "standings": [{"name": s.name, "wins": s.wins, "draws": s.draws,
                           "losses": s.losses, "aborted": s.aborted,
                           "forfeits": dict(s.forfeits),
                           "first_move_timeouts": s.first_move_timeouts, "mu": s.rating.mu,
                           "sigma": s.rating.sigma, "strength": s.strength,
                           "strength_low": s.strength_low, "strength_high": s.strength_high,
                           "beats_next": s.beats_next,
                           "separated_from_next": s.separated_from_next,
                           "summary": s.summary, "round_reached": s.round_reached,
                           "points": None if s.points is None else float(s.points)}
                          for s in self.standings],
            "games": [r.to_dict() for r in self.results],
        }


class _Games:
    """Plays batches of games through ``executor``, taking finished ones from ``store`` (when
    given) and recording each new one as it ends; counts games played and reused."""

    def __init__(self, executor: Executor, arena: Arena, progress: Optional[Progress],
                 store: Optional[GameStore]) -> None:
        self.executor, self.arena, self.progress, self.store = executor, arena, progress, store
        self.played = self.reused = 0

    def __call__(self, tasks: Sequence[GameTask]) -> list[GameResult]:
        known, todo = self.store.split(tasks) if self.store else ({}, list(range(len(tasks))))
        if self.progress is not None:
            self.progress.expect(len(todo))
            if known:
                self.progress.write(f"{len(known)} of {len(tasks)} games taken from the "
                                    "records")
        played = self.executor.run(self.arena, [tasks[i] for i in todo], self._finished)
        self.played += len(todo)
        self.reused += len(known)
        known.update(zip(todo, played))
        return [known[i] for i in range(len(tasks))]

    def _finished(self, task: GameTask, result: GameResult) -> None:
        if self.store is not None:
            self.store.put(task, result)
        if self.progress is not None:
            self.progress(task, result)


def run_round_robin(arena: Arena, entrants: Sequence[Entrant], seed: int, executor: Executor,
                    progress: Optional[Progress] = None, store: Optional[GameStore] = None,
                    precision: Optional[float] = None,
                    budget: Optional[int] = None) -> TournamentResult:
    """Every pairing twice with sides swapped; standings by strength, then score and rating.

    An aborted game (its worker died or it overran its deadline: a cause outside both
    entrants, since an entrant's own faults and waiting lose it the game) is played once more
    (:data:`ABORT_RETRIES`); the results keep each game's last attempt. With a ``store``,
    games it holds are taken from it and every new game is recorded there as it ends
    (``harness.tournament.store``). With a ``precision`` (an interval width), more
    games follow the round robin, step by step: each step gives every pair of neighbouring
    ranks that is neither separated nor that precise two more games (sides swapped; see
    ``intervals.unsettled_neighbours``), until none is left or ``budget`` games (round robin
    included; default three round robins) would be exceeded.

    Raises:
        ValueError: for fewer than two entrants, repeated names, or a precision outside (0, 1).
    """
    if precision is not None and not 0 < precision < 1:
        raise ValueError(f"--precision is an interval width between 0 and 1, got {precision!r}")
    games = _Games(executor, arena, progress, store)
    tasks = round_robin(entrants, seed)
    results = _run_retrying(games, tasks, [])
    names = [e.name for e in entrants]
    limit = budget if budget is not None else 3 * len(tasks)
    by_name = {e.name: e for e in entrants}
    scheduled = Counter(frozenset((t.first.name, t.second.name)) for t in tasks)
    step = max(t.round for t in tasks)
    while precision is not None:
        fit = fit_strengths(names, results)
        order = [s.name for s in tally(names, results, rate(names, results))]
        pairs = unsettled_neighbours(order, fit, precision)
        pairs = pairs[:max(0, limit - len(results)) // 2]
        if not pairs:
            break
        step += 1
        more: list[GameTask] = []
        for a, b in pairs:
            for _ in range(2):
                number = scheduled[frozenset((a, b))]
                scheduled[frozenset((a, b))] += 1
                more.append(pair_task(by_name[a], by_name[b], number, seed,
                                      len(results) + len(more), step))
        results += _run_retrying(games, more, [])
    table = tally(names, results, rate(names, results))
    return TournamentResult(Format.ROUND_ROBIN, seed, tuple(entrants), tuple(results),
                            tuple(table), games.played, games.reused)


def _match_winner(match: Match, games: Sequence[GameResult]) -> Optional[Entrant]:
    """The entrant with more wins in ``games``, or None on a tie."""
    assert match.low is not None
    wins = {match.high.name: 0, match.low.name: 0}
    for game in games:
        if game.winner_name is not None:
            wins[game.winner_name] += 1
    if wins[match.high.name] == wins[match.low.name]:
        return None
    return match.high if wins[match.high.name] > wins[match.low.name] else match.low


ABORT_RETRIES = 1
"""Times an aborted game is played again before it counts as aborted."""


def _run_retrying(games: _Games, tasks: Sequence[GameTask], log: list[GameResult]
                  ) -> list[GameResult]:
    """Play ``tasks``, then play again (up to :data:`ABORT_RETRIES` times) those that aborted.

    Every attempt is appended to ``log``; the returned list holds each task's last attempt.
    """
    final = games(tasks)
    log += final
    for _ in range(ABORT_RETRIES):
        again = [i for i, result in enumerate(final) if result.is_aborted]
        if not again:
            break
        retried = games([tasks[i] for i in again])
        log += retried
        for i, result in zip(again, retried):
            final[i] = result
    return final


def run_elimination(arena: Arena, entrants: Sequence[Entrant], seed: int, executor: Executor,
                    seeding: Optional[Sequence[Entrant]] = None,
                    progress: Optional[Progress] = None,
                    store: Optional[GameStore] = None) -> TournamentResult:
    """A single-elimination bracket with the handout's points.

    Args:
        arena: plays the games.
        entrants: the field.
        seed: the tournament seed (draw order when ``seeding`` is None, and every game's seed).
        executor: where games run; each round's games run in parallel.
        seeding: the field best seed first (e.g. a round robin's ranking); default: drawn.
        progress: optional display.
        store: where finished games are taken from and recorded, as for a round robin.

    Returns:
        Standings by points (see ``harness.tournament.points``), with the round each entrant
        reached; games in schedule order, round by round, deciding games after their round.
        An aborted game is played once more; a match left undecided by aborted games sends
        nobody on (its next opponent gets a bye, and a void final has no grand winner).

    Raises:
        ValueError: for fewer than two entrants, repeated names, or a ``seeding`` that is not a
            permutation of ``entrants``.
    """
    check_entrants(entrants)
    games = _Games(executor, arena, progress, store)
    order = list(seeding) if seeding is not None else draw_order(entrants, seed)
    if sorted(e.name for e in order) != sorted(e.name for e in entrants):
        raise ValueError("seeding must list every entrant exactly once")
    seed_of = {e.name: number for number, e in enumerate(order, start=1)}
    rounds = bracket_rounds(len(order))
    reached: dict[str, int] = {}
    results: list[GameResult] = []
    matches: list[Optional[Match]] = list(first_round(order))
    advancing: list[Optional[Entrant]] = []
    for round_number in range(1, rounds + 1):
        played = [m for m in matches if m is not None and m.low is not None]
        tasks = [t for i, m in enumerate(played)
                 for t in match_tasks(m, seed, len(results) + 2 * i)]
        round_results = _run_retrying(games, tasks, results)
        winners: dict[int, Optional[Entrant]] = {
            m.slot: _match_winner(m, round_results[2 * i:2 * i + 2])
            for i, m in enumerate(played)}
        tied = [m for m in played if winners[m.slot] is None]
        deciders = [decider_task(m, seed, len(results) + i) for i, m in enumerate(tied)]
        decided = _run_retrying(games, deciders, results)
        for tie, game in zip(tied, decided):
            # A draw by the rules goes to the higher seed; a game nobody finished sends
            # nobody on (an entrant that breaks its games never wins a match by them).
            winners[tie.slot] = None if game.is_aborted else (
                _match_winner(tie, [game]) or tie.high)
        advancing = []
        for slot_match in matches:
            if slot_match is None:
                advancing.append(None)
                continue
            winner = slot_match.high if slot_match.low is None else winners[slot_match.slot]
            advancing.append(winner)
            for entrant in (slot_match.high, slot_match.low):
                if entrant is not None and entrant != winner:
                    reached[entrant.name] = round_number
        matches = next_round(advancing, seed_of, round_number + 1)
    champion = advancing[0] if advancing else None
    if champion is not None:
        reached[champion.name] = rounds + 1
    table = points_table(rounds)
    points: dict[str, Fraction] = {
        name: table.points(None if r > rounds else r) for name, r in reached.items()}
    names = [e.name for e in entrants]
    standings = tally(names, results, rate(names, results), reached, points)
    return TournamentResult(Format.ELIMINATION, seed, tuple(entrants), tuple(results),
                            tuple(standings), games.played, games.reused)


__all__ = ["Format", "TournamentResult", "run_elimination", "run_round_robin"]
