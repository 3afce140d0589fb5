"""A likely mistake stays named only where the group's wrong answers single it out: named on at
least half of them, and on every one that names any (issue 50 item 5)."""
from __future__ import annotations

from pathlib import Path

from harness.compare.diagnosis_groups import consistent_diagnoses, diagnosis_text
from harness.records.spec import Case, Visibility
from harness.records.verdicts import CaseResult, Verdict

EARLY, LATE, SWAPPED = "stopping one ply early", "searching one ply late", "MIN and MAX swapped"


def _result(number: int, found: tuple[str, ...], verdict: Verdict = Verdict.WRONG_ANSWER,
            group: str = "best") -> CaseResult:
    case = Case(id=f"{group}::{number}", number=str(number), group=group, name=str(number),
                points=1.0, visibility=Visibility.HIDDEN, timeout=1.0, file=Path("x.yaml"),
                examples=(), diagnose="registry:variants")
    message = "\n".join(filter(None, ["value differs", diagnosis_text(found)]))
    return CaseResult(case, verdict, 0.0, message, diagnosis=found)


def _named(results: list[CaseResult]) -> list[tuple[str, ...]]:
    return [r.diagnosis for r in consistent_diagnoses(results)]


def test_a_mistake_named_on_every_wrong_answer_stays() -> None:
    results = [_result(1, (EARLY,)), _result(2, (EARLY,)), _result(3, (EARLY,))]
    assert _named(results) == [(EARLY,), (EARLY,), (EARLY,)]
    assert consistent_diagnoses(results)[0].message == results[0].message


def test_a_mistake_named_on_a_few_boards_among_many_is_dropped() -> None:
    results = [_result(1, (EARLY,)), *[_result(n, ()) for n in range(2, 6)]]
    kept = consistent_diagnoses(results)
    assert [r.diagnosis for r in kept] == [()] * 5
    assert kept[0].message == "value differs"


def test_mistakes_that_contradict_each_other_are_both_dropped() -> None:
    results = [_result(1, (EARLY,)), _result(2, (SWAPPED,))]
    assert _named(results) == [(), ()]


def test_an_ambiguous_case_keeps_only_the_mistake_the_group_singles_out() -> None:
    results = [_result(1, (EARLY, LATE)), _result(2, (EARLY,))]
    kept = consistent_diagnoses(results)
    assert [r.diagnosis for r in kept] == [(EARLY,), (EARLY,)]
    assert kept[0].message == f"value differs\n{diagnosis_text((EARLY,))}"


def test_groups_are_judged_apart_and_other_verdicts_are_no_evidence() -> None:
    results = [_result(1, (EARLY,)), _result(2, (), Verdict.TIMED_OUT),
               _result(3, (SWAPPED,), group="other")]
    assert _named(results) == [(EARLY,), (), (SWAPPED,)]
