"""Grade one submission case by case: run in the sandbox, judge in this (trusted) process."""
from __future__ import annotations

import signal
import time
from dataclasses import replace
from pathlib import Path
from typing import Sequence

from harness.budget import TimeShares
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

    A case depends only on the student module it runs against (its ``module:``, else the main
    one): a missing or broken module blocks its own cases, never the others', and the summary
    says which module blocked which cases.

    Args:
        assignment: the loaded assignment.
        submission: the submitted file or folder.
        budget: seconds for the whole run; cases that would start after it are not run.
        isolation: force an isolation level (tests); detected when None.
        timeout_cap: if given, no case may run longer than this many seconds (for quick local
            runs and the harness's own tests of hanging code).
        planned: the cases this run will grade, so that the budget is shared between their
            groups (see ``harness.budget``); without them it is spent in order.
    """

    def __init__(self, assignment: Assignment, submission: Path, budget: float | None = None,
                 isolation: Isolation | None = None, timeout_cap: float | None = None,
                 planned: Sequence[Case] = ()) -> None:
        self.assignment = assignment
        self.timeout_cap = timeout_cap
        self.found: FoundFiles = find_files(submission, assignment.submission_files)
        self.shares = TimeShares(budget if budget is not None else assignment.budget, planned,
                                 timeout_cap)
        files = dict(self.found.files)  # the student's files, under their handout names
        for support in assignment.support_files:
            files[support.name] = support  # ours, whatever copy the student uploaded
        for probe in assignment.probe_files:
            files[probe.name] = probe
        self.files = files
        self.sandbox = Sandbox(assignment.module, files, assignment.limits, isolation)
        self._preflights: dict[str, Preflight] = {}
        self.blocked: dict[str, list[Case]] = {}

    @property
    def isolation_text(self) -> str:
        return self.sandbox.isolation.level.value

    def preflight(self, module: str | None = None) -> Preflight:
        """Import check of one student module (default: the main one), done once, lazily; the
        handout's names and signatures are checked in the main module."""
        module = module or self.assignment.module
        if module not in self._preflights:
            file = f"{module}.py"
            if file not in self.files:
                self._preflights[module] = Preflight(import_problem=(
                    f"{file} was not found in your submission. "
                    + " ".join(self.found.notes)).strip())
            else:
                main = module == self.assignment.module
                self._preflights[module] = run_preflight(
                    self.sandbox, self.assignment.api if main else (), PREFLIGHT_TIMEOUT,
                    module=None if main else module)
        return self._preflights[module]

    def summary_lines(self) -> list[str]:
        """What the import checks found, and which module blocked which cases."""
        lines: list[str] = []
        for module, preflight in self._preflights.items():
            if preflight.import_problem:
                lines.append(preflight.import_problem)
                blocked = self.blocked.get(module, [])
                if blocked:
                    groups = ", ".join(dict.fromkeys(case.group for case in blocked))
                    lines.append(f"  {module}.py blocked {len(blocked)} case"
                                 f"{'' if len(blocked) == 1 else 's'} (groups: {groups}); "
                                 "cases that use your other files were graded.")
            lines.extend(preflight.broken.values())
            lines.extend(preflight.notes)
        return lines

    def remaining(self) -> float:
        return self.shares.remaining()

    def grade(self, case: Case) -> CaseResult:
        """Grade one case. Never raises: harness failures become HARNESS_ERROR results."""
        started = time.monotonic()
        try:
            result = self._grade(case)
        except Exception as exc:  # a harness bug must cost one case, never the run
            result = CaseResult(case, Verdict.HARNESS_ERROR, 0.0,
                                f"internal grader error ({type(exc).__name__}: {exc}); "
                                "please tell your instructor")
        elapsed = time.monotonic() - started
        self.shares.record(case, elapsed)
        if not result.seconds:
            result = replace(result, seconds=elapsed)
        return result

    def _grade(self, case: Case) -> CaseResult:
        if self.remaining() < MIN_CASE_SECONDS:
            return CaseResult(case, Verdict.NOT_RUN, 0.0, "not run: time budget used up")
        module = case.module or self.assignment.module
        preflight = self.preflight(module)
        if preflight.import_problem:
            self.blocked.setdefault(module, []).append(case)
            return CaseResult(case, Verdict.NOT_RUN, 0.0,
                              f"not run: this case uses {module}.py. "
                              f"{preflight.import_problem}")
        broken = [preflight.broken[n] for n in case.requires if n in preflight.broken]
        if broken:
            return CaseResult(case, Verdict.NOT_RUN, 0.0, "\n".join(broken))
        allowance = self.shares.allowance(case)
        if allowance < MIN_CASE_SECONDS:
            return CaseResult(case, Verdict.NOT_RUN, 0.0,
                              f"not run: the {case.group} cases used up their share of the time "
                              "budget (the rest is kept for the other groups)")
        timeout = min(case.timeout, allowance, self.timeout_cap or case.timeout)
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
        if "import_error" in raw.reply:
            error = error_from_reply(raw.reply["import_error"])
            return CaseResult(case, Verdict.RAISED, 0.0,
                              f"importing your file raised {error.describe()}", raw.output,
                              raw.seconds)
        try:
            observations = observations_from_reply(raw.reply.get("observations"))
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
        self.sandbox.close()
