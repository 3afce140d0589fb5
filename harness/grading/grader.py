"""Grade one submission case by case: run in the sandbox, judge in this (trusted) process."""
from __future__ import annotations

import functools
import re
import shutil
import signal
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from harness.compare import observations_from_reply
from harness.compare.observations import error_from_reply
from harness.grading.lane_run import LaneRun
from harness.grading.said_once import (
    blocked_by_module,
    blocked_by_names,
    blocked_line,
    without_repeats,
)
from harness.grading.steps import Finished, Ready, harness_error
from harness.host import cpu_quota
from harness.intake.import_policy import refused_import
from harness.intake.preflight import (
    SYNTAX_ERRORS,
    Preflight,
    describe_process_failure,
    not_utf8,
    resolver_notes,
    run_preflight,
)
from harness.intake.python2 import python2_note
from harness.intake.python_version import version_warning
from harness.intake.reading import display_name
from harness.intake.registry import registry_stand_in, through_registry
from harness.intake.shipped import withhold_shipped
from harness.intake.submission import FoundFiles, find_files
from harness.records.observations import ErrorInfo
from harness.records.spec import Assignment, Case
from harness.records.verdicts import CaseResult, Judgement, Verdict
from harness.sandbox import Isolation, Sandbox
from harness.sandbox.packages import python_version
from harness.sandbox.syscall_filter import status as filter_status
from harness.spec.registry import resolve_comparator, resolve_runner
from harness.spec.schema import MAX_TIMEOUT
from harness.timing.budget import LOCAL_WALL_FACTOR, TimeShares, case_charge
from harness.timing.calibration import HostSpeed, host_speed
from harness.timing.hang_probes import PROBE_FLOOR_SECONDS, HangMemory, run_order
from harness.timing.lanes import lane_cpus

if TYPE_CHECKING:
    from harness.sandbox.execution import RawRun

