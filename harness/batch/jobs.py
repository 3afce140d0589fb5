"""One grading job: a submission's files, graded as ``gamegrader grade`` grades them, in a
process of its own.

A job carries the submission's bytes, not its path, so it runs the same on this machine and on
a dask worker that shares no file system with it: the files are written to a fresh temporary
folder, graded there, and only the results document comes back. Each submission therefore gets
its own grading process, exactly as a single ``gamegrader grade`` would, and the same verdicts.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Collection, Iterable, Mapping

from harness.grading import results as results_file
from harness.intake.reading import DEFAULT_CAPS, Caps, take
from harness.parallel.warm import JobEnd, WarmPool
from harness.paths import with_absolute_root

TIMEOUT_MARGIN = 300.0


UNGRADABLE = "ungradable:"  # how a status (or a JobResult's problem) says no case could run


class SubmissionRefused(ValueError):
    """A submission is over the intake caps (``harness.intake.reading.Caps``): it is not graded,
    and its status says why."""


@dataclass(frozen=True)
class Job:
    """What a worker needs to grade one submission.

    Attributes:
        key: the submission's key (its folder in the output).
        assignment: the assignment's short name.
        files: relative path (with "/") -> content of the submission's Python files (what
            intake takes). For a single-file submission, one entry.
        is_file: whether the submission was a single file (graded as a file, not a folder).
        timeout_cap: passed to ``grade --timeout-cap`` when set.
        budget: passed to ``grade --budget`` when set; also bounds the subprocess's run time.
        env: extra environment variables for the grading process (e.g. ``GAMEGRADER_ROOT``).
        mtimes: modification times of ``files`` (restored when they are written out).
        metadata: the submission's metadata in submission_metadata.json's shape, when the
            assignment has a policy (``harness.policy``); None: no policy decided.
    """

    key: str
    assignment: str
    files: Mapping[str, bytes]
    is_file: bool
    timeout_cap: float | None = None
    budget: float | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    mtimes: Mapping[str, float] = field(default_factory=dict)
    metadata: Mapping[str, Any] | None = None

    def fingerprint(self, context: str) -> str:
        """A digest of the files, the grading options and ``context`` (what else decides the
        verdicts, e.g. ``spec_fingerprint``): equal digests mean a regrade would change nothing."""
        digest = hashlib.sha256()
        options = {"assignment": self.assignment, "is_file": self.is_file,
                   "timeout_cap": self.timeout_cap, "budget": self.budget,
                   "env": dict(sorted(self.env.items())), "context": context}
        if self.metadata is not None:
            options["metadata"] = self.metadata
        digest.update(json.dumps(options, sort_keys=True).encode())
        for name in sorted(self.files):
            digest.update(b"\0" + name.encode("utf-8", "surrogateescape") + b"\0")
            digest.update(hashlib.sha256(self.files[name]).digest())
        return digest.hexdigest()


@dataclass(frozen=True)
class JobResult:
    """What came back from grading one job.

    Attributes:
        key: the job's key.
        document: the results document the grading process wrote (None if it wrote nothing
            readable).
        problem: "" when ``document`` is final; otherwise what went wrong (for instructors).
        seconds: wall-clock time of the grading process.
        stderr_tail: the end of the grading process's stderr (instructors only).
    """

    key: str
    document: dict[str, Any] | None
    problem: str
    seconds: float
    stderr_tail: str = ""

    @property
    def is_final(self) -> bool:
        return self.document is not None and not self.problem


def read_files(path: Path, caps: Caps = DEFAULT_CAPS
               ) -> tuple[dict[str, bytes], bool, dict[str, float]]:
    """The Python files of a submitted file or folder, read as ``gamegrader grade`` reads them
    (``harness.intake.reading``: bounded, no link followed, the same caps).

    Returns:
        ``(files, is_file, mtimes)``; keys are paths relative to ``path`` (the file's own name
        for a single file), with "/" separators; ``mtimes`` holds their modification times
        (the pick rule between copies of a file uses them).

    Raises:
        SubmissionRefused: the submission is over the intake caps (or cannot be read).
    """
    snapshot = take(path, caps)
    if snapshot.refused or not snapshot.exists:
        reason = snapshot.refused or "it no longer exists"
        raise SubmissionRefused(f"{UNGRADABLE} submission refused: {reason}")
    files = {f.path.as_posix(): f.data for f in snapshot.files}
    mtimes = {f.path.as_posix(): f.mtime for f in snapshot.files}
    return files, snapshot.is_file, mtimes


def tree_fingerprint(paths: Iterable[Path], suffixes: tuple[str, ...] = (".py", ".yaml", ".json",
                                                                       ".html", ".txt")) -> str:
    """A digest of every file with one of ``suffixes`` under ``paths`` (files or folders)."""
    digest = hashlib.sha256()
    for root in paths:
        files = [root] if root.is_file() else sorted(
            p for p in root.rglob("*") if p.is_file() and p.suffix in suffixes
            and "__pycache__" not in p.parts)
        for file in files:
            digest.update(str(file.relative_to(root.parent)).encode() + b"\0")
            digest.update(hashlib.sha256(file.read_bytes()).digest())
    return digest.hexdigest()


def _materialise(job: Job, folder: Path) -> Path:
    """Write the job's files under ``folder``; return what to pass as ``--submission``."""
    root = folder / "submission"
    root.mkdir()
    for name, content in job.files.items():
        target = (root / name).resolve()
        if root.resolve() not in target.parents:
            raise ValueError(f"refusing to write {name!r} outside the submission folder")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
        if name in job.mtimes:
            os.utime(target, (job.mtimes[name], job.mtimes[name]))
    if job.is_file:
        return root / next(iter(job.files))
    return root


