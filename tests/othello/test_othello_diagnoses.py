"""Feedback names the likely mistake in the Othello node and select functions: each mistake of
reference/othello/diagnoses.py, written into the reference agent as a student would, is
recognised and never misnamed. Honest agents fail nothing, so get none: a diagnosis is only
looked for on a failed case, and tests/fairness/test_othello_fairness.py grades the reference and
each honest agent and asserts every case's score and the absence of any diagnosis. The shares
over every case are printed by ``bench/bench_diagnoses.py othello``."""
from __future__ import annotations


import pytest
from gg_diagnosis import diagnoses_of, observe
from othello_diagnosis_support import SOLUTION, STARTER, search_cases, student_source
from othello_support import grade_cases

from harness.compare.diagnosis import Variant, diagnose
from reference.core.counters import BudgetCounter, WorkBudgetExceeded
from reference.othello.agent import ReferenceAgent
from reference.othello.diagnoses import MISTAKES, variants


SAMPLE = [c for c in search_cases() if c.visibility.reveals_expected]
"""The visible cases: every mistake fails some of them, and they are few enough for a loaded
machine."""


@pytest.mark.parametrize("description", [m.description for m in MISTAKES], ids=lambda d: d[:40])
def test_each_mistake_is_recognised_and_never_misnamed(description):
    found = diagnoses_of(SAMPLE, student_source(description), STARTER)
    assert found, "the mistake should fail some of the sample cases"
    named = [d for _, _, d in found if d]
    assert all(description in d for d in named), [d for d in named if description not in d][:2]
    assert any("each of these" not in d for d in named), "no case names this mistake alone"


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


def test_the_grader_adds_the_diagnosis_to_the_feedback(mutate, tmp_path):
    agent = tmp_path / "agent.py"
    agent.write_text(student_source(MISTAKES[1].description), encoding="utf-8")
    document = grade_cases(agent, tmp_path / "r.json", "04_depth_limit.yaml", keyword="start")
    failed = [t for t in document["tests"] if t["status"] != "passed"]
    assert len(failed) == 2
    assert all("Likely mistake: your answers are exactly what a search that stops one ply "
               "before the limit" in t["output"] for t in failed)


def test_a_replay_that_outgrows_its_work_budget_stops_and_does_not_match():
    start = ((0, 0, 0, 0), (0, 2, 1, 0), (0, 1, 2, 0), (0, 0, 0, 0))
    agent = ReferenceAgent(counter=BudgetCounter(50))
    with pytest.raises(WorkBudgetExceeded):
        agent.minimax_max_node(start, 1, -1)
    case = SAMPLE[0]  # the 4x4 start at full depth: minimax_max_node, _min_node, select_move
    answers = observe(case, SOLUTION.read_text(encoding="utf-8"), STARTER)

    def textbook(budget):
        agent = ReferenceAgent(counter=BudgetCounter(budget))
        return Variant("the textbook", lambda: {
            name: getattr(agent, name) for name in
            ("minimax_max_node", "minimax_min_node", "select_move_minimax")})

    assert "the textbook" in diagnose(case, answers, [textbook(10**6)])
    assert diagnose(case, answers, [textbook(50)]) == ""