PREFLIGHT_TIMEOUT = 10.0
"""Seconds the import check waits for the student's file; less under a timeout cap (see
``Grader.preflight_seconds``)."""
_SYNTAX_PLACE = re.compile(r"([^,\n]{1,200}), line (\d{1,9}):")  # the worker's "file, line N: text"
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
        siblings: a submitted file brings the other Python files of its folder (a student's
            local check; see ``harness.intake.submission.find_files``).
        planned: the cases this run will grade, so that the budget is shared between their
            groups (see ``harness.timing.budget``); without them it is spent in order.
        capped: the budget is also the run's wall-clock cap (Gradescope); otherwise the wall
            clock stops the run at ``LOCAL_WALL_FACTOR`` times the budget, so that a busy host
            slows the cases the ledger lets run but does not decide which.
        games: where game runners keep the games they play (``Sandbox.games``), or None.
    """

    def __init__(self, assignment: Assignment, submission: Path, budget: float | None = None,
                 isolation: Isolation | None = None, timeout_cap: float | None = None,
                 siblings: bool = False, planned: Sequence[Case] = (),
                 capped: bool = False, games: Path | None = None) -> None:
        self.assignment = assignment
        self.timeout_cap = timeout_cap
        # The course's support files and the probes are ours: no submitted file may stand in
        # for one (a same-named file is replaced, a same-named package folder left out).
        self.found: FoundFiles = find_files(
            submission, assignment.submission_files,
            tuple(p.name for p in (*assignment.support_files, *assignment.probe_files)),
            siblings=siblings)
        # The grader's own modules handed in as helper files are not the student's work.
        withhold_shipped(self.found)
        self.host: HostSpeed | None = None  # measured when a case's limit is relative
        self.cpu_fraction = min(1.0, cpu_quota() or 1.0)  # Gradescope's: 0.5
        # The student's files as read once at intake (never the submitted paths again),
        # written to a folder only this process can read.
        self._staging = tempfile.mkdtemp(prefix="gamegrader-intake-")
        files = self.found.write_to(Path(self._staging))
        for support in assignment.support_files:
            files[support.name] = support  # ours, whatever copy the student uploaded
        for probe in assignment.probe_files:
            files[probe.name] = probe
        self.stand_in = registry_stand_in(assignment, self.found, Path(self._staging))
        if self.stand_in is not None:
            files[assignment.main_file] = self.stand_in
        self.files = files
        self.sandbox = Sandbox(assignment.module, files, assignment.limits, isolation,
                               name_resolver=assignment.name_resolver,
                               packages=assignment.allowed_packages, games=games)
        # The budget's clock starts once the sandbox is ready: waiting for a sandbox user other
        # gradings hold, or probing the isolation on a busy host, is not the student's time.
        ledger = budget if budget is not None else assignment.budget
        limited = [self.limited(case) for case in planned]  # measures the host if it must
        # How many times its nominal length a limit relative to the reference is on this host
        # (at least 1): the budget, so every group's share, and the probe's floor scale with it,
        # so a case that runs and passes on a quiet host runs and passes on a slow or busy one
        # (with only the limits scaled, a slow agent's timeouts used up its group's share).
        self.time_scale = max(1.0, 1.0 / self.host.factor) if self.host is not None else 1.0
        scaled = ledger * self.time_scale
        self.shares = TimeShares(scaled, limited, timeout_cap,
                                 hard_stop=ledger if capped else scaled * LOCAL_WALL_FACTOR)
        self._preflights: dict[str, Preflight] = {}
        self.blocked: dict[str, list[Case]] = {}
        self.ran = 0  # cases that got past the import checks
        # Messages of refused imports met while grading (ordered, each once).
        self.refused_imports: dict[str, None] = {}
        self.graded_again_alone: list[str] = []  # ids of cases not passed in a lane
        self.lanes = 1  # the most cases that ran side by side (grade_all)
        self.hangs = HangMemory()  # functions that ran out of a full limit (hang_probes)

    @functools.cached_property
    def python_warning(self) -> str:
        """Code of the student's that needs a newer Python than the grading image's, with
        file, line and version ("" if none; ``harness.intake.python_version``)."""
        if self.found.refused:
            return ""
        files = {id(f): f for f in (*self.found.files.values(), *self.found.extras.values())}
        return version_warning({display_name(str(f.path), 200): f.data for f in files.values()},
                               self.assignment.grading_python)  # under the student's names

    @property
    def isolation_text(self) -> str:
        if self.found.refused or not self.found.files:
            return "none (nothing to run)"
        isolation = self.sandbox.isolation
        return f"{isolation.level.value}; {filter_status(isolation.interpreter).describe()}"

    @property
    def isolation_level(self) -> str:
        """The name of the ``Level`` in force ("" when nothing runs)."""
        if self.found.refused or not self.found.files:
            return ""
        return self.sandbox.isolation.level.name

    @property
    def bounds_text(self) -> str:
        """The memory and disk bounds in force (results.json), "" when nothing runs."""
        if self.found.refused or not self.found.files:
            return ""
        return self.sandbox.bounds_text

    @property
    def preflight_seconds(self) -> float:
        """How long the import check waits. Every case imports the file afresh within its own
        limit, which a timeout cap bounds: an import slower than the cap leaves no case able to
        finish, so the check says so at the cap instead of waiting the full 10 s."""
        if self.timeout_cap is None:
            return PREFLIGHT_TIMEOUT
        return min(PREFLIGHT_TIMEOUT, max(self.timeout_cap, MIN_CASE_SECONDS))

    def preflight(self, module: str | None = None) -> Preflight:
        """Import check of one student module (default: the main one), done once, lazily; the
        handout's names and signatures are checked in the main module."""
        module = module or self.assignment.module
        if module not in self._preflights:
            file = f"{module}.py"
            if self.found.refused:
                self._preflights[module] = Preflight(
                    import_problem=" ".join(self.found.notes).strip())
            elif file not in self.files:  # what was found is in the notes, said once
                self._preflights[module] = Preflight(
                    import_problem=f"{file} was not found in your submission.")
            else:
                main = module == self.assignment.module
                checked = run_preflight(
                    self.sandbox, self.assignment.api if main else (), self.preflight_seconds,
                    self.assignment.allowed_packages, module=None if main else module)
                if main and self.stand_in is not None:
                    checked = through_registry(checked, file)
                self._preflights[module] = checked
        return self._preflights[module]

    def summary_lines(self) -> list[str]:
        """What the import checks found, which module blocked which cases, and any import
        this course refuses that was met while grading."""
        lines: list[str] = []
        for module, preflight in self._preflights.items():
            if preflight.import_problem:
                lines.append(preflight.import_problem)
                blocked = self.blocked.get(module, [])
                if blocked:
                    lines.append(blocked_line(f"{module}.py", len(blocked),
                                              (case.group for case in blocked), self.ran > 0))
            lines.extend(preflight.broken.values())
            lines.extend(preflight.notes)
        lines.extend(m for m in self.refused_imports if m not in lines)
        return lines

    @property
    def ungradable(self) -> str:
        """Why no case of this submission could run ("" if some could), e.g. "syntax error at
        line 12", or the first line of what stopped the import of the main file (it hung,
        raised, imported a package the course refuses): a batch's gradebook shows it as the
        submission's status, and ``grade`` exits 3."""
        if self.found.refused:
            return f"submission refused: {self.found.refused}"
        main_problem = self._preflights.get(self.assignment.module, Preflight()).import_problem
        if self.assignment.main_file not in self.found.files and not self.ran and (
                self.stand_in is None or main_problem):
            return f"{self.assignment.main_file} not found"
        main = self._preflights.get(self.assignment.module)
        if main is None or not main.import_problem or self.ran:
            return ""
        error = main.import_error
        if error is None or error.type not in SYNTAX_ERRORS:  # a hang, a crash, a refusal
            first = main.import_problem.splitlines()[0].replace(
                "your file", self.assignment.main_file)
            return first if len(first) <= 160 else first[:157] + "..."
        place = _SYNTAX_PLACE.match(error.where)
        if place is None:
            return "syntax error"
        file, line = place.groups()
        inside = "" if file == self.assignment.main_file else f" in {file}"
        if not_utf8(error):  # not the student's syntax: the editor's encoding
            return f"not saved as UTF-8{inside} (line {line}: save it as UTF-8)"
        return f"syntax error{inside} at line {line}"

    def remaining(self) -> float:
        return self.shares.remaining()

    def limited(self, case: Case) -> Case:
        """``case`` with its time limit for this host: a limit relative to the reference is
        scaled by the host's speed (``harness.timing.calibration``, measured on first need)."""
        if case.relative_timeout is None:
            return case
        if self.host is None:
            self.host = host_speed()
        return replace(case, timeout=case.relative_timeout.seconds(self.host.factor, MAX_TIMEOUT))

    def grade(self, case: Case) -> CaseResult:
        """Grade one case. Never raises: harness failures become HARNESS_ERROR results."""
        case = self.limited(case)
        started = time.monotonic()
        outcome = self._attempt(self._start(case))
        return self._settle(outcome, time.monotonic() - started)

    def grade_all(self, cases: Sequence[Case], lanes: int = 1,
                  on_result: Callable[[CaseResult], None] | None = None) -> list[CaseResult]:
        """Grade ``cases`` with up to ``lanes`` of them side by side (``harness.timing.lanes`` says
        when that is safe; the sandbox may allow fewer). Results, and the ``on_result`` calls,
        come in the order of ``cases``; they run each group's cases from small to large
        (``hang_probes.run_order``), and ``on_result`` sees them in that order. Never raises
        for a case."""
        order = run_order(cases)
        ordered = [cases[i] for i in order]
        lanes = self.sandbox.widen(lanes, lane_cpus(lanes)) if lanes > 1 else 1
        self.lanes = max(self.lanes, lanes)
        if lanes > 1:
            done = LaneRun(self, lanes, on_result).grade(ordered)
        else:
            done = []
            for case in ordered:
                done.append(self.grade(case))
                if on_result is not None:
                    on_result(done[-1])
        results: list[CaseResult | None] = [None] * len(cases)
        for index, result in zip(order, done):
            results[index] = result
        return [result for result in results if result is not None]

    def _start(self, case: Case) -> Ready | Finished:
        """What must happen before ``case`` runs, in case order (import checks, budget), in
        this thread: the case with its time limit, or its result if it will not run."""
        try:
            return self._checks(case)
        except Exception as exc:  # a harness bug must cost one case, never the run
            return Finished(harness_error(case, exc))

    def _attempt(self, step: Ready | Finished) -> Finished:
        """Run and judge a case that is ready (from any lane's thread)."""
        if isinstance(step, Finished):
            return step
        try:
            outcome = self._run(step)
        except Exception as exc:  # a harness bug must cost one case, never the run
            outcome = Finished(harness_error(step.case, exc))
        return replace(outcome, probe=step.probe, cut=step.cut, limit=step.timeout)

    def _settle(self, outcome: Finished, elapsed: float, charged: float | None = None,
                finished: bool = True) -> CaseResult:
        """Take a case's outcome into this grading, in case order: its refused imports, and
        its cost (``charged``, by default ``budget.case_charge``) against its group's share."""
        for message in outcome.refused:
            self.refused_imports.setdefault(f"{message}.", None)
        result = outcome.result
        timed_out = result.verdict is Verdict.TIMED_OUT
        if charged is None:
            charged = case_charge(elapsed, outcome.limit, timed_out, outcome.cpu,
                                  self.cpu_fraction)
        self.shares.record(result.case, charged, finished)
        if timed_out and outcome.probe is not None:
            message = outcome.probe.timeout_message()
            result = replace(result, message=f"{message}\n{result.message}".strip())
        if result.verdict not in (Verdict.NOT_RUN, Verdict.HARNESS_ERROR):  # it ran
            self.hangs.settled(result.case, timed_out, outcome.cut, outcome.probe)
        return result if result.seconds else replace(result, seconds=elapsed)

    def _checks(self, case: Case) -> Ready | Finished:
        if min(self.remaining(), self.shares.wall_remaining()) < MIN_CASE_SECONDS:
            return Finished(CaseResult(case, Verdict.NOT_RUN, 0.0,
                                       "not run: time budget used up"))
        module = case.module or self.assignment.module
        preflight = self.preflight(module)
        if preflight.import_problem:
            self.blocked.setdefault(module, []).append(case)
            return Finished(CaseResult(case, Verdict.NOT_RUN, 0.0,
                                      blocked_by_module(f"{module}.py")))
        broken = [name for name in case.requires if name in preflight.broken]
        if broken:
            return Finished(CaseResult(case, Verdict.NOT_RUN, 0.0, blocked_by_names(broken)))
        self.ran += 1
        allowance = self.shares.allowance(case)
        if allowance < MIN_CASE_SECONDS:
            return Finished(CaseResult(
                case, Verdict.NOT_RUN, 0.0,
                f"not run: the {case.group} cases used up their share of the time budget "
                "(the rest is kept for the other groups)"))
        stopped = self.hangs.stopped(case)
        if stopped:
            return Finished(CaseResult(case, Verdict.NOT_RUN, 0.0, stopped))
        full = case.timeout + preflight.import_allowance
        limit = min(full, self.timeout_cap or full)
        allowance = min(allowance, self.shares.wall_remaining())
        probe = self.hangs.probe(case, limit, PROBE_FLOOR_SECONDS * self.time_scale)
        if probe is not None and probe.seconds <= allowance:
            return Ready(case, probe.seconds, probe)
        return Ready(case, min(limit, allowance), cut=allowance < limit)

    def _run(self, ready: Ready) -> Finished:
        case, timeout = ready.case, ready.timeout
        if case.runner:
            return self._run_game(case, case.runner, timeout)
        raw = self.sandbox.run_examples([e.source for e in case.examples], timeout=timeout,
                                        stdin=case.stdin, module=case.module)
        cpu = raw.reply.cpu_seconds if raw.reply is not None else None
        return replace(self._from_raw(case, raw, timeout), cpu=cpu)

    def _run_game(self, case: Case, runner: str, timeout: float) -> Finished:
        judgement = resolve_runner(runner)(replace(case, timeout=timeout), self.sandbox)
        return Finished(self._from_judgement(case, judgement, Verdict.WRONG_ANSWER))

    def _from_raw(self, case: Case, raw: RawRun, timeout: float) -> Finished:
        """The outcome of a transcript's run."""
        if raw.memory_exceeded:
            return Finished(CaseResult(case, Verdict.OUT_OF_MEMORY, 0.0, self._memory_message(),
                                       raw.output, raw.seconds))
        outcome = self._judged(case, raw, timeout)
        if raw.disk_full and not outcome.result.passed:
            limits = self.sandbox.limits
            outcome = replace(outcome, result=replace(
                outcome.result, verdict=Verdict.WROTE_TOO_MUCH, message=(
                    f"your code wrote more than {limits.disk_mb} MB (or {limits.disk_files} "
                    "files and folders) in its working folder, the most a case may write; "
                    "it was refused more room (No space left on device).\n"
                    + outcome.result.message).strip()))
        return outcome

    def _memory_message(self) -> str:
        limits = self.sandbox.limits
        return (f"your code used more than {limits.sandbox_memory_mb} MB of memory (all its "
                "processes together, with the files and shared memory they wrote into "
                "memory), the most a submission may hold; the case was stopped")

    def _judged(self, case: Case, raw: RawRun, timeout: float) -> Finished:
        """The outcome of a case whose process ran within its memory bound."""
        if raw.reply is None:
            verdict = (Verdict.TIMED_OUT if raw.timed_out else
                       Verdict.PROTOCOL_VIOLATION if raw.reply_problem else Verdict.CRASHED)
            if raw.exit_status == -signal.SIGXCPU:
                verdict = Verdict.TIMED_OUT
            message = describe_process_failure(raw, "running this case", timeout)
            return Finished(CaseResult(case, verdict, 0.0, message, raw.output, raw.seconds))
        if raw.reply.import_error is not None:
            error = error_from_reply(raw.reply.import_error)
            refused = self._refused(error)
            message = refused or f"importing your file raised {error.describe()}"
            return Finished(CaseResult(case, Verdict.RAISED, 0.0, message, raw.output,
                                       raw.seconds), tuple(filter(None, [refused])))
        try:
            observations = observations_from_reply(raw.reply.observations)
        except ValueError as exc:
            return Finished(CaseResult(case, Verdict.PROTOCOL_VIOLATION, 0.0,
                                       f"your code broke the grader's protocol: {exc}",
                                       raw.output, raw.seconds))
        judgement = resolve_comparator(case.compare)(case, observations,
                                                     case.visibility.reveals_expected)
        if judgement.fraction < 1.0 and case.diagnose:
            from harness.compare.diagnosis import with_diagnosis  # only a failed case needs it
            judgement = with_diagnosis(judgement, case, observations)
        if judgement.fraction < 1.0 and case.picture:
            from harness.compare.pictures import with_picture  # only a failed case needs it
            judgement = with_picture(judgement, case, observations,
                                     case.visibility.reveals_expected)
        if case.module is not None:  # the main module's notes are at the top (preflight)
            notes = resolver_notes(raw.reply)
            if notes:
                judgement = replace(judgement, message="\n".join([*notes, judgement.message]))
        errors = [o.error for o in observations if o.error is not None]
        failure = Verdict.WRONG_ANSWER
        if errors:
            failure = Verdict.OUT_OF_MEMORY if errors[0].type == "MemoryError" else Verdict.RAISED
        explained = [(error, self._refused(error)) for error in errors]
        said = [error for error, note in explained if note]  # at the top, once
        if said:
            judgement = replace(judgement, message=without_repeats(judgement.message, said))
        return Finished(self._from_judgement(case, judgement, failure, raw.output, raw.seconds),
                       tuple(note for _, note in explained if note))

    def _refused(self, error: ErrorInfo) -> str:
        """If ``error`` is an import this course refuses (e.g. inside a function, or in a second
        module) or Python 2 code (``xrange``), its message (kept once for the top of the results
        as the case settles); else ""."""
        python = python_version(self.sandbox.isolation.interpreter)
        return (refused_import(error, self.assignment.allowed_packages, python)
                or python2_note(error, python))

    @staticmethod
    def _from_judgement(case: Case, judgement: Judgement, failure: Verdict, output: str = "",
                        seconds: float = 0.0) -> CaseResult:
        if judgement.failure is not None:
            failure = judgement.failure
        verdict = Verdict.PASSED if judgement.fraction >= 1.0 else failure
        score = case.points * judgement.fraction
        return CaseResult(case, verdict, score, judgement.message, output, seconds,
                          judgement.leaderboard, judgement.parts,
                          "" if verdict is Verdict.PASSED else judgement.picture,
                          judgement.diagnosis)

    def close(self) -> None:
        self.sandbox.close()
        shutil.rmtree(self._staging, ignore_errors=True)
