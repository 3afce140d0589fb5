"""Ratings with uncertainty from game results: Bradley-Terry via the openskill library.

openskill's ``BradleyTerryFull`` model (Weng and Lin, 2011) keeps a mean ``mu`` and a standard
deviation ``sigma`` per entrant and updates them game by game. Updates depend on the order of the
games, so results are always applied in schedule order (task index), never in the order they
finished: the same tournament seed then gives the same ratings on any executor. Aborted games
carry no information about the entrants and are skipped; a drawn game counts as a tie.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from harness.records.games import GameResult

CONFIDENCE_SIGMAS = 3.0
"""The conservative rating is ``mu - CONFIDENCE_SIGMAS * sigma`` (openskill's ordinal)."""


@dataclass(frozen=True)
class Rating:
    """One entrant's rating.

    Attributes:
        name: the entrant.
        mu: estimated strength (openskill's scale, 25 to start).
        sigma: uncertainty of ``mu`` (8.33 to start; shrinks with games played).
    """

    name: str
    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        """``mu - 3 sigma``: the entrant is at least this strong with high confidence."""
        return self.mu - CONFIDENCE_SIGMAS * self.sigma


def rate(names: Sequence[str], results: Iterable[GameResult]) -> dict[str, Rating]:
    """Ratings for ``names`` after ``results``, applied in the order given.

    Args:
        names: every entrant (those without games keep the starting rating).
        results: games in schedule order; names must be among ``names``.

    Returns:
        A new dict from name to :class:`Rating`, in ``names`` order.

    Raises:
        KeyError: for a result naming an unknown entrant.
    """
    from openskill.models import BradleyTerryFull

    model = BradleyTerryFull()
    current = {name: model.rating(name=name) for name in names}
    for result in results:
        if result.is_aborted:
            continue
        first, second = current[result.first], current[result.second]
        ranks = [1.0, 1.0] if result.winner is None else (
            [1.0, 2.0] if result.winner == 0 else [2.0, 1.0])
        [[first], [second]] = model.rate([[first], [second]], ranks=ranks)
        current[result.first], current[result.second] = first, second
    return {name: Rating(name, float(r.mu), float(r.sigma)) for name, r in current.items()}


__all__ = ["CONFIDENCE_SIGMAS", "Rating", "rate"]
