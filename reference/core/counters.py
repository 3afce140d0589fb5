"""A counter object passed into searches, so two searches never share a count (no globals)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Counter:
    """Mutable tally of search work.

    Attributes:
        leaves: positions evaluated at the depth limit or at a terminal position.
        expansions: positions whose successors were generated.
    """

    leaves: int = 0
    expansions: int = 0


class WorkBudgetExceeded(RuntimeError):
    """A search counted by a :class:`BudgetCounter` did more work than it was allowed."""


class BudgetCounter(Counter):
    """A counter that stops the search it counts once leaves plus expansions pass ``budget``.

    Replays of known mistakes (feedback diagnoses) use it: a mistake such as "no pruning" can
    grow a search far past the reference's, and a count (never a clock) keeps the feedback the
    same on every machine and under any load.
    """

    budget: int  # not a dataclass field: set once, before the tallies

    def __init__(self, budget: int) -> None:
        object.__setattr__(self, "budget", budget)
        super().__init__()

    def __setattr__(self, name: str, value: int) -> None:
        super().__setattr__(name, value)
        if self.leaves + self.expansions > self.budget:
            raise WorkBudgetExceeded(f"search work passed {self.budget}")
