"""Breadth-first graph search (AIMA 3rd ed., Figure 3.11), written against ``SearchProblem`` only.

It knows nothing about any puzzle. It returns a shortest solution in number of actions, whatever
the step costs; for cheapest-cost solutions use ``reference.search.astar``.
"""
from __future__ import annotations

from collections import deque
from typing import Optional

from reference.core.counters import Counter
from reference.core.protocols import Move, SearchProblem, State

Parents = dict[State, Optional[tuple[State, Move]]]
"""Search-tree links: each reached state maps to (parent state, action), the root to None."""


def solution_from_parents(parents: Parents[State, Move], state: State) -> list[Move]:
    """The actions leading from the root of a search tree to ``state``.

    Args:
        parents: maps every reached state to ``(parent state, action)``, or to None for the root.
        state: a reached state.

    Returns:
        The actions from the root to ``state``, first action first (empty for the root).
    """
    actions: list[Move] = []
    link = parents[state]
    while link is not None:
        state, action = link
        actions.append(action)
        link = parents[state]
    actions.reverse()
    return actions


def breadth_first_graph_search(
        problem: SearchProblem[State, Move],
        counter: Counter | None = None) -> list[Move] | None:
    """A solution with the fewest actions, or None when no goal is reachable.

    Graph search as in the book: the goal test is applied when a state is generated (and to the
    initial state first), and a state already explored or in the frontier is never added again.
    Among shortest solutions, the one found first in the order of ``problem.actions`` wins, so the
    result is deterministic. The search stops once every reachable state is explored, so it ends
    on any problem with finitely many reachable states.

    Args:
        problem: the problem; only read.
        counter: if given, ``counter.expansions`` is increased once per state whose actions are
            generated.

    Returns:
        The list of actions from ``problem.initial`` to a goal (empty if the initial state is a
        goal), or None if no goal is reachable.
    """
    if problem.is_goal(problem.initial):
        return []
    # Every state explored or in the frontier: the book's "not in explored or frontier" test.
    parents: Parents[State, Move] = {problem.initial: None}
    frontier = deque([problem.initial])
    while frontier:
        state = frontier.popleft()
        if counter is not None:
            counter.expansions += 1
        for action in problem.actions(state):
            child = problem.result(state, action)
            if child in parents:
                continue
            parents[child] = (state, action)
            if problem.is_goal(child):
                return solution_from_parents(parents, child)
            frontier.append(child)
    return None


__all__ = ["Parents", "breadth_first_graph_search", "solution_from_parents"]
