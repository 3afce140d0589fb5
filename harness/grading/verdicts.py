"""Verdicts for one case, and the record of a graded case."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harness.compare.verdict import Part, Verdict
from harness.spec.model import Case


@dataclass(frozen=True)
class CaseResult:
    """A graded case: verdict, points earned, and student-facing feedback.

    ``message`` never holds a hidden case's expected value; ``output`` is what the student's
    code printed (bounded).
    """

    case: Case
    verdict: Verdict
    score: float
    message: str = ""
    output: str = ""
    seconds: float = 0.0
    leaderboard: tuple[dict[str, Any], ...] = ()
    parts: tuple[tuple[Part, ...], ...] = ()
    """The judged parts of each example's tuple answer (``Judgement.parts``)."""
    picture: str = ""
    """A drawn position or game of a failed case (``Judgement.picture``), plain text."""
    diagnosis: tuple[str, ...] = ()
    """The known mistakes its message names as likely (``Judgement.diagnosis``)."""

    @property
    def passed(self) -> bool:
        return self.verdict is Verdict.PASSED

    def feedback(self, output_limit: int = 2000) -> str:
        """The text shown in the test's output box."""
        parts = [f"{self.verdict.value.capitalize()} ({self.score:g}/{self.case.points:g} points)"]
        if self.message:
            parts.append(self.message)
        if self.output.strip():
            shown = self.output.strip()
            if len(shown) > output_limit:
                shown = shown[:output_limit] + "\n[... output cut]"
            parts.append(f"Your code printed:\n{shown}")
        return "\n".join(parts)


__all__ = ["CaseResult", "Verdict"]
