"""BFS and A* on a toy weighted graph: they know nothing about any puzzle."""
from __future__ import annotations

from dataclasses import dataclass, field

from reference.core.counters import Counter
from reference.search.astar import astar_search
from reference.search.bfs import breadth_first_graph_search

#   a --1-- b --1-- c --1-- g        fewest actions: a -> d -> g (cost 10)
#   a ----------5---------- d --5-- g   cheapest: a -> b -> c -> g (cost 3)
#   e is reachable only from itself.
GRAPH = {
    "a": [("to_d", "d", 5.0), ("to_b", "b", 1.0)],
    "b": [("to_c", "c", 1.0)],
    "c": [("to_g", "g", 1.0)],
    "d": [("to_g", "g", 5.0)],
    "g": [],
    "e": [("loop", "e", 1.0)],
}


#   s --2-- m --5-- t     with h(n) = 3 (admissible, not consistent) A* expands m at cost 2,
#   s --1-- n --0.5-- m   then reaches it for 1.5 through n and must expand it again.
DETOUR = {
    "s": [("to_m", "m", 2.0), ("to_n", "n", 1.0)],
    "n": [("to_m", "m", 0.5)],
    "m": [("to_t", "t", 5.0)],
    "t": [],
}


@dataclass(frozen=True)
class GraphProblem:
    initial: str
    goal: str = "g"
    edges: dict = field(default_factory=lambda: GRAPH)

    def actions(self, state):
        return [name for name, _, _ in self.edges[state]]

    def result(self, state, move):
        return next(target for name, target, _ in self.edges[state] if name == move)

    def is_goal(self, state):
        return state == self.goal

    def action_cost(self, state, move, next_state):
        return next(cost for name, _, cost in self.edges[state] if name == move)


def zero(state):
    return 0.0


def test_bfs_finds_the_fewest_actions():
    assert breadth_first_graph_search(GraphProblem("a")) == ["to_d", "to_g"]


def test_astar_finds_the_cheapest_path():
    assert astar_search(GraphProblem("a"), zero) == ["to_b", "to_c", "to_g"]


def test_astar_skips_stale_frontier_entries():
    # With h = 0, m is pushed at 2, improved to 1.5 through n; t at 6.5 comes after the stale m.
    counter = Counter()
    result = astar_search(GraphProblem("s", "t", DETOUR), zero, counter)
    assert result == ["to_n", "to_m", "to_t"]
    assert counter.expansions == 3  # s, n, m: the stale entry of m is not expanded


def test_astar_reexpands_a_state_reached_more_cheaply_after_expansion():
    h = {"s": 0.0, "n": 3.0, "m": 0.0, "t": 0.0}
    counter = Counter()
    result = astar_search(GraphProblem("s", "t", DETOUR), h.__getitem__, counter)
    assert result == ["to_n", "to_m", "to_t"]
    assert counter.expansions == 4  # s, m (at cost 2), n, m again (at cost 1.5)


def test_both_return_empty_list_when_the_start_is_a_goal():
    assert breadth_first_graph_search(GraphProblem("g")) == []
    assert astar_search(GraphProblem("g"), zero) == []


def test_both_return_none_when_no_goal_is_reachable():
    assert breadth_first_graph_search(GraphProblem("e")) is None
    assert astar_search(GraphProblem("e"), zero) is None


def test_counters_are_separate_per_search():
    bfs_count, astar_count = Counter(), Counter()
    breadth_first_graph_search(GraphProblem("a"), bfs_count)
    astar_search(GraphProblem("a"), zero, astar_count)
    assert bfs_count.expansions == 2  # a, then d, whose child g is the goal
    assert astar_count.expansions == 3  # a, b, c; g (cost 3) is popped before d (cost 5)
