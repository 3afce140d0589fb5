"""The one grading API: ``grade(assignment, submission, options) -> GradingResult``.

Every way of grading goes through here: the command line (``grade``, ``check``), Gradescope's
entry point, batch jobs (each a ``grade`` process) and the pytest plugin, which is a thin
adapter over ``GradingSession`` so instructors can still run specs with pytest's selection
(``-k``, ``-x``, ``--lf``). A session grades case by case with one ``Grader`` per assignment and
builds the results document once, after every student process is gone.
"""
from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from harness.compare.constant_parts import withhold_constant_parts
from harness.compare.diagnosis_groups import consistent_diagnoses
from harness.compare.mirror_images import RIGHT_ONLY_WHERE_SHOWN, mark_mirror_images, shown_only
from harness.grading import results as results_file
from harness.grading.grader import Grader
from harness.intake.python_version import NEWER_PYTHON, zero_note
from harness.records.spec import Assignment, Case, Visibility
from harness.records.verdicts import CaseResult
from harness.sandbox.levels import Level
from harness.spec import SpecError
from harness.spec.loader import load_all_cases, load_checked_cases
from harness.spec.run import RunContext, as_run
from harness.timing.lanes import choose_lanes


@dataclass(frozen=True)
class GradingOptions:
    """How to grade.

    Attributes:
        visible_only: only the visible cases (a student's local check).
        budget: seconds for the whole run (default: the assignment's ``budget_seconds``).
        timeout_cap: no case runs longer than this (quick local runs).
        siblings: a submitted file brings the other Python files of its folder.
        lanes: how many cases may run side by side (``harness.timing.lanes``); None: as many as the
            host has idle CPUs for.
        capped: the budget is also a wall-clock cap, as on Gradescope, whose container is
            stopped at its cap; otherwise the wall clock ends the run only at
            ``harness.timing.budget.LOCAL_WALL_FACTOR`` times the budget.
    """

    visible_only: bool = False
    budget: float | None = None
    timeout_cap: float | None = None
    siblings: bool = False
    lanes: int | None = None
    capped: bool = False


@dataclass(frozen=True)
class GradingResult:
    """The results document (what results.json holds) and the case results behind it."""

    document: dict[str, Any]
    results: tuple[CaseResult, ...]

    @property
    def score(self) -> float:
        return float(self.document["score"])

    @property
    def max_score(self) -> float:
        return float(sum(t["max_score"] for t in self.document["tests"]))


