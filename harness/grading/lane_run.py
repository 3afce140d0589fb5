"""Cases side by side for one ``Grader.grade_all`` (the rules are ``harness.timing.lanes``'s)."""
from __future__ import annotations

import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Callable, Protocol, Sequence

from harness.grading.steps import Finished, Ready
from harness.records.spec import Case
from harness.records.verdicts import CaseResult, Verdict
from harness.timing.lanes import keep_lanes

# Verdicts of a case that hit what the lanes share: the host's CPUs (a timeout beside another
# case), the sandbox's memory group, its case folders' mount. The rest run one at a time.
SHARED_BOUNDS = (Verdict.TIMED_OUT, Verdict.OUT_OF_MEMORY, Verdict.WROTE_TOO_MUCH)


class Grader(Protocol):
    """What a lane run needs of ``harness.grading.grader.Grader`` (named here so that this
    module does not import the grader, which imports it)."""

    graded_again_alone: list[str]

    def limited(self, case: Case) -> Case: ...
    def grade(self, case: Case) -> CaseResult: ...
    def _start(self, case: Case) -> Ready | Finished: ...
    def _attempt(self, step: Ready | Finished) -> Finished: ...
    def _settle(self, outcome: Finished, elapsed: float, charged: float | None = None,
                finished: bool = True) -> CaseResult: ...


class LaneRun:
    """One ``Grader.grade_all`` with cases side by side (the rules are ``harness.timing.lanes``'s).

    Checks and settling happen here, in case order; only running and judging happen in the
    lanes' threads. A case passed beside another is charged what it would cost alone
    (``budget.case_charge``), one not passed only for its run alone: whether lanes ran (which
    depends on the host's load) never changes what a group may spend.
    """

    def __init__(self, grader: Grader, lanes: int,
                 on_result: Callable[[CaseResult], None] | None) -> None:
        self.grader = grader
        self.lanes = lanes
        self.on_result = on_result
        # set by a case that hit a shared bound (SHARED_BOUNDS), or many not passed
        self.serial = False
        self.run_beside = 0  # cases that ran beside another so far
        self.not_passed = 0  # of those, the ones not passed
        self.running: dict[Future[Finished], tuple[int, float]] = {}
        self.failed: list[tuple[int, Finished]] = []  # not passed beside another: to regrade
        self.results: list[CaseResult | None] = []
        self.reported = 0

    def grade(self, cases: Sequence[Case]) -> list[CaseResult]:
        grader = self.grader
        self.results = [None] * len(cases)
        with ThreadPoolExecutor(self.lanes, thread_name_prefix="gamegrader-lane") as pool:
            for index, case in enumerate(cases):
                case = grader.limited(case)
                alone = case.alone or case.runner is not None
                self._collect(0 if alone or self.serial else self.lanes - 1)
                if self.failed:
                    self._collect(0)
                    self._grade_again_alone(cases)
                started = time.monotonic()
                step = grader._start(case)
                if isinstance(step, Finished) or alone or self.serial:
                    self._done(index, grader._settle(grader._attempt(step),
                                                     time.monotonic() - started))
                else:
                    self.running[pool.submit(grader._attempt, step)] = (index, started)
            self._collect(0)
            self._grade_again_alone(cases)
        return [result for result in self.results if result is not None]

    def _collect(self, at_most: int) -> None:
        """Wait until at most ``at_most`` cases run, settling those that finish."""
        while len(self.running) > at_most:
            finished, _ = wait(self.running, return_when=FIRST_COMPLETED)
            for future in finished:
                index, started = self.running.pop(future)
                outcome, elapsed = future.result(), time.monotonic() - started
                verdict = outcome.result.verdict
                self.run_beside += 1
                if verdict is not Verdict.PASSED:  # its run alone will be charged
                    self.failed.append((index, outcome))
                    self.not_passed += 1
                    self.serial = (self.serial or verdict in SHARED_BOUNDS
                                   or not keep_lanes(self.not_passed, self.run_beside))
                else:
                    self._done(index, self.grader._settle(outcome, elapsed))

    def _grade_again_alone(self, cases: Sequence[Case]) -> None:
        """Grade the cases not passed beside another again, alone; the first verdict stands
        only if the budget no longer allows a second run."""
        for index, first in sorted(self.failed, key=lambda pair: pair[0]):
            again = self.grader.grade(cases[index])
            if again.verdict is Verdict.NOT_RUN:
                again = self.grader._settle(first, first.result.seconds, 0.0, finished=False)
            self.grader.graded_again_alone.append(again.case.id)
            self._done(index, again)
        self.failed.clear()

    def _done(self, index: int, result: CaseResult) -> None:
        """Keep a result and report every result now complete in case order."""
        self.results[index] = result
        while self.reported < len(self.results) and self.results[self.reported] is not None:
            if self.on_result is not None:
                self.on_result(self.results[self.reported])  # type: ignore[arg-type]
            self.reported += 1
