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
