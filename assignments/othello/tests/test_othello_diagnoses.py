"""Feedback names the likely mistake in the Othello node and select functions: each mistake of
assignments/othello/diagnoses.py, written into the reference agent as a student would, is
recognised and never misnamed. Honest agents fail nothing, so get none: a diagnosis is only
looked for on a failed case, and tests/fairness/test_othello_fairness.py grades the reference and
each honest agent and asserts every case's score and the absence of any diagnosis. The shares
over every case are printed by ``bench/bench_diagnoses.py othello``."""
from __future__ import annotations

import dataclasses

import pytest
from gg_diagnosis import diagnoses_of, observe
from othello_diagnosis_support import SOLUTION, STARTER, search_cases, student_source
from othello_support import grade_cases

from assignments.othello.agent import ReferenceAgent
from assignments.othello.diagnoses import MISTAKES, NO_PRUNING, ordering_variants, variants
from harness.compare.diagnosis import diagnose
from harness.records.observations import Observation
from harness.records.verdicts import Variant
from reference.core.counters import BudgetCounter, WorkBudgetExceeded

# One worker runs this module: the tests of the other mistakes, which fail the same cases, find
# each mistake's replay of a case in the run's replay cache; on two workers both searched it.
pytestmark = pytest.mark.xdist_group("othello_diagnoses")

SAMPLE = [c for c in search_cases() if c.visibility.reveals_expected]
"""The visible cases: every mistake fails some of them, and they are few enough for a loaded
machine."""


@pytest.mark.parametrize("mistake", MISTAKES, ids=lambda m: m.description[:40])
def test_each_mistake_is_recognised_and_never_misnamed(mistake):
    found = diagnoses_of(SAMPLE, student_source(mistake.description), STARTER)
    assert found, "the mistake should fail some of the sample cases"
    named = [d for _, _, d in found if d]
    assert all(mistake.description in d for d in named), \
        [d for d in named if mistake.description not in d][:2]
    if mistake.alone:
        # named only where the case tells it from every other mistake (issue 39, item 7)
        assert not any("each of these" in d for d in named), named
    else:
        assert any("each of these" not in d for d in named), "no case names this mistake alone"


ORDERING_MISTAKES = [m for m in MISTAKES if m.alone]


def test_ordering_mistakes_that_choose_alike_are_never_named():
    """Issue 39, item 7: an agent that never orders was told "ordering reversed" on a case whose
    own message said it stopped at the first move in column order. Where two known mistakes
    give the same answers and one of them is named only alone, nothing is named."""
    ordering = [c for c in search_cases() if c.group == "ordering"]
    ignored, reversed_ = (next(m for m in ORDERING_MISTAKES if m.description.startswith(start))
                          for start in ("alpha-beta that does not order",
                                        "alpha-beta ordering successors lowest"))
    source = student_source(ignored.description)
    twins = 0
    for case in ordering:
        answers = observe(case, source, STARTER)
        alike = [v for v in variants() if v.description in (ignored.description,
                                                             reversed_.description)]
        both = diagnose(case, answers, alike)
        alone = diagnose(case, answers, [v for v in alike if v.description == ignored.description])
        assert "ordering successors lowest" not in both
        if not both:
            twins += alone != ""  # each alone is named, the two together are not
    assert twins >= 1, "no ordering case where the two choose alike"


def test_a_mistake_named_only_alone_is_not_named_with_a_twin():
    first = Variant("first", lambda: {"f": lambda: 1})
    twin = Variant("twin", lambda: {"f": lambda: 1}, alone=True)
    probe = dataclasses.replace(SAMPLE[0], examples=[
        dataclasses.replace(SAMPLE[0].examples[0], source="f()", want="1")])
    answers = [Observation(value=1, has_value=True)]
    assert "first" in diagnose(probe, answers, [first])
    assert "twin" in diagnose(probe, answers, [twin])
    assert "each of these" in diagnose(probe, answers, [first, Variant("other", first.namespace)])
    assert diagnose(probe, answers, [first, twin]) == ""


def test_a_diagnosis_never_reveals_the_expected_answer_of_a_hidden_case():
    hidden = [c for c in search_cases() if c.group == "minimax"
              and not c.visibility.reveals_expected][:4]
    source = student_source(MISTAKES[0].description)
    texts = [diagnose(case, observe(case, source, STARTER), variants()) for case in hidden]
    assert sum(1 for text in texts if text) >= 3
    for case, text in zip(hidden, texts):
        wanted = [e.want.strip() for e in case.examples if e.want.strip()]
        moves = [f"({col}, {row})" for a in case.options["answers"] for col, row in a["moves"]]
        assert not any(piece in text for piece in wanted + moves), text
        assert not any(character.isdigit() for character in text), text


@pytest.mark.slow  # starts processes
def test_the_grader_adds_the_diagnosis_to_the_feedback(mutate, tmp_path):
    agent = tmp_path / "agent.py"
    agent.write_text(student_source(MISTAKES[1].description), encoding="utf-8")
    document = grade_cases(agent, tmp_path / "r.json", "04_depth_limit.yaml", keyword="start")
    failed = [t for t in document["tests"] if t["status"] != "passed"]
    assert len(failed) == 4  # the handout's start for each search, and its mirror image
    assert all("Likely mistake: your answers are exactly what a search that stops one ply "
               "before the limit" in t["output"] for t in failed)


def test_a_replay_that_outgrows_its_work_budget_stops_and_does_not_match():
    start = ((0, 0, 0, 0), (0, 2, 1, 0), (0, 1, 2, 0), (0, 0, 0, 0))
    agent = ReferenceAgent(counter=BudgetCounter(50))
    with pytest.raises(WorkBudgetExceeded):
        agent.minimax_max_node(start, 1, -1)
    # A full-depth case of minimax_max_node, _min_node and select_move whose replay is 50
    # positions' work (the first search 20): a budget stops a replay the same way on any case,
    # and the 4x4 start's replay alone cost 2.4 CPU-s (370 000 positions).
    case = next(c for c in SAMPLE if c.group == "minimax" and "8 moves in" in c.id)
    answers = observe(case, SOLUTION.read_text(encoding="utf-8"), STARTER)

    def textbook(budget):
        agent = ReferenceAgent(counter=BudgetCounter(budget))
        return Variant("the textbook", lambda: {
            name: getattr(agent, name) for name in
            ("minimax_max_node", "minimax_min_node", "select_move_minimax")})

    assert "the textbook" in diagnose(case, answers, [textbook(10**6)])
    assert diagnose(case, answers, [textbook(10)]) == ""


def test_an_ungraded_search_after_the_judged_answers_is_not_replayed():
    """Issue 50: an ordering case may end with an ungraded select_move one ply deeper (it tells
    a root one ply short from an ordering mistake). A mistake's replay stops at the last judged
    answer: "no pruning" replayed there outgrew its work budget and was no longer named."""
    case = next(c for c in search_cases() if c.group == "ordering" and "deeper" in c.options)
    assert not case.examples[-1].want.strip()
    answers = observe(case, student_source(NO_PRUNING), STARTER)
    no_pruning = [v for v in ordering_variants() if v.description.startswith(NO_PRUNING)]
    assert NO_PRUNING in diagnose(case, answers, no_pruning)
