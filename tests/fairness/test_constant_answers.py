"""Issue 39, item 12: a ``get_best_move`` that answers the same on every board earns at most 2%
of the Dominoes points (it earned up to 4.5 of 40 from boards where a constant matched one part),
while honest searches, right or partly wrong, keep every point they earned per part.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from gradingfair_support import grade_variant, per_case, reference_fixture, scores_by_group

pytestmark = pytest.mark.slow

ROOT_SEARCH = ("        value, move = max_value(self, vertical, float(\"-inf\"), "
               "float(\"inf\"), limit)\n        return move, value, leaves[0]")
CONSTANTS = {
    "first square, no value, no leaves": "((0, 0), 0, 0)",
    "no move, even, one leaf": "(None, 0, 1)",
    "the handout's first answer": "((0, 1), 2, 6)",
    "empty list, even, two leaves": "([], 0, 2)",
}
FIRST_LEGAL_MOVE = [(ROOT_SEARCH, "        moves = list(self.legal_moves(vertical))\n"
                                  "        return (moves[0] if moves else None), 0, 1")]
PRUNE_MAX = "                if value >= beta:\n                    return value, best\n"
PRUNE_MIN = "                if value <= alpha:\n                    return value, best\n"
MAX_NODE = '            value, best = float("-inf"), None\n'
HONEST_PARTIAL = {
    # A real search that never counts leaves: its moves and values follow the board.
    "leaves never counted": [("        return move, value, leaves[0]",
                              "        return move, value, 0")],
    # Plain minimax (no pruning): moves and values right, more leaves than alpha-beta.
    "minimax without pruning": [(PRUNE_MAX, ""), (PRUNE_MIN, "")],
    # Counts every node, not only the leaves (a common misreading of "leaves").
    "every node counted": [(MAX_NODE, "            leaves[0] += 1\n" + MAX_NODE)],
}
STEMS = {"adversarial_search": ["02_get_best_move"], "search_and_games": ["11_get_best_move"]}
POINTS = {"adversarial_search": 40, "search_and_games": 30}
dominoes_reference = reference_fixture("adversarial_search", STEMS["adversarial_search"])


# Search & Games' get_best_move cases are Dominoes' own, included with their points scaled by
# 0.75 (assignments/search_and_games/cases/11_get_best_move.yaml), so a constant earns there
# exactly 0.75 of what it earns in Dominoes, the same share of the points: every constant is
# graded on Dominoes, and one on Search & Games shows that the include keeps the rule and its
# feedback.
CONSTANT_GRADINGS = [*(("adversarial_search", name) for name in sorted(CONSTANTS)),
                     ("search_and_games", "the handout's first answer")]


@pytest.mark.parametrize(("assignment", "name"), CONSTANT_GRADINGS)
def test_a_constant_answer_earns_at_most_two_percent(assignment: str, name: str,
                                                     tmp_path: Path) -> None:
    constant = [(ROOT_SEARCH, f"        return {CONSTANTS[name]}")]
    document = grade_variant(tmp_path, assignment, constant, stems=STEMS[assignment])
    assert sum(t["max_score"] for t in document["tests"]) == pytest.approx(POINTS[assignment])
    assert document["score"] <= 0.02 * POINTS[assignment]
    withheld = [t for t in document["tests"] if "earns nothing here" in t["output"]]
    assert withheld, "the feedback says why a matching part earned nothing"


def test_the_first_legal_move_with_constant_numbers_earns_nothing(tmp_path: Path) -> None:
    """Not a constant (the moves differ), but no part comes from a search: 4.83 of 40 before."""
    document = grade_variant(tmp_path, "adversarial_search", FIRST_LEGAL_MOVE,
                             stems=STEMS["adversarial_search"])
    assert document["score"] == 0
    assert any("shows no search behind it" in t["output"] for t in document["tests"])


@pytest.mark.parametrize("name", sorted(HONEST_PARTIAL))
def test_a_partly_wrong_search_keeps_its_credit_per_part(
        name: str, dominoes_reference: dict[str, Any], tmp_path: Path) -> None:
    """A search whose leaf counts are wrong still earns the move's and the value's third on
    every board: it answers differently where the answers differ."""
    document = grade_variant(tmp_path, "adversarial_search", HONEST_PARTIAL[name],
                             stems=STEMS["adversarial_search"])
    reference = per_case(dominoes_reference)
    for test in document["tests"]:
        assert "earns nothing here" not in test["output"]
        assert test["score"] >= reference[test["name"]][0] * 2 / 3 - 1e-5, test["name"]
    assert 0 < document["score"] < dominoes_reference["score"]
    assert scores_by_group(dominoes_reference)["get_best_move"] == 40
