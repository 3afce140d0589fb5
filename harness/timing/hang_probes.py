"""Pay for a function's hang once: after a case runs out of its full time limit, the later
cases calling the same student functions get a short probe limit first.

A *family* is the cases of one group that call the same student functions (the group and the
case's ``requires``). Once a case of a family times out at its full limit, each later case of
the family runs with a probe limit (``PROBE_FRACTION`` of its own limit, at least
``PROBE_FLOOR_SECONDS``). A probe that finishes is judged as usual; a case that passes gives
the family back its full limits (a function slow only on big cases keeps its full limits on
the small ones); a probe that does not finish is a timeout whose message names the earlier
case. A submission none of whose cases times out never meets a probe, so its grade is what
it was without this rule.

Cases run each family's cases from small to large (``run_order``: by the reference's recorded
time, else the timeout, else file order), so "an earlier case of these functions already ran
out of time" is about a smaller case; results are still reported in the spec's order.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from harness.spec.model import Case

PROBE_FRACTION = 0.1
"""A probe's share of the case's own limit."""
PROBE_FLOOR_SECONDS = 1.0
"""A probe is at least this long (or the case's own limit, if shorter)."""


def family(case: Case) -> tuple[str, tuple[str, ...]]:
    """The cases that call the same student functions: one group and one ``requires``."""
    return case.group, tuple(sorted(case.requires))


@dataclass(frozen=True)
class Probe:
    """A case run with a short limit because ``after`` (an earlier case of its family) ran out
    of its full one."""

    after: str
    seconds: float
    limit: float

    def timeout_message(self, functions: Sequence[str]) -> str:
        names = f" ({', '.join(functions)})" if functions else ""
        return (f"stopped after a short probe of {self.seconds:.1f} s (its limit is "
                f"{self.limit:.1f} s): the earlier case '{self.after}', which calls the same "
                f"functions{names}, ran out of its full time limit, so the later cases of those "
                "functions get a probe first; a case of them that passes gives them back "
                "their full limits")


class HangMemory:
    """Which families last ran out of a full limit, and the probe a case of them gets."""

    def __init__(self) -> None:
        self._hung: dict[tuple[str, tuple[str, ...]], str] = {}

    def probe(self, case: Case, limit: float) -> Probe | None:
        """The probe ``case`` gets instead of ``limit`` (None: its full limit)."""
        after = self._hung.get(family(case))
        if after is None or case.runner or case.alone:  # a game's clocks are the handout's
            return None
        seconds = max(PROBE_FLOOR_SECONDS, limit * PROBE_FRACTION)
        return Probe(after, seconds, limit) if seconds < limit else None

    def settled(self, case: Case, timed_out: bool, passed: bool, probed: bool) -> None:
        """Take in a case's verdict, in the order cases run: a timeout at the full limit marks
        its family, a pass clears it."""
        if passed:
            self._hung.pop(family(case), None)
        elif timed_out and not probed:
            self._hung[family(case)] = case.name


def _size(case: Case) -> tuple[float, float]:
    reference = case.relative_timeout.reference_seconds if case.relative_timeout else None
    return (reference if reference is not None else float("inf"), case.timeout)


def run_order(cases: Sequence[Case]) -> list[int]:
    """Indexes of ``cases`` in the order to run them: groups as they first appear, each
    family's cases from small to large (the reference's recorded time, else the timeout, else
    file order)."""
    first: dict[str, int] = {}
    for index, case in enumerate(cases):
        first.setdefault(case.group, index)
    return sorted(range(len(cases)),
                  key=lambda i: (first[cases[i].group], *_size(cases[i]), i))
