"""Feedback names the likely mistake: every mistake in the registry is recognised when written
into the solution file as a student would, never misnamed, and honest code gets no diagnosis.
The share over all cases is printed by bench/bench_diagnoses.py."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest
from diagnosis_support import (
    SOLUTION,
    best_move_cases,
    diagnoses_of,
    mutated_source,
    observe,
    student_edits,
)

from assignments.adversarial_search.diagnoses import MISTAKES, variants
from harness.compare.diagnosis import diagnose, with_diagnosis
from harness.records.observations import ErrorInfo
from harness.records.verdicts import Judgement, Variant

SAMPLE = best_move_cases()[:24]  # both handout cases and the first hidden ones


@pytest.mark.parametrize("description", [d for d, _ in MISTAKES], ids=lambda d: d[:40])
def test_each_mistake_is_recognised_and_never_misnamed(description):
    found = diagnoses_of(mutated_source(student_edits(description)), SAMPLE)
    assert found, "the mistake should fail some of the sample cases"
    named = [d for _, _, d in found if d]
    assert all(description in d for d in named), [d for d in named if description not in d][:2]
    alone = [d for d in named if "each of these" not in d]
    assert alone, "at least one case should point at this mistake alone"
    assert len(named) >= len(found) // 2


def test_honest_solutions_fail_nothing_so_get_no_diagnosis():
    honest_b = (SOLUTION.parents[3] / "tests" / "insights" / "data" / "honest_b"
                / "adversarial_search.py")
    assert diagnoses_of(SOLUTION.read_text(encoding="utf-8"), SAMPLE) == []
    assert diagnoses_of(honest_b.read_text(encoding="utf-8"), SAMPLE) == []


def test_two_mistakes_giving_the_same_answers_are_named_together_and_three_not_at_all():
    case = SAMPLE[0]
    observations = observe(case, mutated_source(student_edits(MISTAKES[0][0])))
    right = variants()[0]
    twin = Variant("a twin mistake", right.namespace)
    assert "each of these" in diagnose(case, observations, [right, twin])
    assert diagnose(case, observations, [right, twin, twin]) == ""


def test_an_answer_that_raised_or_showed_nothing_is_not_replayed():
    """No mistake answers with an error or with nothing, so no variant is replayed (a stub that
    raises NotImplementedError would otherwise pay for every variant's search)."""
    case = SAMPLE[0]
    answers = observe(case, mutated_source(student_edits(MISTAKES[0][0])))
    right = variants()[0]
    assert diagnose(case, answers, [right]) != ""  # the same answers, replayed, match

    replays = []

    def counted() -> dict:
        replays.append(1)
        return right.namespace()

    last = len(answers) - 1
    raised = [*answers[:last], replace(answers[last], error=ErrorInfo("RuntimeError", "x"))]
    silent = [*answers[:last], replace(answers[last], value=None, has_value=False)]
    for judged in (raised, silent):
        assert diagnose(case, judged, [Variant("a mistake", counted)]) == ""
    assert replays == []


def test_a_diagnosis_never_reveals_the_expected_value_of_a_hidden_case():
    hidden = [c for c in SAMPLE if not c.visibility.reveals_expected]
    source = mutated_source(student_edits(MISTAKES[0][0]))
    texts = [(diagnose(case, observe(case, source), variants()),
              case.examples[-1].want.strip()) for case in hidden]
    assert sum(1 for text, _ in texts if text) >= 3
    assert all(expected not in text for text, expected in texts)


def test_a_broken_registry_never_costs_the_case():
    judgement = Judgement(0.5, "move right; value wrong")
    broken = replace(SAMPLE[0], diagnose="assignments.adversarial_search.diagnoses:nothing_here")
    assert with_diagnosis(judgement, broken, []) == judgement


@pytest.mark.slow
def test_the_grader_adds_the_diagnosis_to_the_feedback(grade, tmp_path):
    student = tmp_path / "adversarial_search.py"
    student.write_text(mutated_source(student_edits(MISTAKES[0][0])), encoding="utf-8")
    document = grade("adversarial_search", student, timeout_cap=10)
    failed = [t for t in document["tests"] if t["status"] != "passed"]
    diagnosed = [t for t in failed if "Likely mistake" in t["output"]]
    assert failed and len(diagnosed) == len(failed)
    assert all("stopping one ply before the limit" in t["output"] for t in diagnosed)
    json.dumps(document)  # still plain JSON


def test_the_grader_s_replays_are_done_once_per_host_and_name_the_same_mistake(
        tmp_path, monkeypatch):
    """In a batch every student failing a case needs the same replays: the grader's are kept
    (harness.compare.replays), and a kept replay names exactly what a fresh one names."""
    monkeypatch.setenv("GAMEGRADER_CACHE", str(tmp_path))
    case = SAMPLE[0]
    answers = observe(case, mutated_source(student_edits(MISTAKES[0][0])))
    replays: list[str] = []

    def counted(variant: Variant) -> Variant:
        def namespace() -> dict:
            replays.append(variant.description)
            return variant.namespace()
        return Variant(variant.description, namespace)

    fresh = diagnose(case, answers, variants())
    assert MISTAKES[0][0] in fresh
    assert diagnose(case, answers, [counted(v) for v in variants()], cached=True) == fresh
    assert len(replays) == len(variants())
    assert diagnose(case, answers, [counted(v) for v in variants()], cached=True) == fresh
    assert len(replays) == len(variants())  # every answer came from the cache
    twins = [counted(variants()[0]), counted(Variant(variants()[0].description, dict))]
    diagnose(case, answers, twins, cached=True)  # one description, two namespaces: not kept
    assert len(replays) == len(variants()) + 2


SHALLOW_COPY = [("DominoesGame(copy.deepcopy(self.board))",
                 "DominoesGame([row for row in self.board])")]
"""A copy that shares its rows (a common student mistake no registered one is): each search
spoils the boards of the ones after it, and on a few boards the answers happen to be what some
registered mistake gives."""


@pytest.mark.slow
def test_a_mistake_matching_a_few_boards_by_coincidence_is_not_named(grade, tmp_path):
    """Issue 50: the feedback named several different mistakes on 12 of 60 boards; none is
    singled out by the group's answers, so none is named."""
    student = tmp_path / "adversarial_search.py"
    student.write_text(mutated_source(SHALLOW_COPY), encoding="utf-8")
    document = grade("adversarial_search", student, timeout_cap=10)
    failed = [t for t in document["tests"] if t["status"] != "passed"]
    assert len(failed) >= 20
    assert not [t["name"] for t in failed if "Likely mistake" in t["output"]]
