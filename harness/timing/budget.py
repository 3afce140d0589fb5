"""Share the global time budget between case groups, so that one slow group cannot starve the rest.

Gradescope stops everything at its cap, so a run has one budget. Spent in file order, a group
whose cases all time out would leave nothing for the groups after it (e.g. a game group worth
points the student would win). Instead each group is guaranteed a share of the budget in
proportion to what its cases may take (the sum of their timeouts) beyond a floor: its first
case's timeout (up to ``MIN_GROUP_SECONDS``), so every group runs at least once. A case may
use whatever is left of the budget minus what the other unfinished groups are still guaranteed:
time a fast group does not use flows to the slow ones, and a slow group cannot take another's.

So that a busy host cannot change which cases run, the shares are spent from a *ledger*, not
the wall clock: a case is charged what it would take alone on an idle host of this size
(``case_charge``: its limit if it timed out, else its own CPU seconds over the CPUs its control
group allows). The wall clock still ends the run: at the budget on Gradescope, whose cap stops
the container, and at ``LOCAL_WALL_FACTOR`` times it elsewhere; a case starts only while both
the ledger and the clock have time left. A finished case is charged no
part of its wall time: the wall time of a CPU-bound case grows with the host's load, so any such
part would let the load decide which cases run again. Code that sleeps, or lowers the CPU time
it reports, gains only its own group's share, and the wall clock still ends the run.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Iterable

from harness.records.spec import Case

MIN_GROUP_SECONDS = 10.0
LOCAL_WALL_FACTOR = 2.0
"""Where no platform stops the run at its cap (a local ``grade``, ``check`` or batch), the wall
clock ends it at this many times the budget, not at the budget: the ledger decides which cases
run, and a busy host only slows them. Gradescope's entry makes the budget the wall cap as well
(its container is stopped at its cap, and nothing else runs in it)."""
"""A group's guaranteed share is at least this much (or its first case's timeout if smaller)."""


def case_charge(elapsed: float, limit: float, timed_out: bool, cpu_seconds: float | None,
                cpu_fraction: float = 1.0) -> float:
    """What a case costs its group: what it would take alone on an idle host of this size.

    A timeout costs its limit; a finished case its CPU seconds over ``cpu_fraction`` (the CPUs
    its control group allows, at most 1: Gradescope's half CPU makes a CPU second two seconds),
    at most its wall time; a case whose CPU time is unknown (a game, a crash) its wall time."""
    if timed_out:
        return limit
    if cpu_seconds is None:
        return elapsed
    return min(elapsed, cpu_seconds / max(cpu_fraction, 0.01))


@dataclass
class _Group:
    need: float          # sum of the timeouts of its cases not yet graded
    share: float         # seconds guaranteed to the group
    pending: int         # cases not yet graded
    spent: float = 0.0   # seconds its graded cases took

    @property
    def reserve(self) -> float:
        """What the group may still claim from the others."""
        if self.pending <= 0:
            return 0.0
        return max(0.0, min(self.need, self.share - self.spent))


class TimeShares:
    """The budget of one grading run and each group's guaranteed part of it.

    Args:
        budget: seconds of the ledger (charged time) for the whole run.
        planned: the cases that will be graded (any order); cases not planned get no share and
            may use only what no planned group is guaranteed.
        timeout_cap: the longest any case may run, if less than its own timeout.
        clock: a monotonic clock (tests may pass a fake one).
        hard_stop: wall-clock seconds from now after which no case starts (default
            ``budget``; see ``LOCAL_WALL_FACTOR`` for what the grader passes).
    """

    def __init__(self, budget: float, planned: Iterable[Case] = (),
                 timeout_cap: float | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 hard_stop: float | None = None) -> None:
        self.clock = clock
        self.timeout_cap = timeout_cap
        self.deadline = clock() + (budget if hard_stop is None else hard_stop)
        self.ledger = budget  # what is left to charge
        self.groups: dict[str, _Group] = {}
        first_timeout: dict[str, float] = {}
        for case in planned:
            group = self.groups.setdefault(case.group, _Group(need=0.0, share=0.0, pending=0))
            group.need += self._timeout(case)
            group.pending += 1
            first_timeout.setdefault(case.group, self._timeout(case))
        floors = {name: min(first_timeout[name], MIN_GROUP_SECONDS) for name in self.groups}
        spare = budget - sum(floors.values())
        if spare <= 0:  # not even one case per group fits: share what there is
            for name, group in self.groups.items():
                group.share = floors[name] * budget / sum(floors.values())
        else:  # every group's floor, and the rest in proportion to what each may take beyond it
            extra = {name: max(0.0, group.need - floors[name])
                     for name, group in self.groups.items()}
            scale = min(1.0, spare / sum(extra.values())) if sum(extra.values()) > 0 else 1.0
            for name, group in self.groups.items():
                group.share = floors[name] + extra[name] * scale

    def _timeout(self, case: Case) -> float:
        return min(case.timeout, self.timeout_cap or case.timeout)

    def remaining(self) -> float:
        """Seconds left of the ledger (charged time, the same on any load)."""
        return self.ledger

    def wall_remaining(self) -> float:
        """Wall-clock seconds left of the budget."""
        return self.deadline - self.clock()

    def allowance(self, case: Case) -> float:
        """Seconds ``case`` may take: the ledger left minus what the other unfinished groups
        are still guaranteed."""
        reserved = sum(group.reserve for name, group in self.groups.items()
                       if name != case.group)
        return self.remaining() - reserved

    def record(self, case: Case, seconds: float, finished: bool = True) -> None:
        """Charge a graded (or skipped) case's cost (``case_charge``) to its group;
        ``finished`` false for an attempt whose case is graded again."""
        self.ledger -= seconds
        group = self.groups.get(case.group)
        if group is not None:
            group.spent += seconds
            if finished:
                group.pending -= 1
                group.need = max(0.0, group.need - self._timeout(case))
