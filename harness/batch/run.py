"""Grade a folder of submissions: plan (what is new or changed), grade in parallel, then write the
gradebook and the report from everything the output folder holds.

A rerun skips every submission whose final results.json was made from the same files, the same
specs and grader code, and the same options; ``only`` regrades the named students whatever their
state, and ``force`` regrades everyone.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import harness
from harness.batch import regrade, similarity, store
from harness.batch.canvas import CanvasOptions, Unmatched, write_canvas
from harness.batch.discover import METADATA_FILE, Submission, discover, read_entries
from harness.batch.export_metadata import gradescope_metadata
from harness.batch.gradebook import write_gradebook
from harness.batch.html_report import write_pages
from harness.batch.insights import InsightOptions, write_insights
from harness.batch.jobs import (
    UNGRADABLE,
    Job,
    JobResult,
    SubmissionRefused,
    close_warm,
    grade_job,
    interrupt_gradings,
    read_files,
    tree_fingerprint,
)
from harness.batch.progress import Progress
from harness.parallel.executors import default_workers, run_dask, run_local
from harness.records.spec import Assignment
from harness.spec import find_assignment
from harness.spec.grading_code import grading_code
from harness.spec.loader import load_checked_cases
from harness.timing.calibration import find_speed_ahead


@dataclass(frozen=True)
class BatchOptions:
    """What ``gamegrader batch`` was asked to do (see ``run_batch``)."""

    assignment: str
    submissions: Path
    out: Path
    workers: int | None = None
    scheduler: str | None = None
    only: tuple[str, ...] = ()
    force: bool = False
    timeout_cap: float | None = None
    budget: float | None = None
    progress: bool = True
    insights: InsightOptions = InsightOptions()
    canvas: CanvasOptions = CanvasOptions()


@dataclass(frozen=True)
class BatchSummary:
    """What a batch run did. ``graded``, ``skipped`` and ``failed`` hold submission keys
    (``failed`` is a subset of ``graded``: graded, but with no final result). ``phases``: wall
    seconds of this process's own steps - ``plan`` (discover, read and fingerprint), ``save``
    (storing each result as it came, while the workers graded), ``grading`` (the workers'
    run, ``save`` included) and ``report`` (gradebook, insights, pages) - for benchmarks."""

    records: tuple[store.Record, ...]
    graded: tuple[str, ...]
    skipped: tuple[str, ...]
    failed: tuple[str, ...]
    gradebook: Path
    report: Path
    phases: dict[str, float] = field(default_factory=dict)
    unmatched: tuple[Unmatched, ...] = ()


def spec_fingerprint(assignment: Assignment) -> str:
    """A digest of everything besides the submission that decides its verdicts: the spec
    folder, support and probe files, the harness, and the reference modules the cases'
    comparators and runners import (not the rest of the reference, which other assignments
    use)."""
    code = Path(harness.__file__).resolve().parent
    return tree_fingerprint([assignment.folder, *assignment.support_files,
                             *sorted(grading_code(assignment)), code])


def select(submissions: Sequence[Submission], only: Sequence[str]) -> list[Submission]:
    """The submissions matching any of ``only`` (all of them when ``only`` is empty).

    Raises:
        LookupError: a name in ``only`` matches no submission.
    """
    if not only:
        return list(submissions)
    chosen: list[Submission] = []
    for who in only:
        matching = [s for s in submissions if s.matches(who)]
        if not matching:
            raise LookupError(f"no submission belongs to {who!r} (give a student's name, "
                              "email, id, or a submission folder's name)")
        chosen.extend(s for s in matching if s not in chosen)
    return chosen


def _check_insights(options: BatchOptions) -> None:
    """Refuse, before any grading, insights that could not be computed at the end."""
    earlier = options.insights.compare
    if earlier is not None:
        if earlier.resolve() == options.out.resolve():
            raise ValueError("--compare needs the earlier batch's output folder, not the one "
                             "being written (use a new --out, e.g. out-v2)")
        regrade.load_batch(earlier)
    if options.insights.similarity:
        similarity.require()


def run_batch(options: BatchOptions) -> BatchSummary:
    """Grade the submissions under ``options.submissions`` into ``options.out``.

    Raises:
        SpecError: the assignment is unknown or its spec is broken.
        NotADirectoryError: the submissions folder does not exist.
        LookupError: ``options.only`` names nobody.
        ImportError: ``options.scheduler`` is set but dask.distributed is missing, or
            similarity is asked for but copydetect is missing.
        ValueError: ``options.insights.compare`` is not an earlier batch output folder.
    """
    started = time.perf_counter()
    phases = {"plan": 0.0, "save": 0.0, "grading": 0.0, "report": 0.0}
    assignment = find_assignment(options.assignment)
    load_checked_cases(assignment)  # a broken spec is refused before anyone is graded
    _check_insights(options)
    everyone = discover(options.submissions)
    chosen = select(everyone, options.only)
    context = spec_fingerprint(assignment)
    entries = read_entries(options.submissions / METADATA_FILE) if assignment.policy.active \
        else None
    jobs: list[tuple[Submission, Job, str]] = []
    early: list[tuple[Submission, JobResult]] = []
    skipped = []
    for submission in chosen:
        try:
            files, is_file, mtimes = read_files(submission.path)
        except (SubmissionRefused, OSError) as exc:
            early.append((submission, JobResult(submission.key, None, str(exc), 0.0)))
            continue
        metadata = None if entries is None else gradescope_metadata(
            entries.get(submission.path.name))
        job = Job(submission.key, assignment.name, files, is_file, options.timeout_cap,
                  options.budget, mtimes=mtimes, metadata=metadata)
        fingerprint = job.fingerprint(context)
        forced = options.force or bool(options.only)
        if not forced and store.is_current(options.out, submission.key, fingerprint):
            skipped.append(submission.key)
            continue
        jobs.append((submission, job, fingerprint))

    by_key = {job.key: (submission, fingerprint) for submission, job, fingerprint in jobs}
    progress = Progress(len(jobs) + len(early)) if options.progress else None
    failed: list[str] = []

    def on_done(outcome: JobResult) -> None:
        saving = time.perf_counter()
        submission, fingerprint = by_key.get(outcome.key, (None, ""))
        if submission is None:
            submission = next(s for s, o in early if o.key == outcome.key)
        record = store.save(options.out, submission, outcome, fingerprint)
        if record.problem and not record.problem.startswith(UNGRADABLE):
            failed.append(submission.key)  # the grader's failure, not the student's
        if progress:
            progress.advance(f"{submission.student_label[:30]}: "
                             + (f"{record.score:g}/{record.max_score:g}"
                                if record.score is not None else "no result"))
        phases["save"] += time.perf_counter() - saving

    phases["plan"] = time.perf_counter() - started
    if progress:
        progress.start()
    try:
        for _, outcome in early:
            on_done(outcome)
        planned = [job for _, job, _ in jobs]
        if planned and assignment.reference_times and not options.scheduler:
            find_speed_ahead()  # dask workers may be other machines: each measures its own
        if options.scheduler:
            run_dask(planned, options.scheduler, on_done, grade_job, pin=True,
                     stop=interrupt_gradings)
        else:
            run_local(planned, options.workers or default_workers(), on_done, grade_job,
                      pin=True, stop=interrupt_gradings)
    finally:
        close_warm()  # this run's warm grading processes (harness.parallel.warm)
        if progress:
            progress.finish()
        reporting = time.perf_counter()
        phases["grading"] = reporting - started - phases["plan"]
        records = tuple(store.load(options.out, s) for s in everyone)
        gradebook = options.out / "gradebook.csv"
        write_gradebook(gradebook, records)
        unmatched = write_canvas(options.out / "canvas.csv", records, assignment.title,
                                 options.canvas)
        sections = write_insights(options.out, records, assignment, options.insights)
        report = write_pages(options.out, records, assignment.name, assignment.title, sections)
        phases["report"] = time.perf_counter() - reporting
    graded = tuple(s.key for s, _, _ in jobs) + tuple(s.key for s, _ in early)
    return BatchSummary(records, graded, tuple(skipped), tuple(failed), gradebook, report,
                        phases, tuple(unmatched))
