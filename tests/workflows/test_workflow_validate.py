"""``gamegrader validate``: the release check passes on a sound tree and names each problem in a
broken one. Runs on a small copy of the Dominoes spec (handout cases plus two generated ones)."""
from __future__ import annotations

import threading
from pathlib import Path

import pytest
import yaml
from gg_testing import ROOT
from workflow_support import ASSIGNMENT, gamegrader

import harness.release.validate
from harness.batch.jobs import JobResult, read_files
from harness.release.validate import (
    Mutant,
    load_mutants,
    mutant_files,
    mutant_problems,
    mutants_path,
    subset_root,
    validate,
)
from harness.spec import find_assignment, list_assignments
from harness.spec.loader import load_all_cases

pytestmark = pytest.mark.slow

ASSIGNMENTS = list_assignments()

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
    case_file = folder / "assignments" / ASSIGNMENT / "cases" / "02_get_best_move.yaml"
    cases = yaml.safe_load(case_file.read_text())
    cases["generate"] = [{**cases["generate"][0], "count": 2, "seed": 7}]  # no mirror image
    case_file.write_text(yaml.safe_dump(cases, sort_keys=False))
    for stale in (folder / "assignments" / ASSIGNMENT / "generated").glob("*.shown_image.yaml"):
        stale.unlink()
    (folder / "assignments" / ASSIGNMENT / "mutants.yaml").write_text(yaml.safe_dump(MUTANTS))
    env = {"GAMEGRADER_ROOT": str(folder)}
    assert gamegrader("generate", ASSIGNMENT, env=env).returncode == 0
    return env


def test_validate_passes_a_sound_tree_and_names_every_problem_of_a_broken_one(tmp_path):
    env = small_tree(tmp_path)
    sound = gamegrader("validate", ASSIGNMENT, "--mutant", "leaf_counted_twice", env=env)
    assert sound.returncode == 0, sound.stdout + sound.stderr[-2000:]
    assert sound.stdout.splitlines()[-1] == "4 passed, 0 failed"
    assert "OK   adversarial_search: reference solution passes every case" in sound.stdout

    generated = next((tmp_path / "assignments" / ASSIGNMENT / "generated").glob("*.yaml"))
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


def test_a_variant_s_generated_files_are_checked_once_with_the_assignment_whose_cases_it_uses(
        monkeypatch):
    # othello_2025's case files are othello's, and generated files are rendered from the case
    # files alone: regenerating them again cost tens of core-seconds in every CI run
    assert find_assignment("othello_2025").case_files == find_assignment("othello").case_files
    generated: list[str] = []
    stale = {"othello": [Path("02_minimax.random_positions.yaml")], "othello_valuefn": []}

    def fake_generate(assignment, *, check=False):
        assert check
        generated.append(assignment.name)
        return stale[assignment.name]

    monkeypatch.setattr(harness.release.validate, "generate", fake_generate)
    report = validate(["othello", "othello_2025", "othello_valuefn"], mutants=False,
                      reference=False)
    assert generated == ["othello", "othello_valuefn"]
    checks = {c.assignment: c for c in report.checks if c.name == "generated cases up to date"}
    assert {name: check.ok for name, check in checks.items()} == {
        "othello": False, "othello_2025": False, "othello_valuefn": True}
    assert checks["othello_2025"].detail == "the case files of othello, checked above"


@pytest.mark.parametrize("name", ASSIGNMENTS)
def test_every_assignment_has_wrong_implementations_whose_edits_apply(name):
    assignment = find_assignment(name)
    mutants = load_mutants(assignment)
    assert len(mutants) >= 5
    solution, _, _ = read_files(ROOT / "assignments" / name / "solution")
    stems = {path.stem for path in assignment.case_files}
    for mutant in mutants:
        edited = mutant_files(mutant, solution, mutants_path(name))
        assert edited[mutant.file] != solution[mutant.file], mutant.name
        assert set(mutant.files) <= stems, mutant.name
        assert len(set(mutant.replace)) == len(mutant.replace), mutant.name


def test_a_case_subset_keeps_the_cases_it_includes_from_another_assignment(tmp_path):
    root = subset_root(find_assignment("search_and_games"), ["11_get_best_move"], tmp_path)
    copy = find_assignment("search_and_games", root / "assignments")
    cases = load_all_cases(copy)
    whole = load_all_cases(find_assignment("search_and_games"))
    assert {case.group for case in cases} == {"get_best_move"}
    assert sorted(c.id for c in cases) == sorted(c.id for c in whole if c.group == "get_best_move")


def _document(*tests):
    return {"score": sum(t[2] for t in tests), "tests": [
        {"name": f"{group}: {case}", "max_score": most, "score": got,
         "status": "passed" if got == most else "failed", "output": output,
         "extra_data": {"case_id": f"{group}::{case}"}}
        for group, case, got, most, output in tests]}


def _mutant(**fields):
    entry = {"why": "w", "replace": [["a", "b"]], "fails": ["board::*"], **fields}
    return Mutant("m", entry["why"], "f.py", (("a", "b"),), (), tuple(entry["fails"]),
                  entry.get("lost"), tuple(entry.get("feedback", ())))


