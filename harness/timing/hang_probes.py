"""Pay for a function's hang once: after a case runs out of its full time limit, the later
cases calling any of the functions it called get a short probe limit first, and a group whose
cases keep running out of time stops running them.

A case names the student functions it calls (its ``requires``: the handout names its transcript
uses). Once a case times out at its full limit, the functions it called are *suspected*: each
later case calling one of them (in any group) runs with a probe limit, ``PROBE_FRACTION`` of its
own limit, at least ``PROBE_FLOOR_SECONDS``. A case that finishes in its time (whatever its
answer) clears the functions it called of every suspicion, and a suspicion with no function
left is dropped: a function slow only on some inputs keeps its full limits on the others. A case
calling no named function is suspected only by the cases of its own group that call none either.
A probe that does not finish is a timeout whose message names the earlier case. A game's
clocks, and those of a case marked ``alone``, are the handout's: they never get a probe or a stop.

Once ``STOP_AFTER`` cases of a group in a row have run out of time (a full limit or a probe),
its later cases calling a suspected function are not run, and say why; a case of the group
that finishes starts the count again. A visible case is never stopped: it is the student's
evidence and usually small (a 4x4 search), so it still runs, with a probe of
``PROBE_FLOOR_SECONDS``, and one that finishes is graded whatever larger cases did. A
submission none of whose cases times out never meets a probe or a stop, so its grade is what it
was without this rule.

``run_order`` runs each group's cases from small to large (by the reference's recorded time,
else the timeout, else file order), so "an earlier case of these functions already ran out of
time" is about a smaller case; results are still reported in the spec's order.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from harness.records.spec import Case, Visibility

PROBE_FRACTION = 0.1
"""A probe's share of the case's own limit."""
PROBE_FLOOR_SECONDS = 1.0
"""A probe is at least this long (or the case's own limit, if shorter): a case that follows a
timeout starts in a fresh sandbox process, which a busy half CPU takes a few tenths to start."""
STOP_AFTER = 5
"""A group's cases calling suspected functions stop after this many of its cases in a row ran
out of time."""


@dataclass(frozen=True)
class Probe:
    """A case run with a short limit because ``after`` (an earlier case calling some of the
    same ``functions``) ran out of its full one."""

    after: str
    seconds: float
    limit: float
    functions: tuple[str, ...] = ()

    def timeout_message(self) -> str:
        return (f"stopped after a short probe of {self.seconds:.1f} s (its limit is "
                f"{self.limit:.1f} s): {_named(self.functions)} ran out of time in the earlier "
                f"case '{self.after}'")


def _named(functions: Sequence[str]) -> str:
    """The functions a message blames: a constructor only when nothing else is suspected (every
    case builds the game; the search is what runs out of time)."""
    shown = [f for f in functions if not f.endswith("__init__")] or list(functions)
    return ", ".join(shown) if shown else "its code"


def stop_message(group: str, after: str, functions: Sequence[str]) -> str:
    """Why a case of a group whose cases kept running out of time is not run (one sentence
    naming the function, with no count: a batch's common mistakes would show it as N)."""
    return (f"not run: {_named(functions)} ran out of time in the earlier case '{after}' and "
            f"in each {group} case after it")


@dataclass
class _Suspicion:
    """The functions of a case that ran out of its full limit, less those seen finishing since."""

    after: str
    group: str
    functions: set[str] = field(default_factory=set)

    def covers(self, case: Case) -> bool:
        if self.functions:
            return not self.functions.isdisjoint(case.requires)
        return self.group == case.group and not case.requires


class HangMemory:
    """Which functions are suspected of hanging, the probe a case calling them gets, and the
    groups that stop running them."""

    def __init__(self) -> None:
        self._suspicions: list[_Suspicion] = []
        self._run_out: dict[str, int] = {}  # group: its cases that ran out of time in a row

    def _covering(self, case: Case) -> list[_Suspicion]:
        if case.runner or case.alone:  # a game's clocks are the handout's
            return []
        return [s for s in self._suspicions if s.covers(case)]

    def _stops(self, case: Case) -> bool:
        """Whether ``case``'s group kept running out of time in cases calling what it calls."""
        return bool(self._covering(case)) and self._run_out.get(case.group, 0) >= STOP_AFTER

    def stopped(self, case: Case) -> str:
        """Why ``case`` is not run (its group kept running out of time), else "" (always for a
        visible case, which gets a probe instead)."""
        if case.visibility is Visibility.VISIBLE or not self._stops(case):
            return ""
        covering = self._covering(case)
        functions = sorted(set().union(*(s.functions for s in covering)) & set(case.requires))
        return stop_message(case.group, covering[0].after, functions)

    def probe(self, case: Case, limit: float, floor: float = PROBE_FLOOR_SECONDS
              ) -> Probe | None:
        """The probe ``case`` gets instead of ``limit`` (None: its full limit), at least
        ``floor`` seconds (the grader scales it with the host, as the limits)."""
        covering = self._covering(case)
        if not covering:
            return None
        seconds = floor if self._stops(case) else max(floor, limit * PROBE_FRACTION)
        shared = sorted(set().union(*(s.functions for s in covering)) & set(case.requires))
        return Probe(covering[0].after, seconds, limit, tuple(shared)) if seconds < limit else None

    def settled(self, case: Case, timed_out: bool, cut: bool = False,
                probe: Probe | None = None) -> None:
        """Take in a case's verdict, in the order cases run: a timeout at its full limit (not
        one the budget cut short) suspects its functions, a case that finished clears its
        functions; either counts towards its group's stop."""
        if not timed_out:
            self._run_out.pop(case.group, None)
            for suspicion in list(self._suspicions):
                if suspicion.functions:
                    suspicion.functions.difference_update(case.requires)
                    cleared = not suspicion.functions
                else:
                    cleared = suspicion.covers(case)
                if cleared:
                    self._suspicions.remove(suspicion)
            return
        if probe is None and not cut:
            self._suspicions.append(_Suspicion(case.name, case.group, set(case.requires)))
        if probe is not None or not cut:
            self._run_out[case.group] = self._run_out.get(case.group, 0) + 1


def _size(case: Case) -> tuple[float, float]:
    reference = case.relative_timeout.reference_seconds if case.relative_timeout else None
    return (reference if reference is not None else float("inf"), case.timeout)


def run_order(cases: Sequence[Case]) -> list[int]:
    """Indexes of ``cases`` in the order to run them: groups as they first appear, each
    group's cases from small to large (the reference's recorded time, else the timeout, else
    file order)."""
    first: dict[str, int] = {}
    for index, case in enumerate(cases):
        first.setdefault(case.group, index)
    return sorted(range(len(cases)),
                  key=lambda i: (first[cases[i].group], *_size(cases[i]), i))