class GradingSession:
    """Grades one submission's cases, possibly of several assignments, and builds one document.

    Call ``plan`` with every case that will be graded (the time budget is shared between their
    groups), then ``grade`` each, then ``finish``.
    """

    def __init__(self, submission: Path, options: GradingOptions = GradingOptions(), *,
                 games: Path | None = None) -> None:
        self.submission = submission
        self.options = options
        self.games = games  # where game runners keep the games they play (RunContext.games)
        self.started = time.monotonic()
        self.graders: dict[str, Grader] = {}
        self.results: dict[str, CaseResult] = {}
        self.spec_errors: list[str] = []
        self.planned: dict[str, list[Case]] = {}

    def plan(self, assignment: Assignment, cases: Sequence[Case]) -> None:
        self.planned.setdefault(assignment.name, []).extend(cases)

    def grader(self, assignment: Assignment) -> Grader:
        if assignment.name not in self.graders:
            budget = self.options.budget if self.options.budget is not None \
                else assignment.budget
            remaining = budget - (time.monotonic() - self.started)
            self.graders[assignment.name] = Grader(
                assignment, self.submission, remaining, timeout_cap=self.options.timeout_cap,
                siblings=self.options.siblings, planned=self.planned.get(assignment.name, ()),
                capped=self.options.capped, games=self.games)
        return self.graders[assignment.name]

    def grade(self, assignment: Assignment, case: Case) -> CaseResult:
        result = self.grader(assignment).grade(case)
        self.results[case.id] = result
        return result

    def grade_all(self, assignment: Assignment, cases: Sequence[Case],
                  on_case: Callable[[CaseResult], None] | None = None) -> None:
        """Grade ``cases`` in lanes where the host allows (``harness.timing.lanes``); ``on_case``
        sees each result in case order."""
        def keep(result: CaseResult) -> None:
            self.results[result.case.id] = result
            if on_case is not None:
                on_case(result)

        lanes = choose_lanes(assignment.limits.memory_mb, self.options.lanes)
        self.grader(assignment).grade_all(cases, lanes, keep)

    def summary(self) -> str:
        lines = []
        for name, grader in self.graders.items():
            lines.append(f"Assignment: {grader.assignment.title} ({name})")
            warning = grader.python_warning
            if warning:
                lines.append(warning)
            lines.extend(grader.found.notes)
            lines.extend(grader.summary_lines())
        lines.extend(f"Spec error (tell your instructor): {e}" for e in self.spec_errors)
        return "\n".join(lines)

    def host_lines(self) -> list[str]:
        """How the grading host ran the code (isolation, bounds, speed): for instructors, in
        ``extra_data`` (``grade`` prints it), never in the output students read."""
        lines = []
        for grader in self.graders.values():
            lines.append(f"Isolation: {grader.isolation_text}")
            if grader.bounds_text:
                lines.append(f"Bounds: {grader.bounds_text}")
            if grader.host is not None:
                speed = grader.host.describe()
                lines.append(speed[:1].upper() + speed[1:])  # capitalize() lowers the rest
        return lines

    def finish(self, cases: Sequence[Case]) -> dict[str, Any]:
        """Close every sandbox, then build the document for ``cases`` (in this order; a case
        never graded is kept with its maximum score, marked not run). Rules over a whole group
        (``constant_parts``) apply here, to the results kept too."""
        for grader in self.graders.values():
            grader.close()  # every student process is gone before the results are built
        results = mark_mirror_images(consistent_diagnoses(withhold_constant_parts([
            self.results.get(case.id) or results_file.not_run(
                [case], "not run: grading stopped before this case")[0] for case in cases])))
        self.results.update((result.case.id, result) for result in results)
        reasons = [g.ungradable for g in self.graders.values() if g.ungradable]
        newer = [zero_note(g.assignment.grading_python) for g in self.graders.values()
                 if g.python_warning]
        hosts = [asdict(g.host) for g in self.graders.values() if g.host is not None]
        # How the cases ran, for instructors (not in the output: one lane or two, students
        # get the same text)
        lanes = {"lanes": max((g.lanes for g in self.graders.values()), default=1),
                 "graded_again_alone": [i for g in self.graders.values()
                                        for i in g.graded_again_alone]}
        levels = [g.isolation_level for g in self.graders.values() if g.isolation_level]
        mirrored = shown_only(results)  # for instructors: answers kept, not searched?
        return results_file.build(
            results, output=self.summary(), execution_time=time.monotonic() - self.started,
            extra={"spec_errors": self.spec_errors, GRADING_HOST: self.host_lines(),
                   **({ISOLATION_LEVEL: levels[0]} if levels else {}),
                   **({"ungradable": reasons[0]} if reasons else {}),
                   **({NEWER_PYTHON: newer[0]} if newer and not reasons else {}),
                   **({"host_speed": hosts[0]} if hosts else {}),
                   **({RIGHT_ONLY_WHERE_SHOWN: mirrored} if mirrored else {}), **lanes})


GRADING_HOST = "grading_host"
"""``extra_data`` key of the host's lines (isolation, bounds, speed), for instructors."""
ISOLATION_LEVEL = "isolation_level"
"""``extra_data`` key of the name of the isolation ``Level`` the code ran under."""


def weaker_isolation_line(level: str) -> str:
    """For a student's own computer (``check``, ``play``): one line when its code ran under
    weaker isolation than a grading host gives (``level``: a ``Level``'s name), since results
    here may then differ from the grader's; "" otherwise. The host's other details are not the
    student's concern."""
    if level not in Level.__members__ or Level[level] is Level.USER_NAMESPACED:
        return ""
    return (f"Isolation: {Level[level].value}; results on this computer may differ from the "
            "grader's")