WARM = WarmPool()
"""This process's warm grading processes (``harness.parallel.warm``); ``close_warm`` ends them."""


STOP_GRACE = 30.0
"""Seconds an interrupted grading has to record that it was cut short before it is killed."""


def close_warm() -> None:
    """End this process's idle warm grading processes (call once no job runs)."""
    WARM.close()


def interrupt_gradings(threads: Collection[int] | None = None) -> None:
    """Stop this process's running gradings (with ``threads``, those graded from these threads:
    a dask worker's tasks of one run) as Ctrl-C would: each leaves a results.json saying it was
    interrupted (no grade), and is killed if it has not ended ``STOP_GRACE`` s later."""
    WARM.interrupt(STOP_GRACE, threads)


def warm_up_grading(assignment_name: str) -> None:
    """Run in a warm process before its first grading of ``assignment_name``: import the
    grader, the comparators and runners its cases name, and detect the isolation level and the
    sandbox interpreter's ABI, so that every grading forked from it starts with them (the
    grader's modules alone took about 50 ms of each grading's process). Also what every grading
    otherwise built again for the same answer: the system-call filter (libseccomp's bindings,
    found by two ``ldconfig -p`` runs), the digests of the grader's own modules (every file read
    and hashed, for ``intake.shipped``) and vermin's import (the Python-version notes): about
    30 ms of each forked grading's own CPU time."""
    import harness.grading.api  # noqa: F401 - what grade_here imports, once per worker
    from harness.intake.python_version import newer_features
    from harness.intake.shipped import reference_digests
    from harness.sandbox.levels import detect
    from harness.sandbox.packages import abi_tag
    from harness.sandbox.syscall_filter import status
    from harness.spec import find_assignment
    from harness.spec.loader import load_all_cases

    load_all_cases(find_assignment(assignment_name))  # resolves what each case names
    interpreter = detect().interpreter
    abi_tag(interpreter)  # a probe process per grading otherwise
    status(interpreter)
    reference_digests()
    newer_features("warm_up.py", b"pass\n", (3, 10))  # imports vermin, compiles its patterns