def test_a_mutant_is_judged_by_its_losses_per_group_and_its_feedback():
    document = _document(("board", "side 1", 0.5, 1, "wrong picture"),
                         ("board", "side 2", 1, 1, ""), ("moves", "list", 2, 2, ""))
    assert mutant_problems(_mutant(lost={"board": 0.5}, feedback=["picture"]), document) == []
    problems = mutant_problems(_mutant(lost={"board": 1, "moves": 0.5}, feedback=["nowhere"]),
                               document)
    assert problems[:3] == ["lost 0.5 points in board, expected 1",
                            "lost 0 points in moves, expected 0.5",
                            "no failed case's feedback shows 'nowhere'"]
    assert mutant_problems(_mutant(fails=["moves::*"]), document)[:2] == [
        "expected to fail but passed: moves::*", "failed but not listed: board::side 1"]


def _graded(verdict: str) -> dict:
    passed = verdict == "PASSED"
    return {"score": int(passed), "extra_data": {"final": True}, "tests": [
        {"name": "get_best_move: a case", "max_score": 1, "score": int(passed),
         "status": "passed" if passed else "failed", "output": "",
         "extra_data": {"case_id": "get_best_move::a case", "verdict": verdict}}]}


def test_a_grading_that_ran_out_of_time_is_judged_again_alone_with_the_specs_limits(
        monkeypatch):
    """The reference times out under load the first time; the wrong implementation passes a
    case it must fail (a real problem, not the machine's): only the reference is graded again,
    one at a time and uncapped, and that second verdict stands."""
    rounds: list[tuple[int, list]] = []
    first = {"reference": "TIMED_OUT", "depth_off_by_one": "PASSED"}

    def fake_run_local(jobs, workers, on_done, work, pin=False):
        rounds.append((workers, list(jobs)))
        for job in jobs:
            kind = job.key.split("--")[1]
            verdict = first[kind] if len(rounds) == 1 else "PASSED"
            on_done(JobResult(job.key, _graded(verdict), "", 1.0))

    monkeypatch.setattr(harness.release.validate, "run_local", fake_run_local)
    report = validate([ASSIGNMENT], workers=2, timeout_cap=4,
                      only_mutants=("depth_off_by_one",))
    assert [(w, [(j.key, j.timeout_cap) for j in jobs]) for w, jobs in rounds] == [
        (2, [(f"{ASSIGNMENT}--reference", 4), (f"{ASSIGNMENT}--depth_off_by_one", 4)]),
        (1, [(f"{ASSIGNMENT}--reference", None)])]
    verdicts = {check.name: check for check in report.checks}
    assert verdicts["reference solution passes every case"].ok
    wrong = verdicts["wrong implementation 'depth_off_by_one' fails exactly its cases"]
    assert not wrong.ok and "graded a second time" not in wrong.detail


def test_a_check_that_still_fails_when_graded_again_says_so(monkeypatch):
    def always_timed_out(jobs, workers, on_done, work, pin=False):
        for job in jobs:
            on_done(JobResult(job.key, _graded("TIMED_OUT"), "", 1.0))

    monkeypatch.setattr(harness.release.validate, "run_local", always_timed_out)
    report = validate([ASSIGNMENT], workers=2, mutants=False)
    reference = next(c for c in report.checks if c.name.startswith("reference"))
    assert not reference.ok
    assert reference.detail.startswith("failed: get_best_move::a case")
    assert "graded a second time, alone and with the specs' own time limits" in reference.detail


def test_the_generated_files_are_checked_while_the_references_are_graded(monkeypatch):
    # the checks took a minute of one CPU for Othello's and Isolation's cases, before any
    # grading started: in CI they now overlap the gradings (which wait on games' clocks)
    grading = threading.Event()
    waited: list[bool] = []

    def generate_once_a_grading_runs(assignment, *, check=False):
        waited.append(grading.wait(timeout=30))  # on the code before, never set: 30 s, False
        return []

    def fake_run_local(jobs, workers, on_done, work, pin=False):
        grading.set()
        for job in jobs:
            on_done(JobResult(job.key, _graded("PASSED"), "", 1.0))

    monkeypatch.setattr(harness.release.validate, "generate", generate_once_a_grading_runs)
    monkeypatch.setattr(harness.release.validate, "run_local", fake_run_local)
    report = validate([ASSIGNMENT, "search_and_games"], workers=2, mutants=False)
    assert waited == [True, True]
    assert [(c.assignment, c.name) for c in report.checks] == [
        (name, check) for name in (ASSIGNMENT, "search_and_games") for check in (
            "specs parse", "generated cases up to date", "reference solution passes every case")]
    assert report.ok


@pytest.mark.parametrize(("assignment", "measured"), [("stonehenge", True),
                                                      ("adversarial_search", False)])
def test_the_release_check_finds_the_speed_before_its_gradings_when_a_limit_is_relative(
        monkeypatch, assignment: str, measured: bool) -> None:
    """As ``gamegrader batch`` does: measured while the gradings keep every CPU busy, the speed
    would be a busy measurement, kept only briefly."""
    events: list[str] = []

    def fake_run_local(jobs, workers, on_done, work, pin=False):
        events.append(f"{len(jobs)} jobs")
        for job in jobs:
            on_done(JobResult(job.key, _graded("PASSED"), "", 1.0))

    monkeypatch.setattr(harness.release.validate, "find_speed_ahead",
                        lambda: events.append("speed"))
    monkeypatch.setattr(harness.release.validate, "run_local", fake_run_local)
    # not what is asserted, and Stonehenge's cases took 8 core-seconds to generate again
    monkeypatch.setattr(harness.release.validate, "generate", lambda assignment, check: [])
    validate([assignment], workers=2, mutants=False)
    assert events == (["speed", "1 jobs"] if measured else ["1 jobs"])
