"""Extra-credit points of a single-elimination tournament, from the Isolation handout.

The handout's table, read cumulatively (see ``docs/games.md``):

| round | loser receives | winner receives |
|---|---|---|
| 1st | 5 | 10 |
| 2nd | 2 more | 3 more |
| 3rd | 1 more | 2 more |
| 4th | 1 more | 2 more |
| final | - | the grand winner gets 3 more |

so with 4 rounds (16 entrants, the 4th round being the final) an entrant out in round 1, 2, 3
or 4 gets 5, 12, 14 or 16, and the grand winner 20, the handout's full tournament credit.

Project decisions for other sizes (the handout only sketches them):
- more than 4 rounds: every round after the 4th repeats the 4th round's increments (loser 1
  more, winner 2 more), so the extra points "keep coming";
- fewer than 4 rounds: every total is scaled by ``full_credit / grand winner's total`` so that
  the grand winner gets exactly the full credit (the handout's "100 points" read as "the full
  tournament credit", 20), and the order between rounds is kept;
- a bye counts as a first-round win.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

ROUND_INCREMENTS: tuple[tuple[int, int], ...] = ((5, 10), (2, 3), (1, 2), (1, 2))
"""(loser, winner) increments for rounds 1 to 4; later rounds repeat the last pair."""
GRAND_WINNER_BONUS = 3
FULL_CREDIT = 20
"""The grand winner's total in a full 4-round bracket: 10 + 3 + 2 + 2 + 3."""


@dataclass(frozen=True)
class PointsTable:
    """Cumulative points by how far an entrant went.

    Attributes:
        out_in_round: ``out_in_round[r - 1]`` is the total of an entrant eliminated in round r.
        grand_winner: the total of the entrant who won the final.
    """

    out_in_round: tuple[Fraction, ...]
    grand_winner: Fraction

    def points(self, eliminated_in: int | None) -> Fraction:
        """Points for an entrant eliminated in round ``eliminated_in`` (None: the grand winner).

        Raises:
            ValueError: for a round outside ``1..rounds``.
        """
        if eliminated_in is None:
            return self.grand_winner
        if not 1 <= eliminated_in <= len(self.out_in_round):
            raise ValueError(f"round must be from 1 to {len(self.out_in_round)}, "
                             f"got {eliminated_in!r}")
        return self.out_in_round[eliminated_in - 1]


def points_table(rounds: int, full_credit: int = FULL_CREDIT) -> PointsTable:
    """The handout's points for a bracket of ``rounds`` rounds (``2 ** rounds`` slots).

    Args:
        rounds: number of rounds, 0 for a lone entrant.
        full_credit: what the grand winner gets when there are 4 rounds or fewer.

    Returns:
        Exact fractions; see the module docstring for the rules.

    Raises:
        ValueError: for negative ``rounds``.

    >>> [int(p) for p in points_table(4).out_in_round], int(points_table(4).grand_winner)
    ([5, 12, 14, 16], 20)
    >>> [str(p) for p in points_table(2).out_in_round], points_table(2).grand_winner
    (['25/4', '15'], Fraction(20, 1))
    """
    if type(rounds) is not int or rounds < 0:
        raise ValueError(f"rounds must be an int >= 0, got {rounds!r}")
    increments = [ROUND_INCREMENTS[min(r, len(ROUND_INCREMENTS) - 1)] for r in range(rounds)]
    won_so_far = 0
    out: list[Fraction] = []
    for loser, winner in increments:
        out.append(Fraction(won_so_far + loser))
        won_so_far += winner
    champion = Fraction(won_so_far + GRAND_WINNER_BONUS)
    if champion < full_credit:
        scale = Fraction(full_credit) / champion
        out = [p * scale for p in out]
        champion = Fraction(full_credit)
    return PointsTable(tuple(out), champion)


__all__ = ["FULL_CREDIT", "GRAND_WINNER_BONUS", "PointsTable", "ROUND_INCREMENTS",
           "points_table"]
