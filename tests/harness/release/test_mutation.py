"""Automatic mutants (cosmic-ray) and the spec-strength score of ``validate --mutation``."""
from __future__ import annotations

import pytest

from harness.paths import EQUIVALENT_MUTANTS, ROOT_ENV, solution_folder, specs_root
from harness.release import mutation
from harness.spec import SpecError

pytestmark = pytest.mark.slow

SOURCE = "def f(a, b):\n    if a < b:\n        return a + 1\n    return b\n"


def test_every_mutant_changes_one_line_and_is_identified_by_it():
    mutants = list(mutation.mutants_of("f.py", SOURCE))
    assert len(mutants) >= 10
    assert all(m.source != SOURCE and m.line in (2, 3) for m in mutants)
    changed = {m.key for m in mutants}
    assert ("f.py", "if a < b:", "if a <= b:") in changed
    assert ("f.py", "return a + 1", "return a - 1") in changed
    assert len(changed) == len(mutants)  # no two mutants make the same change


def test_the_score_leaves_declared_equivalent_mutants_out():
    report = mutation.MutationReport("x", total=10, caught=7)
    report.equivalent = [mutation.Mutant("f.py", "op", 1, "a", "b", "")] * 2
    assert report.score == pytest.approx(7 / 8)
    assert "7 of 8 mutants caught (87.5%)" in report.render()


EQUIVALENT_FILES = sorted(p.parent.name for p in
                          specs_root().glob(f"*/{EQUIVALENT_MUTANTS}"))


@pytest.mark.parametrize("assignment", EQUIVALENT_FILES)
def test_every_declared_equivalent_mutant_still_applies_to_the_solution(assignment):
    """Each declared line is still in the solution file and the declared change still makes a
    valid, different program of it (a stale declaration would hide a real survivor). Checked
    by the text, not by listing every automatic mutant: that takes minutes per assignment."""
    declared = mutation.load_equivalent(assignment)
    folder = solution_folder(assignment)
    assert declared
    for name, before, after in declared:
        source = (folder / name).read_text(encoding="utf-8")
        lines = source.splitlines()
        places = [number for number, line in enumerate(lines) if line.strip() == before]
        assert places, f"{name}: no line reads {before!r}"
        for number in places:
            indent = lines[number][:len(lines[number]) - len(lines[number].lstrip())]
            changed = [*lines[:number], indent + after, *lines[number + 1:]]
            compile("\n".join(changed), name, "exec")
            assert changed != lines


def test_a_malformed_equivalent_file_names_the_file(tmp_path, monkeypatch):
    (tmp_path / "assignments" / "x").mkdir(parents=True)
    (tmp_path / "assignments" / "x" / EQUIVALENT_MUTANTS).write_text("- {file: a.py}\n")
    monkeypatch.setenv(ROOT_ENV, str(tmp_path))
    with pytest.raises(SpecError, match="x/mutants.equivalent.yaml"):
        mutation.load_equivalent("x")


def test_a_mutant_is_caught_by_the_first_case_it_fails():
    solution = (solution_folder("adversarial_search")
                / "adversarial_search.py").read_text(encoding="utf-8")
    wrong = solution.replace("if value >= beta:", "if value > beta:")
    assert mutation.first_failure("adversarial_search", {"adversarial_search.py": wrong}, 10)


def test_a_sample_is_spread_over_all_the_mutants():
    assert mutation.spread(list(range(10)), 5) == [0, 2, 4, 6, 8]
    assert mutation.spread(list(range(3)), 5) == [0, 1, 2]
    assert mutation.spread(list(range(3)), None) == [0, 1, 2]


def test_cases_can_be_chosen_by_case_file_and_an_unknown_file_is_named():
    assignment = mutation.find_assignment("isolation")
    chosen = mutation.chosen_cases(assignment, ["01_choose_move"])
    assert chosen and all(case.id.startswith("choose_move::") for case in chosen)
    assert len(mutation.chosen_cases(assignment)) > len(chosen)
    with pytest.raises(SpecError, match="no case file named"):
        mutation.chosen_cases(assignment, ["01_choose"])


def test_cases_the_reference_fails_are_left_out_and_named():
    report = mutation.MutationReport("x", total=2, caught=2, stems=("01_a",),
                                     reference_fails=("games::long game",))
    text = report.render()
    assert "x (case files 01_a): 2 of 2" in text
    assert "not counted (the reference fails it under this cap): games::long game" in text


def test_a_spec_error_raised_in_a_worker_process_keeps_its_fields():
    import pickle
    error = pickle.loads(pickle.dumps(SpecError("f.yaml", "bad", case="c", field="x")))
    assert (error.file, error.problem, error.case, error.field) == ("f.yaml", "bad", "c", "x")
