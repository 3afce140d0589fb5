"""Verdicts for one case, what a comparator concludes (``Judgement``), a known mistake a failed
case is compared with (``Variant``), and the record of a graded case."""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Callable

from harness.records.spec import Case


class Verdict(enum.Enum):
    """What happened to a case. Only PASSED earns full points."""

    PASSED = "passed"
    WRONG_ANSWER = "wrong answer"
    RAISED = "raised an exception"
    TIMED_OUT = "timed out"
    OUT_OF_MEMORY = "out of memory"
    WROTE_TOO_MUCH = "wrote too much"
    CRASHED = "crashed"
    PROTOCOL_VIOLATION = "protocol violation"
    ILLEGAL_MOVE = "illegal move"
    NOT_RUN = "not run"
    HARNESS_ERROR = "harness error"


@dataclass(frozen=True)
class Part:
    """One part of a tuple answer as ``components`` judged it: kept so that the whole grading
    can take back the credit of a part that is the same on every board
    (``harness.compare.constant_parts``)."""

    name: str
    weight: float
    expected: Any
    got: Any
    right: bool


@dataclass(frozen=True)
class Judgement:
    """The share of the case's points earned (0..1) and a message for the student.

    ``leaderboard`` holds Gradescope leaderboard entries (``{"name", "value", "order"}``) a
    game runner wants shown, e.g. a rating against the house bots. ``failure`` is the verdict
    of a case that is not passed when it is not a wrong answer (e.g. ``Verdict.TIMED_OUT`` for
    games lost on time); None means a wrong answer. ``parts`` holds, for each judged
    example in order, the parts of its tuple answer (empty for an example with no tuple answer),
    from comparators that give credit per part. ``picture`` is a failed case's position or game
    drawn as plain text (a board with coordinates, a game's last moves): the results show it
    beside the message, in Markdown (``harness.grading.feedback``); like the message, it never
    shows a hidden case's expected answer.
    """

    fraction: float
    message: str = ""
    leaderboard: tuple[dict[str, Any], ...] = ()
    failure: Verdict | None = None
    parts: tuple[tuple[Part, ...], ...] = ()
    picture: str = ""
    diagnosis: tuple[str, ...] = ()
    """The known mistakes the message names as likely (``harness.compare.diagnosis``)."""

    def __post_init__(self) -> None:
        if not 0.0 <= self.fraction <= 1.0:
            raise ValueError(f"fraction {self.fraction} is outside 0..1")


@dataclass(frozen=True)
class Variant:
    """A known mistake: how feedback describes it, and a fresh namespace in which the case's
    transcript runs as code with that mistake would (``harness.compare.diagnosis``)."""

    description: str
    namespace: Callable[[], dict[str, Any]]
    alone: bool = False
    """Named only where no other variant gives the same answers: for mistakes whose twins are
    common and tell the student nothing (a case cannot single either out)."""


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


__all__ = ["CaseResult", "Judgement", "Part", "Variant", "Verdict"]