def with_student_lines(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` with :func:`weaker_isolation_line` after its output's first line, for
    ``check`` to print."""
    extra = document.get("extra_data", {})
    line = weaker_isolation_line(str(extra.get(ISOLATION_LEVEL, "")))
    if not line:
        return document
    head, _, rest = str(document.get("output", "")).partition("\n")
    return dict(document, output="\n".join(part for part in (head, line, rest) if part))


def cases_to_grade(assignment: Assignment, options: GradingOptions) -> list[Case]:
    """Every case of the assignment in spec order (visible ones only if asked), checked as
    ``list`` and ``build`` check them (``load_checked_cases``, one implementation).

    Raises:
        SpecError: a broken case file or assignment.yaml, naming the file, line and field: a
            grading never runs on part of a spec (it would give grades that look real).
    """
    return [case for case in load_checked_cases(assignment)
            if not options.visible_only or case.visibility is Visibility.VISIBLE]


def grade(run: RunContext | str, submission: Path, options: GradingOptions = GradingOptions(),
          on_case: Callable[[CaseResult], None] | None = None) -> GradingResult:
    """Grade ``submission`` against every case of the run's assignment.

    Raises:
        SpecError: the assignment is unknown, or its assignment.yaml or a case file is broken.
    """
    run = as_run(run)
    assignment = run.assignment
    session = GradingSession(submission, options, games=run.games)
    cases = cases_to_grade(assignment, options)
    session.plan(assignment, cases)
    session.grade_all(assignment, cases, on_case)
    document = session.finish(cases)
    return GradingResult(document, tuple(session.results[c.id] for c in cases))


def grade_to_file(run: RunContext | str, submission: Path, output: Path,
                  options: GradingOptions = GradingOptions(),
                  on_case: Callable[[CaseResult], None] | None = None) -> dict[str, Any]:
    """``grade`` into the results file ``output``, and return the document written.

    Always leaves a valid results file: a provisional one first (with room reserved for the
    final one on a full disk), the final one, or a fallback that keeps every case with its
    maximum score, marked not run, if grading failed in between. A broken spec and an
    interrupt leave a document that is not final and says so (no grade), and are raised.

    Raises:
        SpecError: the spec is broken (nothing was graded).
        KeyboardInterrupt: Ctrl-C or SIGTERM (``harness.interrupts``) stopped the grading.
    """
    run = as_run(run)
    started = time.monotonic()
    results_file.write(output, results_file.provisional(
        "Grading started but did not finish; please contact your instructor."),
        reserve=results_file.RESERVE_BYTES)
    try:
        document = grade(run, submission, options, on_case).document
        results_file.write(output, document)
        return document
    except KeyboardInterrupt as exc:  # Ctrl-C or SIGTERM (harness.interrupts): no grade at all
        results_file.write(output, results_file.interrupted(str(exc) or "SIGINT"))
        raise
    except SpecError as exc:  # a broken spec grades nobody (and never gives a real-looking 0)
        results_file.write(output, results_file.misconfigured(str(exc)))
        raise
    except BaseException as exc:  # the fallback below must always be written
        problem = f"{type(exc).__name__}: {exc}"
    print(f"gamegrader: grading failed ({problem}); writing a fallback results.json",
          file=sys.stderr)
    _write_fallback(run, output, problem, time.monotonic() - started,
                    options.visible_only)
    fallback: dict[str, Any] = json.loads(output.read_text(encoding="utf-8"))
    return fallback


def _write_fallback(run: RunContext, output: Path, problem: str, seconds: float,
                    visible_only: bool) -> None:
    try:
        cases = load_all_cases(run.assignment)
        if visible_only:
            cases = [c for c in cases if c.visibility is Visibility.VISIBLE]
    except SpecError:
        cases = []
    results = results_file.not_run(cases, "not run: the grader failed (see the message above)")
    results_file.write(output, results_file.build(
        results, output=f"The grader itself failed: {problem}. Your instructor has been "
                        "shown this message; no test was lost.", execution_time=seconds,
        extra={"harness_error": problem}))
