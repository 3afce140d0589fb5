"""Lifting a check of one example to a comparator of a whole case (the records it makes are
``harness.records.verdicts``)."""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from harness.records.observations import Observation
from harness.records.verdicts import Judgement, Part

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
                    messages.append(f"{example.prompt}\n"
                                    f"  raised {error.describe()}")
                continue
            if index >= len(observations):
                fractions.append(0.0)
                parts.append(())
                messages.append(f"{example.prompt}\n  was not reached")
                continue
            verdict = check(example.want, observations[index], case.options, reveal)
            fractions.append(verdict.fraction)
            parts.append(verdict.parts[0] if verdict.parts else ())
            if verdict.message:
                messages.append(f"{example.prompt}\n  {verdict.message}")
        if not fractions:
            return Judgement(1.0)
        return Judgement(sum(fractions) / len(fractions), "\n".join(messages),
                         parts=tuple(parts) if any(parts) else ())

    compare.__doc__ = check.__doc__
    return compare
