"""Strengths with honest uncertainty: a Bradley-Terry fit of every game at once, with intervals.

openskill's ``mu``/``sigma`` (``ratings``) are updated game by game: they depend on the order of
the games, and ``sigma`` shrinks with the number of games whatever they showed. The standings'
intervals come from here instead, a maximum-likelihood Bradley-Terry model fitted to all games
together (order does not matter), where

    P(i beats j) = 1 / (1 + exp(theta_j - theta_i)),

a draw counts as half a win for each side, aborted games are left out, and every entrant also
gets one win and one loss against a virtual entrant of strength 0 (a weak prior that keeps an
unbeaten or winless entrant's strength finite). The fit is Newton's method on the log-likelihood;
the covariance of the strengths is the inverse of its negative Hessian at the optimum (the usual
large-sample approximation), so

- an entrant's interval is its expected score against an entrant of the field's average strength,
  ``logistic(theta_i - mean(theta))``, with a 95% interval (1.96 standard errors of that
  difference, mapped through the logistic);
- the likelihood of superiority of i over j is ``Phi((theta_i - theta_j) / sd)`` with ``sd`` the
  standard deviation of the difference (covariances included: i and j played each other);
- two neighbouring ranks are *separated* when that likelihood is at least 97.5%, i.e. when the
  95% interval of their difference leaves out 0.

docs/games.md gives the numbers: how many games a pair needs for a given width.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Sequence

from harness.records.games import GameResult

Z95 = 1.959963984540054
"""Standard normal quantile for a two-sided 95% interval."""
SEPARATED = 0.975
"""Likelihood of superiority from which two entrants count as separated."""
PRIOR_GAMES = 1.0
"""Wins, and as many losses, each entrant is given against the virtual entrant of strength 0."""


def logistic(x: float) -> float:
    """``1 / (1 + exp(-x))``, without overflow."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def normal_cdf(x: float) -> float:
    """The standard normal distribution function."""
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """The inverse of a nonsingular square matrix (Gauss-Jordan with partial pivoting)."""
    n = len(matrix)
    rows = [list(row) + [1.0 if i == j else 0.0 for j in range(n)]
            for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        scale = rows[col][col]
        rows[col] = [v / scale for v in rows[col]]
        for r in range(n):
            factor = rows[r][col]
            if r != col and factor:
                rows[r] = [v - factor * p for v, p in zip(rows[r], rows[col])]
    return [row[n:] for row in rows]


@dataclass(frozen=True)
class StrengthFit:
    """Fitted strengths and their covariance.

    Attributes:
        names: the entrants, in the order given.
        theta: log-strength per entrant, aligned with ``names``.
        covariance: the strengths' covariance matrix, aligned with ``names``.
    """

    names: tuple[str, ...]
    theta: tuple[float, ...]
    covariance: tuple[tuple[float, ...], ...]

    def _index(self, name: str) -> int:
        return self.names.index(name)

    def _contrast_sd(self, weights: Sequence[float]) -> float:
        c = self.covariance
        n = len(weights)
        variance = sum(weights[i] * c[i][j] * weights[j] for i in range(n) for j in range(n)
                       if weights[i] and weights[j])
        return math.sqrt(max(variance, 0.0))

    def strength(self, name: str) -> float:
        """The entrant's log-strength relative to the field's average."""
        return self.theta[self._index(name)] - sum(self.theta) / len(self.theta)

    def expected(self, name: str) -> tuple[float, float, float]:
        """Expected score against an entrant of average strength, and its 95% interval."""
        i, n = self._index(name), len(self.names)
        sd = self._contrast_sd([(1.0 if k == i else 0.0) - 1.0 / n for k in range(n)])
        d = self.strength(name)
        return logistic(d), logistic(d - Z95 * sd), logistic(d + Z95 * sd)

    def difference(self, a: str, b: str) -> tuple[float, float]:
        """``theta_a - theta_b`` and its standard deviation."""
        i, j = self._index(a), self._index(b)
        weights = [1.0 if k == i else -1.0 if k == j else 0.0 for k in range(len(self.names))]
        return self.theta[i] - self.theta[j], self._contrast_sd(weights)

    def superiority(self, a: str, b: str) -> float:
        """The likelihood that ``a`` is stronger than ``b``."""
        d, sd = self.difference(a, b)
        return 0.5 if sd == 0 else normal_cdf(d / sd)

    def pair(self, a: str, b: str) -> tuple[float, float, float]:
        """P(a beats b) and its 95% interval."""
        d, sd = self.difference(a, b)
        return logistic(d), logistic(d - Z95 * sd), logistic(d + Z95 * sd)


def fit_strengths(names: Sequence[str], results: Iterable[GameResult],
                  iterations: int = 100) -> StrengthFit:
    """The Bradley-Terry fit of ``results`` (see the module docstring).

    Raises:
        KeyError: for a result naming an unknown entrant.
    """
    index = {name: i for i, name in enumerate(names)}
    n = len(names)
    games = [[0.0] * n for _ in range(n)]  # games[i][j]: games between i and j
    score = [PRIOR_GAMES] * n  # points won, the prior's win included
    for result in results:
        if result.is_aborted:
            continue
        i, j = index[result.first], index[result.second]
        games[i][j] += 1
        games[j][i] += 1
        share = 0.5 if result.winner is None else 1.0 if result.winner == 0 else 0.0
        score[i] += share
        score[j] += 1 - share
    theta = [0.0] * n
    hessian: list[list[float]] = [[0.0] * n for _ in range(n)]
    for _ in range(iterations):
        gradient = [0.0] * n
        hessian = [[0.0] * n for _ in range(n)]
        for i in range(n):
            p = logistic(theta[i])
            gradient[i] = score[i] - 2 * PRIOR_GAMES * p
            hessian[i][i] = -2 * PRIOR_GAMES * p * (1 - p)
            for j in range(n):
                if j != i and games[i][j]:
                    q = logistic(theta[i] - theta[j])
                    gradient[i] -= games[i][j] * q
                    w = games[i][j] * q * (1 - q)
                    hessian[i][i] -= w
                    hessian[i][j] += w
        inverse = _inverse([[-v for v in row] for row in hessian])
        step = [sum(inverse[i][k] * gradient[k] for k in range(n)) for i in range(n)]
        largest = max((abs(s) for s in step), default=0.0)
        if largest > 2.0:  # damped: far from the optimum a full Newton step can overshoot
            step = [s * 2.0 / largest for s in step]
        theta = [t + s for t, s in zip(theta, step)]
        if largest < 1e-10:
            break
    covariance = _inverse([[-v for v in row] for row in hessian]) if n else []
    return StrengthFit(tuple(names), tuple(theta), tuple(tuple(row) for row in covariance))


def unsettled_neighbours(order: Sequence[str], fit: StrengthFit, width: float
                         ) -> list[tuple[str, str]]:
    """Neighbouring pairs of ``order`` (best first) that are not separated and whose interval
    of P(one beats the other) is wider than ``width``: the pairs more games would settle."""
    pairs = []
    for above, below in zip(order, order[1:]):
        _, low, high = fit.pair(above, below)
        if fit.superiority(above, below) < SEPARATED and high - low > width:
            pairs.append((above, below))
    return pairs


def games_for_width(width: float, share: float = 0.5) -> int:
    """Games two entrants must play each other, with nothing else known, for the 95% interval
    of P(one beats the other) to be at most ``width`` wide when it is near ``share``."""
    if not 0 < width < 1:
        raise ValueError(f"an interval width is between 0 and 1, got {width!r}")
    games = 1
    while True:
        sd = 1 / math.sqrt(games * share * (1 - share))
        d = math.log(share / (1 - share))
        if logistic(d + Z95 * sd) - logistic(d - Z95 * sd) <= width:
            return games
        games += 1


__all__ = ["PRIOR_GAMES", "SEPARATED", "StrengthFit", "Z95", "fit_strengths",
           "games_for_width", "logistic", "normal_cdf", "unsettled_neighbours"]
