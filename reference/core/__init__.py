"""Protocols and small records shared by every rules module and search algorithm."""
from __future__ import annotations

from reference.core.protocols import Game, GameFacts, SearchProblem, require_facts
from reference.core.counters import Counter

__all__ = ["Counter", "Game", "GameFacts", "SearchProblem", "require_facts"]
