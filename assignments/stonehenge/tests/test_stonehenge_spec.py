"""The stonehenge spec files: they load, add up, and every strategy case ships the tree of the
position its options name. That the generated files are those the current reference makes is
the release check's (``gamegrader validate --no-mutants`` in ``.ci/run``, "generated cases up to
date": the same ``generate(check=True)``, which costs about 8 core-seconds, once per CI run)."""
from __future__ import annotations

import ast

from assignments.stonehenge.game_tree import build_tree, encode
from assignments.stonehenge.rules import Stonehenge
from harness.spec import find_assignment
from harness.spec.loader import load_all_cases

ASSIGNMENT = find_assignment("stonehenge")


def test_cases_load_and_total_100_points() -> None:
    cases = load_all_cases(ASSIGNMENT)
    assert round(sum(case.points for case in cases), 6) == ASSIGNMENT.total_points == 100
    assert len({case.id for case in cases}) == len(cases)


def test_every_board_case_feeds_the_side_length() -> None:
    for case in load_all_cases(ASSIGNMENT):
        if any("StonehengeGame(" in example.source for example in case.examples):
            assert case.stdin is not None and case.stdin.split("\n")[0].isdigit(), case.id


def test_strategy_trees_match_their_options() -> None:
    checked = 0
    for case in load_all_cases(ASSIGNMENT):
        if case.options.get("game") != "stonehenge":
            continue
        options = case.options
        game = Stonehenge(options["side"])
        position = game.initial_state({"p1": 1, "p2": 2}[options["first"]])
        for move in options["moves"]:
            position = game.play(position, move)
        loader = next(e.source for e in case.examples if "load_tree_game(" in e.source)
        shipped = ast.literal_eval(loader.split("load_tree_game(", 1)[1].rstrip().rstrip(")"))
        assert shipped == encode(build_tree(game, position, {1: "p1", 2: "p2"}, 10_000)), case.id
        checked += 1
    assert checked == 20


def test_strategy_cases_need_only_strategy_py() -> None:
    strategy_groups = {"recursive_minimax", "iterative_minimax"}
    for case in load_all_cases(ASSIGNMENT):
        assert (case.module == "strategy") == (case.group in strategy_groups), case.id
        if case.group in strategy_groups:  # nothing of stonehenge.py is used
            assert not any("StonehengeGame" in e.source for e in case.examples), case.id


def test_the_list_of_moves_is_asked_for_in_the_moves_group_only() -> None:
    # A bug in get_possible_moves is charged once, where it is (issue 18, class 11).
    for case in load_all_cases(ASSIGNMENT):
        if case.group not in {"moves", "recursive_minimax", "iterative_minimax"}:
            assert not any("get_possible_moves" in e.source for e in case.examples), case.id


def test_game_groups_score_all_or_nothing() -> None:
    compare = {case.group: case.compare for case in load_all_cases(ASSIGNMENT)}
    assert compare["captures"] == compare["make_move"] == "assignments.stonehenge.checkers:game"
    assert compare["board"] == "assignments.stonehenge.checkers:board"
