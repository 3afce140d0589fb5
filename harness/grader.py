"""Grade one submission case by case: run in the sandbox, judge in this (trusted) process."""
from __future__ import annotations

import signal
import time
from dataclasses import replace
from pathlib import Path

from harness.compare import Judgement, observations_from_reply, resolve_callable
from harness.compare.diagnosis import with_diagnosis
from harness.compare.observations import error_from_reply
from harness.compare.registry import resolve_comparator
from harness.preflight import Preflight, describe_process_failure, run_preflight
from harness.sandbox import Isolation, Sandbox
from harness.spec.model import Assignment, Case
from harness.submission import FoundFiles, find_files
from harness.verdicts import CaseResult, Verdict

PREFLIGHT_TIMEOUT = 10.0
MIN_CASE_SECONDS = 0.5


class Grader:
    """Grades the cases of one assignment for one submission.

    Args:
        assignment: the loaded assignment.
        submission: the submitted file or folder.
        budget: seconds for the whole run; cases that would start after it are not run.
        isolation: force an isolation level (tests); detected when None.
        timeout_cap: if given, no case may run longer than this many seconds (for quick local
            runs and the harness's own tests of hanging code).
    """

    def __init__(self, assignment: Assignment, submission: Path, budget: float | None = None,
                 isolation: Isolation | None = None, timeout_cap: float | None = None) -> None:
        self.assignment = assignment
        self.timeout_cap = timeout_cap
        self.found: FoundFiles = find_files(submission, assignment.submission_files)
        self.deadline = time.monotonic() + (budget if budget is not None else assignment.budget)
        self.sandbox: Sandbox | None = None
        self._preflight: Preflight | None = None
        if assignment.main_file in self.found.files:
            files = dict(self.found.files)  # the student's files, under their handout names
            for support in assignment.support_files:
                files[support.name] = support  # ours, whatever copy the student uploaded
            for probe in assignment.probe_files:
                files[probe.name] = probe
            self.sandbox = Sandbox(assignment.module, files, assignment.limits, isolation)

    @property
    def isolation_text(self) -> str:
        return self.sandbox.isolation.level.value if self.sandbox else "none (nothing to run)"

    def preflight(self) -> Preflight:
        """Import check, done once, lazily."""
        if self._preflight is None:
            if self.sandbox is None:
                self._preflight = Preflight(import_problem=(
                    f"{self.assignment.main_file} was not found in your submission. "
                    + " ".join(self.found.notes)).strip())
            else:
                self._preflight = run_preflight(self.sandbox, self.assignment.api,
                                                PREFLIGHT_TIMEOUT)
        return self._preflight

    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    def grade(self, case: Case) -> CaseResult:
        """Grade one case. Never raises: harness failures become HARNESS_ERROR results."""
        started = time.monotonic()
        try:
            result = self._grade(case)
        except Exception as exc:  # a harness bug must cost one case, never the run
            result = CaseResult(case, Verdict.HARNESS_ERROR, 0.0,
                                f"internal grader error ({type(exc).__name__}: {exc}); "
                                "please tell your instructor")
        if not result.seconds:
            result = replace(result, seconds=time.monotonic() - started)
        return result

    def _grade(self, case: Case) -> CaseResult:
        if self.remaining() < MIN_CASE_SECONDS:
            return CaseResult(case, Verdict.NOT_RUN, 0.0, "not run: time budget used up")
        if self.sandbox is None or case.uses_main_module:
            preflight = self.preflight()
            if preflight.import_problem:
                return CaseResult(case, Verdict.NOT_RUN, 0.0, preflight.import_problem)
            broken = [preflight.broken[n] for n in case.requires if n in preflight.broken]
            if broken:
                return CaseResult(case, Verdict.NOT_RUN, 0.0, "\n".join(broken))
        assert self.sandbox is not None
        timeout = min(case.timeout, self.remaining(), self.timeout_cap or case.timeout)
        if case.runner:
            judgement = resolve_callable(case.runner)(replace(case, timeout=timeout),
                                                      self.sandbox)
            return self._from_judgement(case, judgement, Verdict.WRONG_ANSWER)
        raw = self.sandbox.run_examples([e.source for e in case.examples], timeout=timeout,
                                        stdin=case.stdin, module=case.module)
        if raw.reply is None:
            verdict = (Verdict.TIMED_OUT if raw.timed_out else
                       Verdict.PROTOCOL_VIOLATION if raw.reply_problem else Verdict.CRASHED)
            if raw.exit_status == -signal.SIGXCPU:
                verdict = Verdict.TIMED_OUT
            message = describe_process_failure(raw, "running this case", timeout)
            return CaseResult(case, verdict, 0.0, message, raw.output, raw.seconds)
        if raw.reply.import_error is not None:
            error = error_from_reply(raw.reply.import_error)
            return CaseResult(case, Verdict.RAISED, 0.0,
                              f"importing your file raised {error.describe()}", raw.output,
                              raw.seconds)
        try:
            observations = observations_from_reply(raw.reply.observations)
        except ValueError as exc:
            return CaseResult(case, Verdict.PROTOCOL_VIOLATION, 0.0,
                              f"your code broke the grader's protocol: {exc}", raw.output,
                              raw.seconds)
        judgement = resolve_comparator(case.compare)(case, observations,
                                                     case.visibility.reveals_expected)
        if judgement.fraction < 1.0 and case.diagnose:
            judgement = with_diagnosis(judgement, case, observations)
        errors = [o.error for o in observations if o.error is not None]
        failure = Verdict.WRONG_ANSWER
        if errors:
            failure = Verdict.OUT_OF_MEMORY if errors[0].type == "MemoryError" else Verdict.RAISED
        return self._from_judgement(case, judgement, failure, raw.output, raw.seconds)

    @staticmethod
    def _from_judgement(case: Case, judgement: Judgement, failure: Verdict, output: str = "",
                        seconds: float = 0.0) -> CaseResult:
        verdict = Verdict.PASSED if judgement.fraction >= 1.0 else failure
        score = case.points * judgement.fraction
        return CaseResult(case, verdict, score, judgement.message, output, seconds,
                          judgement.leaderboard)

    def close(self) -> None:
        if self.sandbox is not None:
            self.sandbox.close()
