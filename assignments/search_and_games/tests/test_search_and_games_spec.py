"""The Homework 2 spec: no generated file is left over and the scene makers do what they claim.
That the generated cases are current is the release check's (``gamegrader validate
--no-mutants`` in ``.ci/run``, "generated cases up to date": the same ``generate(check=True)``)."""
from __future__ import annotations

import random

import pytest
import yaml
from search_and_games_support import SPEC_DIR

from assignments.search_and_games.grid import format_scene, is_free, neighbours
from assignments.search_and_games.scene_kinds import (
    SCENE_DIR,
    diagonal_walls_scene,
    drawn_scene,
    drawn_scene_names,
    maze_scene,
    walled_in_scene,
)
from harness.spec import find_assignment, load_case_file
from harness.spec.loader import generated_path, own_entries, precomputed_path

ASSIGNMENT = find_assignment("search_and_games")


def test_no_generated_file_is_left_from_a_removed_block():
    expected = {generated_path(path, block["id"])
                for path in ASSIGNMENT.case_files
                for block in yaml.safe_load(path.read_text()).get("generate", [])}
    expected |= {precomputed_path(path) for path in ASSIGNMENT.case_files  # precompute answers
                 if any("precompute" in entry for entry in own_entries(path))}
    assert set((SPEC_DIR / "generated").glob("*.yaml")) == expected


def test_total_points_match_the_handout():
    per_file = {path.stem: sum(c.points for c in load_case_file(path, ASSIGNMENT, number))
                for number, path in enumerate(ASSIGNMENT.case_files, 1)}
    # Lights Out 2+3+5+5+2+3+5+15 = 40, grid navigation 30, Dominoes 0 + 30.
    assert per_file == {
        "01_get_board": 2, "02_create_puzzle": 3, "03_perform_move": 5, "04_scramble": 5,
        "05_is_solved": 2, "06_copy": 3, "07_successors": 5, "08_find_solution": 15,
        "09_find_path": 30, "10_dominoes_infrastructure": 0, "11_get_best_move": 30}


def test_dominoes_cases_are_the_adversarial_search_cases_scaled():
    from harness.spec import find_assignment
    from harness.spec.loader import load_all_cases
    ours = {c.name: c for c in load_all_cases(ASSIGNMENT) if c.group.startswith(("dominoes",
                                                                                "get_best_move"))}
    theirs = load_all_cases(find_assignment("adversarial_search"))
    assert len(ours) == len(theirs) == 85
    for case in theirs:
        assert ours[case.name].examples == case.examples
        assert ours[case.name].points == case.points * (0.75 if case.points else 0)


@pytest.mark.parametrize("name", drawn_scene_names())
def test_drawn_scenes_are_in_canonical_format(name):
    assert format_scene(drawn_scene(name)) == (SCENE_DIR / f"{name}.txt").read_text()


def reachable(scene, start, steps=None):
    seen, todo = {start}, [start]
    while todo:
        point = todo.pop()
        for nxt in neighbours(scene, point):
            if (steps is None or (nxt[0] - point[0], nxt[1] - point[1]) in steps) \
                    and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def test_maze_rooms_are_all_connected():
    scene = maze_scene(random.Random(4), 11, 14)
    rooms = {(r, c) for r in range(0, 11, 2) for c in range(0, 14, 2)}
    assert all(is_free(scene, room) for room in rooms)
    assert rooms <= reachable(scene, (0, 0), steps={(-1, 0), (1, 0), (0, -1), (0, 1)})


def test_diagonal_walls_can_only_be_crossed_diagonally():
    scene = diagonal_walls_scene(6, 6, 3)
    orthogonal = {(-1, 0), (1, 0), (0, -1), (0, 1)}
    assert (5, 5) not in reachable(scene, (0, 0), steps=orthogonal)
    assert (5, 5) in reachable(scene, (0, 0))


@pytest.mark.parametrize("centre", [(0, 0), (3, 3), (6, 2)])
def test_walled_in_centre_is_unreachable(centre):
    scene = walled_in_scene(random.Random(1), 7, 7, 0.0, centre)
    assert reachable(scene, centre) == {centre}
