"""The platform-neutral result of one grading, and what every platform shows of it.

The grading builds one results document (``harness.grading.results``; the policy layer, batches
and the fallback of a failed grading all write the same document), and a ``GradingOutcome`` is
read from it once: cases with points, verdicts, visibility and feedback (the drawn board kept
apart, as data), the total, the "ungradable" (the submission's fault: nothing could run) and
"infrastructure fault" (the grader's) distinction, and the submission time. Each platform's
writer (``harness.platforms.formats``) turns an outcome into its file; none reads the
document itself, except Gradescope's, whose file is that document unchanged.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping

from harness.grading.feedback import MARKDOWN, output_text
from harness.records.verdicts import Verdict
from harness.wire.safe_text import safe_text

_FENCE = re.compile(r"^(`{3,})(?:text)?$")
PRINTED = "Your code printed:"
"""The line before what the code printed, in text and Markdown feedback alike."""
HIDDEN_NAME = "Hidden cases"
NOTHING_RAN = "no case could run (the grader's message says why)"
"""Why a submission is ungradable when every case was left not run for a reason the grading
gives in its message (a refused import, code for Python 2) rather than as ``ungradable``."""


@dataclass(frozen=True)
class CaseOutcome:
    """One graded case as every platform may show it."""

    number: str
    name: str
    case_id: str
    points: float
    max_points: float
    passed: bool
    verdict: str
    """The verdict's name (``PASSED``, ``WRONG_ANSWER``, ``NOT_RUN`` ...)."""
    visible: bool
    feedback: str
    """Plain text: the verdict line, the message, the board drawn in text, what was printed."""
    picture: str
    """The board (or game) drawn in text of a failed case, "" if none: the data a platform
    that shows images draws from."""
    seconds: float

    @property
    def headline(self) -> str:
        """The first line of the feedback (the verdict and points)."""
        return self.feedback.split("\n", 1)[0]

    @property
    def detail(self) -> str:
        """The feedback after its first line."""
        parts = self.feedback.split("\n", 1)
        return parts[1] if len(parts) > 1 else ""


@dataclass(frozen=True)
class HiddenSummary:
    """What every platform but Gradescope shows of the hidden cases: how many, and points."""

    count: int
    passed: int
    points: float
    max_points: float

    @property
    def text(self) -> str:
        return (f"{self.count} hidden case{'s' * (self.count != 1)}: {self.points:g}/"
                f"{self.max_points:g} points (no detail is shown for hidden cases)")


@dataclass(frozen=True)
class GradingOutcome:
    """A grading's result, whatever the platform.

    Attributes:
        ungradable: why no case could run because of the submission (a syntax error, a missing
            file, a refused import), "" if some could: platforms that can say "not graded,
            no attempt used" (PrairieLearn's ``gradable: false``) do.
        fault: the grader's own failure (an infrastructure fault), "" if none.
        submitted_at: when the work was submitted (ISO 8601), stable across regrades; None if
            unknown.
        document: the results document it was read from (Gradescope's file).
    """

    assignment: str
    score: float
    max_score: float
    summary: str
    cases: tuple[CaseOutcome, ...]
    ungradable: str
    fault: str
    final: bool
    seconds: float
    submitted_at: str | None
    document: Mapping[str, Any]

    @property
    def fraction(self) -> float:
        """The score as a fraction of the maximum, within 0-1 (a late penalty never makes it
        negative; a course with no points scores 0)."""
        if self.max_score <= 0:
            return 0.0
        return min(1.0, max(0.0, self.score / self.max_score))

    @property
    def shown(self) -> tuple[CaseOutcome, ...]:
        """The visible cases, whose feedback every platform shows."""
        return tuple(case for case in self.cases if case.visible)

    @property
    def hidden(self) -> HiddenSummary | None:
        """The hidden cases summarised (None if there are none)."""
        hidden = [case for case in self.cases if not case.visible]
        if not hidden:
            return None
        return HiddenSummary(len(hidden), sum(case.passed for case in hidden),
                             round(sum(case.points for case in hidden), 4),
                             round(sum(case.max_points for case in hidden), 4))


def picture_of(output: str, output_format: str) -> str:
    """The board drawn in a test's Markdown output (``harness.grading.feedback.markdown``):
    the fenced block just before "Your code printed:", or the last one; "" for text output."""
    if output_format != MARKDOWN:
        return ""
    blocks: list[str] = []
    fence, lines = "", list[str]()
    for line in output.split("\n"):
        if fence:
            if line == fence:
                blocks.append("\n".join(lines))
                fence, lines = "", []
            else:
                lines.append(line)
        elif (opening := _FENCE.match(line)) is not None:
            fence = opening.group(1)
        elif line == PRINTED and blocks:
            return blocks[-1]
    return blocks[-1] if blocks else ""


def _case(test: Mapping[str, Any]) -> CaseOutcome:
    extra = test.get("extra_data") if isinstance(test.get("extra_data"), dict) else {}
    assert isinstance(extra, dict)
    output, output_format = str(test.get("output", "")), str(test.get("output_format", "text"))
    return CaseOutcome(
        number=str(test.get("number", "")), name=safe_text(str(test.get("name", ""))),
        case_id=str(extra.get("case_id", test.get("number", ""))),
        points=float(test.get("score") or 0), max_points=float(test.get("max_score") or 0),
        passed=test.get("status") == "passed", verdict=str(extra.get("verdict", "")),
        visible=test.get("visibility", "visible") == "visible",
        feedback=safe_text(output_text(test)), picture=picture_of(output, output_format),
        seconds=float(extra.get("seconds") or 0))


def from_document(document: Mapping[str, Any], assignment: str = "",
                  submitted_at: str | None = None) -> GradingOutcome:
    """The outcome of the grading whose results document is ``document``."""
    extra = document.get("extra_data") if isinstance(document.get("extra_data"), dict) else {}
    assert isinstance(extra, dict)
    cases = tuple(_case(test) for test in document.get("tests", []) if isinstance(test, dict))
    fault = str(extra.get("harness_error") or "")
    if not fault and not extra.get("final", True):
        fault = "grading did not finish"
    ungradable = "" if fault else str(extra.get("ungradable") or "")
    nothing_ran = bool(cases) and all(c.verdict == Verdict.NOT_RUN.name for c in cases)
    if nothing_ran and not ungradable and not fault:
        ungradable = NOTHING_RAN
    return GradingOutcome(
        assignment=assignment, score=float(document.get("score") or 0),
        max_score=round(sum(case.max_points for case in cases), 4),
        summary=safe_text(str(document.get("output", ""))), cases=cases,
        ungradable=ungradable, fault=fault, final=bool(extra.get("final", True)),
        seconds=float(document.get("execution_time") or 0), submitted_at=submitted_at,
        document=document)
