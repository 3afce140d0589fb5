"""The Othello agent-API variants (othello_2025, othello_valuefn, othello_colour): each untouched
template earns what an empty submission should, an agent written for one variant is told in the
preflight which function does not fit another's API, and the variants' cases are othello's
positions and answers written in their own call forms. That each reference earns full marks is
the release check's (``gamegrader validate --no-mutants``, run by ``.ci/run``); here honest
agents of othello_valuefn and othello_2025 earn full marks (below, and in
tests/fairness/test_othello_fairness.py), and test_othello_unseen_code.py (here) grades
an unseen-style othello_colour agent."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from gg_testing import ROOT, run_gamegrader, without_ladder

from assignments.othello.checkers import judge_value
from harness.spec import find_assignment

pytestmark = pytest.mark.slow

VARIANTS = ["othello_2025", "othello_valuefn", "othello_colour"]


def solution(name: str) -> Path:
    return ROOT / "assignments" / name / "solution" / "agent.py"


def template(name: str) -> Path:
    return ROOT / "assignments" / name / "template" / "agent.py"


def failed(document: dict[str, Any]) -> list[str]:
    return [f"{t['name']}: {t.get('output', '')[:300]}" for t in document["tests"]
            if t["score"] < t["max_score"]]


@pytest.mark.parametrize("name", VARIANTS)
def test_the_untouched_variant_template_earns_at_most_two_percent(name, grade):
    document = grade(name, template(name))
    total = sum(test["max_score"] for test in document["tests"])
    assert total == pytest.approx(100)
    assert document["score"] <= 0.02 * total, [t["name"] for t in document["tests"]
                                                if t["score"] > 0]


@pytest.mark.parametrize(("agent", "spec", "expected"), [
    ("othello", "othello_colour",
     "minimax_max_node has a changed signature: the handout fixes minimax_max_node(board, color);"),
    ("othello_colour", "othello_valuefn",
     "select_move_alphabeta has a changed signature: the handout fixes "
     "select_move_alphabeta(value_fn, board, color, limit, caching, ordering);"),
    ("othello_valuefn", "othello_2025", "your file imports src"),
])
def test_an_agent_of_another_variant_is_told_which_api_does_not_fit(agent, spec, expected,
                                                                    grade):
    document = grade(spec, solution(agent))
    assert expected in document["output"]
    assert "Traceback" not in str(document)
    searches = [t for t in document["tests"] if t["name"].split(":")[0] in ("minimax", "alphabeta")]
    assert searches and all(t["score"] == 0 for t in searches)
    # othello's alphabeta_min_node(board, color, alpha, beta, limit, caching=0, ordering=0) can
    # take the colour starter's proposed (board, color, alpha, beta, level, limit) calls, so
    # its cases run, and fail with the TypeError that names the missing argument (issue 50)
    assert all("Not run" in t["output"] or "TypeError" in t["output"] for t in searches)


def _cases(path: Path) -> list[dict[str, Any]]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))["cases"]  # type: ignore[no-any-return]


@pytest.mark.parametrize("generated", sorted(
    p.name for p in (ROOT / "assignments" / "othello_valuefn" / "generated").glob("*.yaml")))
def test_value_fn_cases_are_othellos_with_the_evaluation_passed_first(generated):
    ours = _cases(ROOT / "assignments" / "othello_valuefn" / "generated" / generated)
    theirs = _cases(ROOT / "assignments" / "othello" / "generated" / generated)
    assert [c["options"] for c in ours] == [c["options"] for c in theirs]
    assert [c["doctest"].replace("(compute_utility, ", "(") for c in ours] == \
        [c["doctest"] for c in theirs]
    assert all("(compute_utility, board" in c["doctest"]
               or "(compute_utility, other" in c["doctest"] for c in ours)


VALUE = {"shape": "value", "value": -6, "moves": [[0, 1]], "color": 1}


@pytest.mark.parametrize(("returned", "fraction"), [
    (-6, 1.0), (-6.0, 1.0), (((0, 1), -6), 1.0), ([[3, 2], -6], 1.0),
    (0, 0.0), (-5, 0.0), (None, 0.0), (True, 0.0), ("-6", 0.0),
])
def test_a_colour_only_node_is_graded_on_its_number(returned, fraction):
    assert judge_value(returned, VALUE, reveal=False)[0] == fraction


def test_the_variants_share_othellos_starter_modules_instead_of_copying_them():
    for name in VARIANTS:
        support = {path.name: path for path in find_assignment(name).support_files}
        for module in ("othello_shared.py", "othello_game.py", "randy_ai.py"):
            same = ROOT / "assignments" / "othello" / "template" / module
            assert support[module].resolve() == same.resolve()


@pytest.mark.parametrize(("name", "extra", "settings"), [
    ("othello_colour", [], "othello: 4x4, alpha-beta, no depth limit"),
    ("othello_valuefn", ["--set", "size=4"], "othello: 4x4, alpha-beta, depth limit 4"),
])
def test_a_variant_agent_plays_a_tournament_through_its_own_arena(name, extra, settings,
                                                                   tmp_path):
    done = run_gamegrader("tournament", name, f"agent={solution(name)}", "house:random",
                          *extra, "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert settings in done.stderr
    games = json.loads((tmp_path / "results.json").read_text())["games"]
    assert len(games) == 2 and all(g["reason"] == "no_moves" and g["moves"] for g in games)


def test_an_honest_value_fn_agent_written_differently_gets_full_marks(grade, mutate, tmp_path):
    # as students write it: the cache keyed by the board alone, node answers as [move, value];
    # depth-limit leaves are not stored (keyed by the board alone, a stored leaf's None move
    # would come back as a later turn's root at an even limit: issue 39, item 1)
    honest = mutate(solution("othello_valuefn"), [
        ("state_cache.get((board, color if kind == \"max\" else 3 - color, limit, kind))",
         "state_cache.get(board)"),
        ("    if caching:\n        state_cache[",
         "    if caching and limit != 0:\n        state_cache["),
        ("state_cache[(board, color if kind == \"max\" else 3 - color, limit, kind)] = answer",
         "state_cache[board] = answer"),
        ("return best_move, best", "return [best_move, best]"),
    ], name="agent.py")
    # every case but the games' hidden twins with other seeds (gg_testing.without_ladder)
    document = grade("othello_valuefn", honest,
                     env=without_ladder(tmp_path / "root", "othello_valuefn"))
    assert document["score"] > 0 and failed(document) == []
