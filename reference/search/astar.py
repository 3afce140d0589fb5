"""A* graph search (AIMA 4th ed., Section 3.5.3), written against ``SearchProblem`` only.

It knows nothing about any puzzle: the heuristic is a parameter. With an admissible and
consistent heuristic it returns a cheapest solution. It is best-first search on
f(n) = g(n) + h(n): a state is goal-tested when it is popped, and reached again only through a
strictly cheaper path.
"""
from __future__ import annotations

import heapq
import itertools
from typing import Callable

from reference.core.counters import Counter
from reference.core.protocols import Move, SearchProblem, State
from reference.search.bfs import Parents, solution_from_parents

Heuristic = Callable[[State], float]
"""Estimated cost from a state to the nearest goal; never negative."""


def astar_search(
        problem: SearchProblem[State, Move], heuristic: Heuristic[State],
        counter: Counter | None = None) -> list[Move] | None:
    """A cheapest solution, or None when no goal is reachable.

    Args:
        problem: the problem; only read.
        heuristic: h(state); admissible and consistent for the answer to be optimal.
        counter: if given, ``counter.expansions`` is increased once per state whose actions are
            generated.

    Returns:
        The list of actions from ``problem.initial`` to a goal (empty if the initial state is a
        goal), or None if no goal is reachable. Ties in f are broken first-in, first-out, so
        the result is deterministic for a given action order.
    """
    tie = itertools.count()
    costs: dict[State, float] = {problem.initial: 0.0}
    parents: Parents[State, Move] = {problem.initial: None}
    frontier = [(heuristic(problem.initial), next(tie), 0.0, problem.initial)]
    while frontier:
        _, _, cost, state = heapq.heappop(frontier)
        if cost > costs[state]:
            continue  # a stale entry: the state was reached more cheaply since it was pushed
        if problem.is_goal(state):
            return solution_from_parents(parents, state)
        if counter is not None:
            counter.expansions += 1
        for action in problem.actions(state):
            child = problem.result(state, action)
            child_cost = cost + problem.action_cost(state, action, child)
            if child not in costs or child_cost < costs[child]:
                costs[child] = child_cost
                parents[child] = (state, action)
                entry = (child_cost + heuristic(child), next(tie), child_cost, child)
                heapq.heappush(frontier, entry)
    return None


__all__ = ["Heuristic", "astar_search"]