def grade_here(job: Job, submission: str, output: str, cwd: str, stderr: str) -> int:
    """Grade ``job`` in this (fresh, forked) process through the one grading API, as
    ``gamegrader grade --quiet`` does: in ``cwd``, its stderr written to the file ``stderr``.
    Returns the exit status that command would have (2 for a broken spec)."""
    from harness.grading.api import GradingOptions
    from harness.policy.entry import grade_under_policy
    from harness.spec import SpecError
    from harness.spec.run import RunContext

    descriptor = os.open(stderr, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(descriptor, 2)
    os.close(descriptor)
    os.chdir(cwd)
    try:
        grade_under_policy(RunContext(job.assignment, output=Path(output)), Path(submission),
                           Path(output),
                           GradingOptions(budget=job.budget, timeout_cap=job.timeout_cap,
                                          lanes=1), job.metadata or {})
        return 0
    except SpecError as exc:
        print(f"gamegrader: {exc}", file=sys.stderr)
        return 2
    finally:
        sys.stderr.flush()


def grade_job(job: Job, python: str | None = None) -> JobResult:
    """Grade one job in a process of its own, as ``gamegrader grade`` would.

    Runs on whichever machine calls it (this one, or a dask worker), with the ``harness``
    package that this module was imported from. The process is forked from a warm process of
    this machine (``harness.parallel.warm``: start-up paid once per worker, not per submission).
    Never raises for a student's or the grader's failure: those come back as a JobResult with a
    ``problem``.

    Args:
        job: what to grade.
        python: the interpreter to run (default: the current one).
    """
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="gamegrader-batch-") as temporary:
        folder = Path(temporary)
        output = folder / "out" / "results.json"
        try:
            submission = _materialise(job, folder)
        except (OSError, ValueError) as exc:
            return JobResult(job.key, None, f"could not unpack the submission: {exc}", 0.0)
        limit = (job.budget or 900.0) + TIMEOUT_MARGIN
        stderr = folder / "stderr.txt"
        # each grading leases its own sandbox user (harness.sandbox.users)
        outcome = WARM.call(grade_here, (job, str(submission), str(output), str(folder),
                                         str(stderr)), limit,
                            python=python, env=with_absolute_root({**os.environ, **job.env}),
                            warm=(warm_up_grading, (job.assignment,)))
        tail = (_tail(stderr) + "\n" + outcome.error).strip()
        seconds = time.monotonic() - started
        try:
            document = json.loads(output.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            document = None
    return JobResult(job.key, document if isinstance(document, dict) else None,
                     _problem(document, outcome, limit), seconds, tail)


INTERRUPTED = "interrupted:"  # how a JobResult's problem says its grading was cut short


def _problem(document: Any, outcome: JobEnd, limit: float) -> str:
    """What kept a grading from a final result ("" when it has one). A grading the grader
    itself failed (its fallback document) or one cut short by an interrupt has none: neither
    is a grade, and the next run grades the submission again."""
    extra = document.get("extra_data", {}) if isinstance(document, dict) else {}
    extra = extra if isinstance(extra, dict) else {}
    status = outcome.value if isinstance(outcome.value, int) else outcome.status
    finished = status == 0 and extra.get("final") and not extra.get("harness_error")
    if extra.get(results_file.INTERRUPTED) or (outcome.interrupted and not finished):
        return f"{INTERRUPTED} grading was stopped before it finished; the next run grades it again"
    if outcome.status is None:
        return f"the grading process ran longer than {limit:g} s and was stopped"
    if status != 0:
        return f"the grading process exited with status {status}"
    if extra.get("harness_error"):
        return f"the grader failed: {extra['harness_error']}"
    if not extra.get("final"):
        return "the grading process left no final results.json"
    return ""


def _tail(path: Path, chars: int = 4000) -> str:
    """The last ``chars`` characters of a grading's stderr file ("" if there is none)."""
    try:
        with open(path, "rb") as handle:
            handle.seek(max(0, os.fstat(handle.fileno()).st_size - 4 * chars))
            return handle.read().decode(errors="replace")[-chars:]
    except OSError:
        return ""
