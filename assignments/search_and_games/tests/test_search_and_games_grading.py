"""Homework 2 graded end to end through the real command line: the reference, the template and
the wrong implementations of assignments/search_and_games/mutants.yaml, which must lose exactly
their pinned cases; an independent judge, run in-process, confirms the find_solution /
find_path pins."""
from __future__ import annotations

import math
from pathlib import Path

import pytest
from gg_testing import subset_root as gg_subset_root
from search_and_games_support import SOLUTION, TEMPLATE, load_module

from assignments.search_and_games.grid import is_free, is_step, parse_scene, path_length
from assignments.search_and_games.lights_out import is_solved, press
from harness.release.validate import Check, load_mutants, matches, validate
from harness.spec import find_assignment, load_case_file

ASSIGNMENT = find_assignment("search_and_games")
MUTANTS = {mutant.name: mutant for mutant in load_mutants(ASSIGNMENT)}
CASES = {path.stem: load_case_file(path, ASSIGNMENT, number)
         for number, path in enumerate(ASSIGNMENT.case_files, 1)}
# One worker runs this module: the module fixture grades every wrong implementation (a release
# check of its own), which two workers would each repeat.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("search_and_games_mutants")]

JUDGED = {"08_find_solution": "find_solution", "09_find_path": "find_path"}
"""The case files whose answers the in-process judges below can check."""


def subset_root(folder: Path, files: list[str], generated: int | None = None) -> dict[str, str]:
    """A GAMEGRADER_ROOT holding only some case files of this assignment (for quick runs), with
    the first ``generated`` cases of each generated file if given."""
    return gg_subset_root(folder, "search_and_games", files, generated)


def failed_names(document: dict) -> set[str]:
    return {t["name"] for t in document["tests"] if t["score"] < t["max_score"]}


def title(case) -> str:
    return f"{case.group}: {case.name}"


def case_id(case) -> str:
    return f"{case.group}::{case.name}"


# --- independent judges of a mutant's answers, run in-process ----------------------------------

def _lists(rows: list[str]) -> list[list[bool]]:
    return [[c == "X" for c in row] for row in rows]


def solution_passes(module, options: dict) -> bool:
    """Whether the module's find_solution answer to ``options.board`` deserves the points."""
    answer = module.LightsOutPuzzle(_lists(options["board"])).find_solution()
    if options["length"] is None:
        sanity = options.get("sanity")
        return answer is None and (sanity is None or solution_passes(module, sanity))
    board = parse_scene("\n".join(options["board"]))
    for move in answer or []:
        board = press(board, move)
    return answer is not None and is_solved(board) and len(answer) == options["length"]


def path_passes(module, options: dict) -> bool:
    """Whether the module's find_path answer to the scene in ``options`` deserves the points."""
    scene = parse_scene("\n".join(options["scene"]))
    start, goal = tuple(options["start"]), tuple(options["goal"])
    answer = module.find_path(start, goal, _lists(options["scene"]))
    if options["length"] is None:
        sanity = options.get("sanity")
        return answer is None and (sanity is None or module.find_path(
            (0, 0), (0, 1), [[False, False]]) == [(0, 0), (0, 1)])
    return (answer is not None and answer[0] == start and answer[-1] == goal
            and all(is_free(scene, p) for p in answer)
            and all(is_step(a, b) for a, b in zip(answer, answer[1:]))
            and math.isclose(path_length(answer), options["length"], abs_tol=1e-6))


def expected_failures(rule: str, module) -> set[str]:
    """Titles of the cases that a mutant must fail under one rule of mutants.yaml."""
    if rule == "oracle_solution":
        return {title(c) for c in CASES["08_find_solution"]
                if not solution_passes(module, dict(c.options))}
    if rule == "oracle_path":
        return {title(c) for c in CASES["09_find_path"] if not path_passes(module, dict(c.options))}
    if rule == "unsolvable":
        return {title(c) for c in CASES["08_find_solution"] if c.options.get("length", 0) is None}
    raise ValueError(f"unknown rule {rule!r}")


# --- tests ---------------------------------------------------------------------------------------

def test_reference_solution_scores_full_marks(grade):
    document = grade("search_and_games", SOLUTION)
    assert document["score"] == 100
    assert [t["name"] for t in document["tests"] if t["status"] != "passed"] == []
    assert len(document["tests"]) == sum(len(cases) for cases in CASES.values())


def test_untouched_template_earns_nothing_even_where_none_is_the_answer(grade, tmp_path):
    env = subset_root(tmp_path, ["08_find_solution", "09_find_path"])
    document = grade("search_and_games", TEMPLATE, env=env)
    assert [t["name"] for t in document["tests"] if t["score"] > 0] == []
    handout = next(t for t in document["tests"]
                   if t["name"].startswith("find_path: a wall splits the scene (handout)"))
    assert "must give a valid answer before None earns points" in handout["output"]
    gated = next(t for t in document["tests"]
                 if t["name"].startswith("find_solution: unsolvable #"))
    assert "must give a valid answer before None earns points" in gated["output"]


@pytest.fixture(scope="module")
def mutant_checks() -> dict[str, Check]:
    """The release check's verdict on every wrong implementation, by name (graded once; no case
    runs longer than 4 s: the cases a mutant loses by never finishing are lost all the same; the
    slowest case a mutant does finish, plain minimax on #62 at about 1.5 s on a quiet machine,
    can overrun 4 s on a loaded one, and the release check then grades that mutant again alone
    with the specs' own limits, so the verdict is the code's)."""
    report = validate(["search_and_games"], workers=2, reference=False, timeout_cap=4)
    return {check.name.split("'")[1]: check for check in report.checks if "'" in check.name}


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_wrong_implementation_loses_exactly_its_cases(name, mutant_checks):
    check = mutant_checks[name]
    assert check.ok, check.detail


@pytest.mark.parametrize("name", sorted(name for name, mutant in MUTANTS.items()
                                        if set(mutant.files) & set(JUDGED)))
def test_pinned_answers_agree_with_an_independent_judge(name, mutate):
    """The pins of find_solution / find_path cases are exactly the answers the judge rejects."""
    mutant = MUTANTS[name]
    module = load_module(mutate(SOLUTION, list(mutant.replace)), f"mutant_{name}")
    for stem in set(mutant.files) & set(JUDGED):
        rule = "oracle_solution" if stem == "08_find_solution" else "oracle_path"
        rejected = {f"{JUDGED[stem]}::{t.split(': ', 1)[1]}"
                    for t in expected_failures(rule, module)}
        pinned = {case_id(c) for c in CASES[stem]
                  if any(matches(pattern, case_id(c)) for pattern in mutant.fails)}
        assert pinned == rejected, mutant.why


def test_a_search_that_never_ends_on_unsolvable_boards_loses_only_those(grade, mutate, tmp_path):
    mutant = mutate(SOLUTION, [("                frontier.append(child)\n        return None",
                                "                frontier.append(child)\n        while True:\n"
                                "            pass")])
    # Each unsolvable case spins out its second: two of each generated kind make the point.
    document = grade("search_and_games", mutant, timeout_cap=1,
                     env=subset_root(tmp_path / "root", ["08_find_solution"], generated=2))
    graded = {t["name"] for t in document["tests"]}
    unsolvable = expected_failures("unsolvable", None) & graded
    assert len(unsolvable) >= 3 and len(graded) > len(unsolvable)
    assert failed_names(document) == unsolvable
    timed_out = [t for t in document["tests"] if t["score"] == 0]
    assert all(t["output"].startswith("Timed out") for t in timed_out), timed_out[0]["output"]
