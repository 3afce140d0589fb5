"""Judgements: what a comparator concludes about one case, and the verdicts a case can get."""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from harness.compare.observations import Observation


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


ExampleCheck = Callable[[str, Observation, Mapping[str, Any], bool], Judgement]


def per_example(check: ExampleCheck) -> Callable[..., Judgement]:
    """Lift a check of one example (expected text, observation, options, reveal) to a case.

    Examples whose transcript expects no output are not judged; the case earns the mean of the
    judged examples. A missing observation (execution stopped earlier) earns nothing. A line
    expecting no output that raised (``g = create_game(2, 2)``) is not judged either, but its
    exception is shown: it is why every later line was not reached.
    """

    def compare(case: Any, observations: Sequence[Observation], reveal: bool) -> Judgement:
        fractions: list[float] = []
        messages: list[str] = []
        parts: list[tuple[Part, ...]] = []
        for index, example in enumerate(case.examples):
            if not example.want.strip():
                error = observations[index].error if index < len(observations) else None
                if error is not None:
                    messages.append(f">>> {_first_line(example.source)}\n"
                                    f"  raised {error.describe()}")
                continue
            if index >= len(observations):
                fractions.append(0.0)
                parts.append(())
                messages.append(f">>> {example.source.strip()}\n  was not reached")
                continue
            verdict = check(example.want, observations[index], case.options, reveal)
            fractions.append(verdict.fraction)
            parts.append(verdict.parts[0] if verdict.parts else ())
            if verdict.message:
                messages.append(f">>> {_first_line(example.source)}\n  {verdict.message}")
        if not fractions:
            return Judgement(1.0)
        return Judgement(sum(fractions) / len(fractions), "\n".join(messages),
                         parts=tuple(parts) if any(parts) else ())

    compare.__doc__ = check.__doc__
    return compare


def _first_line(source: str) -> str:
    lines = source.strip().splitlines()
    return lines[0] + (" ..." if len(lines) > 1 else "")
