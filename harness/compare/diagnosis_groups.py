"""A likely mistake is named only where the student's answers point at it across the group.

A case's diagnosis (``harness.compare.diagnosis``) names a known mistake when it reproduces every
answer of that one case. One case can match by coincidence: a Dominoes search whose copy shares
its rows, or whose search stops at the root for some other reason, gives on one small board
exactly what "alpha-beta stopping one ply before the limit" gives there, and the feedback then
named a mistake the code does not make. A student who makes the mistake gives its answers on
every board of the group, so a mistake stays named only when it is named on at least half of the
group's wrong answers and no wrong answer of the group is put down to other mistakes alone. The
rule needs every case of the group, so it runs once the whole grading is done
(``GradingSession.finish``), like ``harness.compare.constant_parts``.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from harness.records.verdicts import CaseResult, Verdict

LIKELY = "Likely mistake: "


def diagnosis_text(found: Sequence[str]) -> str:
    """The feedback line naming the known mistakes ``found`` ("" for none)."""
    if not found:
        return ""
    if len(found) == 1:
        return f"{LIKELY}your answers are exactly what {found[0]} gives."
    return (f"{LIKELY}your answers are exactly what each of these gives here: "
            + "; or ".join(found) + ".")


def _singled_out(group: Sequence[CaseResult]) -> set[str]:
    """The mistakes the group's wrong answers point at: named on at least half of them, and
    on every one that names any."""
    wrong = [r for r in group if r.verdict is Verdict.WRONG_ANSWER]
    named = [set(r.diagnosis) for r in wrong if r.diagnosis]
    if not named:
        return set()
    common = set.intersection(*named)
    return {mistake for mistake in common if 2 * len(named) >= len(wrong)}


def consistent_diagnoses(results: Sequence[CaseResult]) -> list[CaseResult]:
    """``results`` with each likely mistake kept only where its group singles it out."""
    groups: dict[tuple[str, str], list[CaseResult]] = {}
    for result in results:
        if result.case.diagnose:
            groups.setdefault((result.case.group, result.case.diagnose), []).append(result)
    kept = {key: _singled_out(group) for key, group in groups.items()}
    out = []
    for result in results:
        if result.diagnosis:
            stays = kept[(result.case.group, str(result.case.diagnose))]
            result = _keeping(result, tuple(m for m in result.diagnosis if m in stays))
        out.append(result)
    return out


def _keeping(result: CaseResult, found: tuple[str, ...]) -> CaseResult:
    """``result`` naming only the mistakes ``found`` (its line rewritten or removed)."""
    if found == result.diagnosis:
        return result
    old, new = diagnosis_text(result.diagnosis), diagnosis_text(found)
    lines = [new if line == old else line for line in result.message.split("\n")
             if new or line != old]
    return replace(result, message="\n".join(lines), diagnosis=found)
