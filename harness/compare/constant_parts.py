"""Take back the credit of a part of a tuple answer that never changes with the board.

Credit per part (``components``) rewards a part of an answer that is right on its own. A part
that is the same on every board of a group, where the right answers for it differ, is right only
where the board happens to match it: it shows no search behind it (a ``get_best_move`` that
always returns one fixed square, value and leaf count would otherwise earn a few points on the
boards where a constant matches). Cases opt in with ``options.constant_parts: no_credit``. With
``options.search_parts`` (say ``[value, leaf count]``), an answer whose search parts are all
constant earns nothing at all: its move (the first legal one, say) shows no search either. The
rule needs every case of the group, so it runs once the whole grading is done
(``GradingSession.finish``). An honest search, even a partly wrong one, answers differently on
boards whose answers differ, and keeps every point it earned.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterable, Sequence

from harness.compare.text import show
from harness.records.spec import Visibility
from harness.records.verdicts import CaseResult, Part, Verdict

OPTION = "constant_parts"
NO_CREDIT = "no_credit"
SEARCH_PARTS = "search_parts"


def _key(value: Any) -> tuple[str, str]:
    """Values compared by type and text: answers are plain data (tuples, numbers, None)."""
    return type(value).__name__, repr(value)


def constant_parts(answers: Iterable[Part]) -> dict[str, Any]:
    """The parts (by name) whose answers are one value while the right ones take at least two:
    name -> that one value."""
    got: dict[str, set[tuple[str, str]]] = {}
    expected: dict[str, set[tuple[str, str]]] = {}
    shown: dict[str, Any] = {}
    for part in answers:
        got.setdefault(part.name, set()).add(_key(part.got))
        expected.setdefault(part.name, set()).add(_key(part.expected))
        shown[part.name] = part.got
    return {name: shown[name] for name, values in got.items()
            if len(values) == 1 and len(expected[name]) >= 2}


def withheld_parts(answers: Sequence[Part], search_parts: Sequence[str] = (),
                   boards: str = "every board of this group") -> dict[str, str]:
    """The parts that earn nothing, by name, each with why: the constant ones, and every part
    when each of ``search_parts`` (the parts only a search produces, such as a value and a leaf
    count) is constant: the move of such an answer is not backed by any search either.
    ``boards`` names the boards ``answers`` come from, for the reasons."""
    constant = constant_parts(answers)
    reasons = {name: f"yours is {show(value)} on {boards}, where the right "
                     "answers differ (an answer that never changes with the board shows no "
                     "search behind it)" for name, value in constant.items()}
    if search_parts and all(name in constant for name in search_parts):
        shown = " and ".join(f"{name} ({show(constant[name])})" for name in search_parts)
        for part in answers:
            reasons.setdefault(part.name, f"your {shown} are the same on {boards}, so the "
                                          "answer shows no search behind it")
    return reasons


def _withheld(result: CaseResult, reasons: dict[str, str]) -> CaseResult:
    """``result`` without the credit its examples earned from the parts in ``reasons``."""
    taken, named = 0.0, []
    for example in result.parts:
        total = sum(part.weight for part in example)
        for part in example:
            if part.name in reasons and part.right and total > 0:
                taken += part.weight / total
                if part.name not in named:
                    named.append(part.name)
    if not named:
        return result
    fraction = result.score / result.case.points if result.case.points else 0.0
    fraction = max(0.0, fraction - taken / len(result.parts))
    notes = [f"{name} earns nothing here: {reasons[name]}" for name in named]
    message = "\n".join(filter(None, [result.message, *notes]))
    verdict = result.verdict if fraction >= 1.0 else (
        Verdict.WRONG_ANSWER if result.verdict is Verdict.PASSED else result.verdict)
    return replace(result, score=result.case.points * fraction, verdict=verdict, message=message)


def withhold_constant_parts(results: Sequence[CaseResult]) -> list[CaseResult]:
    """``results`` with the rule applied to every group whose cases opt in (others unchanged)."""
    groups: dict[str, list[int]] = {}
    for index, result in enumerate(results):
        if result.parts and result.case.options.get(OPTION) == NO_CREDIT:
            groups.setdefault(result.case.group, []).append(index)
    changed = list(results)
    for indexes in groups.values():
        search = results[indexes[0]].case.options.get(SEARCH_PARTS, ())
        reasons = withheld_parts(_answers(results, indexes), search)
        # A file that keeps the shown answers and is constant elsewhere: judged on the boards
        # it was not shown (a part already withheld above is not taken twice).
        unseen = [i for i in indexes if results[i].case.visibility is not Visibility.VISIBLE]
        hidden = {name: why for name, why in withheld_parts(
            _answers(results, unseen), search, UNSEEN).items() if name not in reasons}
        for i in indexes:
            changed[i] = _withheld(changed[i], reasons)
        for i in unseen:
            changed[i] = _withheld(changed[i], hidden)
    return changed


UNSEEN = "every board of this group you were not shown"


def _answers(results: Sequence[CaseResult], indexes: Sequence[int]) -> list[Part]:
    return [part for i in indexes for example in results[i].parts for part in example]
