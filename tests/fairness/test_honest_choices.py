"""Choices the handouts leave to the student cost nothing: other tie-breaking where "any" answer
is allowed (successors in any order, any optimal Lights Out solution, any optimal path), a path
from a point to itself that lists it as start and goal, and code split into helper functions.
Each honest variant earns exactly the reference's score.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from gradingfair_support import grade_reference, grade_variant, per_case, reference_fixture

pytestmark = pytest.mark.slow

SG_STEMS = ["07_successors", "08_find_solution", "09_find_path"]
SG_VARIANTS = {
    "successors bottom-up, right to left (so BFS finds other optimal solutions)": [
        ("        for row in range(self.rows):\n            for col in range(self.cols):\n"
         "                puzzle = self.copy()",
         "        for row in reversed(range(self.rows)):\n"
         "            for col in reversed(range(self.cols)):\n"
         "                puzzle = self.copy()")],
    "A* neighbours column-first, from the far side": [
        ("        for dr in (-1, 0, 1):\n            for dc in (-1, 0, 1):",
         "        for dc in (1, 0, -1):\n            for dr in (1, 0, -1):")],
    "a path from a point to itself lists it as both start and goal (the handout's wording)": [
        ("    costs = {start: 0.0}\n",
         "    if start == goal:\n        return [start, goal]\n    costs = {start: 0.0}\n")],
    "A* ties broken towards the deepest node, through a helper": [
        ("    frontier = [(math.dist(start, goal), 0.0, start)]",
         "    frontier = [entry(start, goal, 0.0)]"),
        ("        _, cost, point = heapq.heappop(frontier)",
         "        _, deeper, point = heapq.heappop(frontier)\n        cost = -deeper"),
        ("                    estimate = child_cost + math.dist(child, goal)\n"
         "                    heapq.heappush(frontier, (estimate, child_cost, child))",
         "                    heapq.heappush(frontier, entry(child, goal, child_cost))"),
        ("def find_path(start, goal, scene):",
         "def entry(point, goal, cost):\n"
         "    return (cost + math.dist(point, goal), -cost, point)\n\n\n"
         "def find_path(start, goal, scene):")],
}
DOMINOES_HELPERS = [
    ("                return game.evaluate(vertical), None",
     "                return moves_minus_theirs(game, vertical), None"),
    ("def create_dominoes_game(rows, cols):",
     "def moves_minus_theirs(game, vertical):\n"
     "    mine = sum(1 for _ in game.legal_moves(vertical))\n"
     "    return mine - sum(1 for _ in game.legal_moves(not vertical))\n\n\n"
     "def create_dominoes_game(rows, cols):"),
]


sg_reference = reference_fixture("search_and_games", SG_STEMS)


@pytest.mark.parametrize("name", sorted(SG_VARIANTS))
def test_other_tie_breaking_scores_as_the_reference(
        name: str, sg_reference: dict[str, Any], tmp_path: Path) -> None:
    document = grade_variant(tmp_path, "search_and_games", SG_VARIANTS[name], stems=SG_STEMS)
    assert sg_reference["score"] == sum(t["max_score"] for t in sg_reference["tests"])
    assert per_case(document) == per_case(sg_reference)


def test_a_helper_function_scores_as_the_reference(tmp_path: Path) -> None:
    reference = grade_reference(tmp_path / "reference", "adversarial_search",
                                stems=["02_get_best_move"])
    document = grade_variant(tmp_path, "adversarial_search", DOMINOES_HELPERS,
                             stems=["02_get_best_move"])
    assert per_case(document) == per_case(reference)
