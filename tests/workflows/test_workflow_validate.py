"""``gamegrader validate``: the release check passes on a sound tree and names each problem in a
broken one. Runs on a small copy of the Dominoes spec (handout cases plus two generated ones)."""
from __future__ import annotations

from pathlib import Path

import yaml
from workflow_support import ASSIGNMENT, SOLUTION, gamegrader

from harness.spec import find_assignment
from harness.validate import MUTANTS_FOLDER, load_mutants, subset_root

MUTANTS = {
    "leaf_counted_twice": {
        "why": "every leaf counted twice: every get_best_move case fails",
        "replace": [["leaves[0] += 1", "leaves[0] += 2"]],
        "fails": ["get_best_move::*"],
        "lost": 3,  # a third of each case: the leaf count is one of three components
    },
    "swapped_sign_pinned_wrongly": {
        "why": "pinned to the first handout case only, but the second fails too",
        "replace": [["return game.evaluate(vertical), None",
                     "return game.evaluate(not vertical), None"]],
        "fails": ["get_best_move::empty 3x3 board, vertical, limits 1 and 2 (handout)",
                  "get_best_move::#*"],
    },
    "edit_that_does_not_apply": {
        "why": "the text is not in the solution",
        "replace": [["this text is nowhere", "x"]],
        "fails": ["get_best_move::*"],
    },
}


def small_tree(folder: Path) -> dict[str, str]:
    """A GAMEGRADER_ROOT: the handout cases, a 2-case generate block, and MUTANTS."""
    subset_root(find_assignment(ASSIGNMENT), ["02_get_best_move"], folder)
    case_file = folder / "test_specs" / ASSIGNMENT / "cases" / "02_get_best_move.yaml"
    cases = yaml.safe_load(case_file.read_text())
    cases["generate"][0].update(count=2, seed=7)
    case_file.write_text(yaml.safe_dump(cases, sort_keys=False))
    (folder / MUTANTS_FOLDER).mkdir(parents=True)
    (folder / MUTANTS_FOLDER / f"{ASSIGNMENT}.yaml").write_text(yaml.safe_dump(MUTANTS))
    env = {"GAMEGRADER_ROOT": str(folder)}
    assert gamegrader("generate", ASSIGNMENT, env=env).returncode == 0
    return env


def test_validate_passes_a_sound_tree_and_names_every_problem_of_a_broken_one(tmp_path):
    env = small_tree(tmp_path)
    sound = gamegrader("validate", ASSIGNMENT, "--mutant", "leaf_counted_twice", env=env)
    assert sound.returncode == 0, sound.stdout + sound.stderr[-2000:]
    assert sound.stdout.splitlines()[-1] == "4 passed, 0 failed"
    assert "OK   adversarial_search: reference solution passes every case" in sound.stdout

    generated = next((tmp_path / "test_specs" / ASSIGNMENT / "generated").glob("*.yaml"))
    data = yaml.safe_load(generated.read_text())
    first = data["cases"][0]
    first["doctest"] = first["doctest"].rstrip("\n").rsplit("\n", 1)[0] + "\n((9, 9), 99, 99)\n"
    generated.write_text(yaml.safe_dump(data, sort_keys=False))  # a hand edit: never allowed

    broken = gamegrader("validate", ASSIGNMENT, env=env)
    assert broken.returncode == 1
    lines = broken.stdout
    assert "FAIL adversarial_search: generated cases up to date" in lines
    assert f"{generated}" in lines
    assert "FAIL adversarial_search: reference solution passes every case" in lines
    assert f"failed: get_best_move::{first['name']}" in lines
    # The hand-edited expected value costs this mutant the whole case instead of a third of it.
    assert "FAIL adversarial_search: wrong implementation 'leaf_counted_twice'" in lines
    assert "lost 3.3333 points, expected 3" in lines
    assert "FAIL adversarial_search: wrong implementation 'swapped_sign_pinned_wrongly'" in lines
    assert ("failed but not listed: get_best_move::3x3 board after (0, 1) vertical, "
            "horizontal, limits 1 and 2 (handout)") in lines
    assert "FAIL adversarial_search: wrong implementation 'edit_that_does_not_apply' is well " \
           "formed" in lines
    assert "'this text is nowhere'" in lines and "replace[0]" in lines


def test_the_repository_mutants_file_is_well_formed_and_every_edit_applies():
    assignment = find_assignment(ASSIGNMENT)
    mutants = load_mutants(assignment)
    assert len(mutants) >= 5
    text = SOLUTION.read_text()
    for mutant in mutants:
        assert mutant.file == SOLUTION.name and mutant.lost is not None and mutant.fails
        assert all(old in text for old, _ in mutant.replace), mutant.name
