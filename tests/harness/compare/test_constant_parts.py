"""A part of a tuple answer that is the same on every board of a group earns nothing where the
right answers differ (``options.constant_parts: no_credit``); other parts, groups and cases
keep what ``components`` gave them."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, Sequence

import pytest

from harness.compare.builtin import BUILTIN
from harness.compare.constant_parts import constant_parts, withhold_constant_parts
from harness.grading.grader import Grader
from harness.records.observations import Observation
from harness.records.spec import Case, Visibility
from harness.records.verdicts import CaseResult, Verdict
from harness.spec import SpecError
from harness.spec.doctests import parse_transcript
from harness.spec.registry import check_case_references

OPTIONS = {"names": ["move", "value", "leaf count"], "constant_parts": "no_credit"}


def _case(number: int, expected: tuple, group: str = "best", options: Any = OPTIONS) -> Case:
    transcript = f">>> g.best({number})\n{expected!r}\n"
    return Case(id=f"{group}::{number}", number=str(number), group=group, name=str(number),
                points=3.0, visibility=Visibility.HIDDEN, timeout=1.0, file=Path("x.yaml"),
                examples=tuple(parse_transcript(transcript)), compare="components",
                options=dict(options))


def _graded(pairs: Sequence[tuple[tuple, Any]], **kwargs: Any) -> list[CaseResult]:
    """Each (expected, answer) judged by ``components`` as the grader would."""
    results = []
    for number, (expected, answer) in enumerate(pairs, 1):
        case = _case(number, expected, **kwargs)
        judgement = BUILTIN["components"](case, [Observation(value=answer, has_value=True)],
                                          False)
        results.append(Grader._from_judgement(case, judgement, Verdict.WRONG_ANSWER))
    return results


BOARDS = [((0, 0), 1, 2), ((1, 0), 0, 5), (None, 0, 1), ((0, 0), 3, 8)]


def test_a_constant_answer_loses_every_part_it_matched_by_chance() -> None:
    results = withhold_constant_parts(_graded([(want, (None, 0, 1)) for want in BOARDS]))
    assert [r.score for r in results] == [0.0] * 4
    trivial = results[2]
    assert trivial.verdict is Verdict.WRONG_ANSWER  # the whole right answer, by chance
    assert "move earns nothing here: yours is None on every board" in trivial.message
    assert "leaf count earns nothing here: yours is 1" in trivial.message


def test_only_the_constant_part_is_withheld() -> None:
    """Moves and leaf counts that follow the board keep their credit; the constant value loses
    its third on the boards it matched."""
    answers = [((0, 0), 0, 2), ((1, 0), 0, 5), (None, 0, 9), ((0, 0), 0, 8)]
    before = _graded(list(zip(BOARDS, answers)))
    after = withhold_constant_parts(before)
    assert [r.score for r in before] == pytest.approx([2, 3, 2, 2])
    assert [r.score for r in after] == pytest.approx([2, 2, 1, 2])
    assert after[1].verdict is Verdict.WRONG_ANSWER and after[0] is before[0]


def test_honest_answers_and_cases_that_do_not_opt_in_are_unchanged() -> None:
    honest = _graded([(want, want) for want in BOARDS])
    assert withhold_constant_parts(honest) == honest
    unchosen = _graded([(want, (None, 0, 1)) for want in BOARDS],
                       options={"names": OPTIONS["names"]})
    assert withhold_constant_parts(unchosen) == unchosen
    # one board alone, or boards whose right answers agree, show nothing constant
    assert constant_parts(p for r in _graded([(BOARDS[2], (None, 0, 1))]) for e in r.parts
                          for p in e) == {}
    same = _graded([(BOARDS[0], BOARDS[0]), (BOARDS[0], BOARDS[0])])
    assert withhold_constant_parts(same) == same


def test_groups_are_judged_apart() -> None:
    first = _graded([(want, (None, 0, 1)) for want in BOARDS[:2]], group="a")
    second = _graded([(BOARDS[2], (None, 0, 1))], group="b")
    after = withhold_constant_parts(first + second)
    assert after[2] is second[0] and after[2].score == 3.0


def test_a_move_without_any_search_part_that_varies_earns_nothing() -> None:
    """The first legal move with a constant value and leaf count: the moves differ, but nothing
    in the answer comes from a search (``search_parts``)."""
    options = {**OPTIONS, "search_parts": ["value", "leaf count"]}
    first = [((0, 0), 0, 1), ((0, 0), 0, 1), (None, 0, 1), ((0, 0), 0, 1)]
    after = withhold_constant_parts(_graded(list(zip(BOARDS, first)), options=options))
    assert [r.score for r in after] == [0.0] * 4
    assert "move earns nothing here: your value (0) and leaf count (1) are the same" \
        in after[0].message
    searched = [((0, 0), 1, 0), ((1, 0), 0, 0), (None, 0, 0), ((0, 0), 3, 0)]  # leaves uncounted
    kept = withhold_constant_parts(_graded(list(zip(BOARDS, searched)), options=options))
    assert [r.score for r in kept] == pytest.approx([2, 2, 2, 2])


@pytest.mark.parametrize(("options", "field"), [
    ({"constant_parts": "zero"}, "options.constant_parts"),
    ({**OPTIONS, "search_parts": ["leaves"]}, "options.search_parts"),
    ({"names": OPTIONS["names"], "search_parts": ["value"]}, "options.search_parts"),
])
def test_an_unknown_rule_is_a_spec_error(options: dict, field: str) -> None:
    with pytest.raises(SpecError) as error:
        check_case_references(_case(1, BOARDS[0], options=options))
    assert error.value.field == field


def test_kept_visible_answers_do_not_hide_a_constant_on_the_hidden_boards() -> None:
    """A file that returns the shown answers on the visible boards and one constant elsewhere:
    the constant's chance matches on hidden boards earn nothing, the visible cases keep theirs."""
    shown = [((2, 2), 7, 30), ((1, 1), -4, 12)]
    graded = _graded([*[(want, want) for want in shown],
                      *[(want, (None, 0, 1)) for want in BOARDS]])
    results = [replace(r, case=replace(r.case, visibility=Visibility.VISIBLE)) if i < 2 else r
               for i, r in enumerate(graded)]
    after = withhold_constant_parts(results)
    assert [r.score for r in after] == [3.0, 3.0, 0.0, 0.0, 0.0, 0.0]
    assert "on every board of this group you were not shown" in after[4].message
