"""The Dominoes assignment graded end to end through the real command line."""
from __future__ import annotations

import pytest
import yaml
from gg_testing import ROOT, scores_by_group

SOLUTION = ROOT / "assignments/adversarial_search/solution/adversarial_search.py"
TEMPLATE = ROOT / "assignments/adversarial_search/template/adversarial_search.py"
# The wrong implementations and the points each loses (out of 40), pinned from a graded run;
# `gamegrader validate` also checks exactly which cases each one fails.
MUTANTS = yaml.safe_load((ROOT / "assignments/adversarial_search/mutants.yaml").read_text())
EXPECTED_LOSS = {name: mutant["lost"] for name, mutant in MUTANTS.items()}


def test_the_wrong_implementations_of_the_issues_are_pinned():
    assert set(MUTANTS) == {"depth_off_by_one", "prune_on_strict_inequality",
                            "swapped_evaluation_sign", "column_major_move_order",
                            "leaf_counted_twice", "negative_row_or_column_wraps",
                            "constant_first_square", "constant_no_move",
                            "first_legal_move_unsearched"}
    assert EXPECTED_LOSS["leaf_counted_twice"] == 13.3333  # a third of 40: every leaf count wrong
    assert EXPECTED_LOSS["constant_no_move"] == 40  # issue 39: a constant answer earns nothing


@pytest.mark.slow
def test_reference_solution_scores_full_marks(grade):
    document = grade("adversarial_search", SOLUTION)
    assert document["score"] == 40
    assert all(test["status"] == "passed" for test in document["tests"])
    assert len(document["tests"]) == 20 + 2 + 62 + 1  # the last: the mirror image


@pytest.mark.slow
def test_untouched_template_scores_zero_on_every_get_best_move_case(grade):
    document = grade("adversarial_search", TEMPLATE)
    best_move = [t for t in document["tests"] if t["name"].startswith("get_best_move")]
    assert len(best_move) == 65
    assert all(t["score"] == 0 and t["status"] == "failed" for t in best_move)
    assert document["score"] == 0
    assert "expected a tuple of 3" in best_move[0]["output"]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_wrong_implementation_loses_exactly_its_points(name, grade, mutate):
    mutant = mutate(SOLUTION, [tuple(pair) for pair in MUTANTS[name]["replace"]])
    document = grade("adversarial_search", mutant)
    assert round(40 - document["score"], 4) == round(EXPECTED_LOSS[name], 4), \
        MUTANTS[name]["why"]
    assert scores_by_group(document).get("infrastructure", 0) == 0  # 0-point section


@pytest.mark.slow
def test_leaf_only_feedback_names_what_is_right_without_revealing_hidden_values(grade, mutate):
    mutant = mutate(SOLUTION, [("leaves[0] += 1", "leaves[0] += 2")])
    document = grade("adversarial_search", mutant)
    visible = next(t for t in document["tests"] if t["visibility"] == "visible"
                   and t["name"].startswith("get_best_move"))
    assert "move right; value right; leaf count wrong (expected 6, got 12)" in visible["output"]
    hidden = [t for t in document["tests"] if t["visibility"] != "visible"]
    assert hidden and all("expected" not in t["output"].split("\n", 2)[-1].split("differs")[0]
                          for t in hidden)
    sample = hidden[5]["output"]
    assert "move right; value right; leaf count differs (yours:" in sample
    assert "higher than the reference's" in sample


@pytest.mark.slow
def test_leaf_feedback_for_hidden_cases_never_contains_the_expected_count(grade, mutate):
    from assignments.adversarial_search.generators import best_move  # noqa: F401 (oracle import)
    generated = yaml.safe_load((ROOT / "assignments/adversarial_search/generated/"
                                "02_get_best_move.random_boards.yaml").read_text())
    expected_counts = {c["name"]: c["doctest"].strip().splitlines()[-1] for c in generated["cases"]}
    mutant = mutate(SOLUTION, [("leaves[0] += 1", "leaves[0] += 3")])
    document = grade("adversarial_search", mutant)
    for test in document["tests"]:
        name = test["name"].split(": ", 1)[1]
        if name in expected_counts:
            assert expected_counts[name] not in test["output"]
