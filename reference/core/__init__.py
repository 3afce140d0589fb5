"""Protocols and small records shared by every rules module and search algorithm."""
from __future__ import annotations

from reference.core.counters import Counter
from reference.core.protocols import Game, GameFacts, SearchProblem, require_facts

__all__ = ["Counter", "Game", "GameFacts", "SearchProblem", "require_facts"]
