"""Generic search algorithms, each written once against ``reference.core.protocols``.

They know nothing about a particular game or puzzle: depth limits, evaluation functions, move
ordering and time budgets are parameters, and work is counted with a ``Counter`` passed in.
"""
from __future__ import annotations

from reference.search.alphabeta import alphabeta_search
from reference.search.astar import astar_search
from reference.search.bfs import breadth_first_graph_search
from reference.search.minimax import (
    iterative_minimax_decision,
    minimax_decision,
    minimax_value,
    optimal_moves,
)
from reference.search.timed_alphabeta import timed_alphabeta_search

__all__ = ["alphabeta_search", "astar_search", "breadth_first_graph_search",
           "iterative_minimax_decision", "minimax_decision", "minimax_value", "optimal_moves",
           "timed_alphabeta_search"]
