"""One grading job: a submission's files, graded by ``python -m harness grade`` in a subprocess.

A job carries the submission's bytes, not its path, so it runs the same on this machine and on
a dask worker that shares no file system with it: the files are written to a fresh temporary
folder, graded there, and only the results document comes back. Each submission therefore gets
its own grading process, exactly as a single ``gamegrader grade`` would, and the same verdicts.
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

import harness
from harness.intake import DEFAULT_CAPS, Caps, take

TIMEOUT_MARGIN = 300.0


UNGRADABLE = "ungradable:"  # how a status (or a JobResult's problem) says no case could run


class SubmissionRefused(ValueError):
    """A submission is over the intake caps (``harness.intake.Caps``): it is not graded, and its
    status says why."""


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
    """

    key: str
    assignment: str
    files: Mapping[str, bytes]
    is_file: bool
    timeout_cap: float | None = None
    budget: float | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    mtimes: Mapping[str, float] = field(default_factory=dict)

    def fingerprint(self, context: str) -> str:
        """A digest of the files, the grading options and ``context`` (what else decides the
        verdicts, e.g. ``spec_fingerprint``): equal digests mean a regrade would change nothing."""
        digest = hashlib.sha256()
        options = {"assignment": self.assignment, "is_file": self.is_file,
                   "timeout_cap": self.timeout_cap, "budget": self.budget,
                   "env": dict(sorted(self.env.items())), "context": context}
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
    (``harness.intake``: bounded, no link followed, the same caps).

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


def grade_job(job: Job, python: str | None = None) -> JobResult:
    """Grade one job in a fresh ``python -m harness grade`` process.

    Runs on whichever machine calls it (this one, or a dask worker), with the ``harness``
    package that this module was imported from. Never raises for a student's or the grader's
    failure: those come back as an JobResult with a ``problem``.

    Args:
        job: what to grade.
        python: the interpreter to run (default: the current one).
    """
    started = time.monotonic()
    project = Path(harness.__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory(prefix="gamegrader-batch-") as temporary:
        folder = Path(temporary)
        output = folder / "out" / "results.json"
        try:
            submission = _materialise(job, folder)
        except (OSError, ValueError) as exc:
            return JobResult(job.key, None, f"could not unpack the submission: {exc}", 0.0)
        command = [python or sys.executable, "-m", "harness", "grade", "--assignment",
                   job.assignment, "--submission", str(submission), "--output", str(output),
                   "--quiet"]
        if job.timeout_cap is not None:
            command += ["--timeout-cap", str(job.timeout_cap)]
        if job.budget is not None:
            command += ["--budget", str(job.budget)]
        path = os.pathsep.join(filter(None, [str(project), os.environ.get("PYTHONPATH")]))
        env = {**os.environ, "PYTHONPATH": path, **job.env}
        limit = (job.budget or 900.0) + TIMEOUT_MARGIN
        try:  # each grading leases its own sandbox user (harness.sandbox.users)
            done = subprocess.run(command, cwd=folder, env=env, capture_output=True,
                                  text=True, errors="replace", timeout=limit,
                                  stdin=subprocess.DEVNULL)
            tail, status = done.stderr[-4000:], done.returncode
        except subprocess.TimeoutExpired as exc:
            stderr = exc.stderr.decode(errors="replace") \
                if isinstance(exc.stderr, bytes) else ""
            tail, status = stderr[-4000:], None
        seconds = time.monotonic() - started
        try:
            document = json.loads(output.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            document = None
    final = isinstance(document, dict) and bool(document.get("extra_data", {}).get("final"))
    if status is None:
        problem = f"the grading process ran longer than {limit:g} s and was stopped"
    elif status != 0:
        problem = f"the grading process exited with status {status}"
    elif not final:
        problem = "the grading process left no final results.json"
    else:
        problem = ""
    return JobResult(job.key, document if isinstance(document, dict) else None, problem, seconds,
                   tail)
