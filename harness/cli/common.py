"""What the commands share: grading into a file, and checking names and paths given on the
command line."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any, Callable

from harness.grading.api import GradingOptions, grade_to_file
from harness.intake.reading import take
from harness.intake.submission import stem_key
from harness.paths import checker_paths
from harness.records.verdicts import CaseResult
from harness.spec import SpecError, find_assignment, list_assignments
from harness.spec.run import RunContext


def _progress(quiet: bool, run: RunContext, visible_only: bool
              ) -> Callable[[CaseResult], None] | None:
    """On a terminal, each case as it finishes, on a bar redrawn in place (``check`` of
    Isolation takes 16 s, a player that overruns its clock minutes): ``checking [####....]
    12/22  0:05 elapsed, ETA 0:04  PASS 1.12 corner [1/1]``. Nothing when ``quiet`` or when
    stderr is no terminal (a log, CI, Gradescope)."""
    if quiet or not sys.stderr.isatty():
        return None
    from harness.batch.progress import Progress
    from harness.grading.feedback import points_text
    from harness.spec.loader import load_checked_cases

    total = sum(1 for case in load_checked_cases(run.assignment)
                if not visible_only or case.visibility.value == "visible")
    bar = Progress(total, label="checking" if visible_only else "grading")
    bar.start()

    def show(result: CaseResult) -> None:
        mark = "PASS" if result.passed else "FAIL"
        bar.advance(f"{mark} {result.case.number} {result.case.name[:50]} "
                    f"[{points_text(result.score)}/{points_text(result.case.points)}]")
    return show


def run_grading(run: RunContext, submission: Path, output: Path, *,
                visible_only: bool = False, siblings: bool = False, budget: float | None = None,
                timeout_cap: float | None = None, quiet: bool = False,
                lanes: int | None = None) -> dict[str, Any]:
    """Grade ``submission`` into ``output`` through the one grading API; see
    ``harness.grading.api.grade_to_file``."""
    options = GradingOptions(visible_only=visible_only, budget=budget,
                             timeout_cap=timeout_cap, siblings=siblings, lanes=lanes)
    progress = _progress(quiet, run, visible_only)
    try:
        return grade_to_file(run, submission, output, options, progress)
    finally:
        if progress is not None:  # the bar's line ends
            print(file=sys.stderr)


def at_least_one(text: str) -> int:
    """A whole number of 1 or more, for a count option."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of 1 or more, got {text!r}")
    return value


class UsageProblem(Exception):
    """A command-line mistake (a wrong name, a missing path): exit status 2 with this text."""


def known_assignment(name: str) -> str:
    """``name`` if it is an assignment; otherwise a UsageProblem naming the close ones."""
    names = list_assignments()
    if name in names:
        return name
    import difflib  # a wrong name only
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
    hint = f"; did you mean {' or '.join(close)}?" if close else ""
    raise UsageProblem(f"no assignment named {name!r}{hint} (known: {', '.join(names)})")


def existing_path(path: Path, what: str = "file or folder") -> Path:
    """``path`` if something is there; otherwise a UsageProblem saying it is missing."""
    if not os.path.lexists(path):
        raise UsageProblem(f"no such {what}: {path}")
    return path


def infer_assignment(path: Path) -> str:
    """The assignment ``path`` (a file, or files in a folder) is for: the one a student package
    serves; else the one with a handout file of that name (``agent (1).py`` too, any of an
    assignment's files, not only its main one, and for a one-file assignment the handout's
    ``player_<account>.py``); else the one with a handout file whose name is close to it
    (``adversarial_serach.py``; the results then say what was expected).

    Raises:
        SpecError: no assignment matches, or several do.
    """
    names = list_assignments()
    if len(names) == 1:
        return names[0]
    snapshot = take(path, skip=checker_paths())
    keys = {stem_key(f.path.stem) for f in snapshot.files}
    if snapshot.is_file:
        keys.add(stem_key(path.stem))
    specs = {name: find_assignment(name) for name in names}
    handout_keys = {name: {stem_key(Path(file).stem) for file in a.submission_files}
                    for name, a in specs.items()}
    matches = [name for name in names if handout_keys[name] & keys]
    if not matches:
        matches = [name for name in names if len(specs[name].submission_files) == 1
                   and any(key.startswith(handout + "_") for key in keys
                           for handout in handout_keys[name])]
    if not matches:
        import difflib  # a misnamed file only
        every = set().union(*handout_keys.values())
        close = {near for key in keys for near in difflib.get_close_matches(key, every, 3, 0.8)}
        matches = [name for name in names if handout_keys[name] & close]
    if len(matches) > 1:
        raise SpecError(path, f"cannot tell which assignment this is for: it fits "
                        f"{', '.join(matches)}; pass --assignment with one of them")
    if not matches:
        expected = ", ".join(sorted({file for a in specs.values() for file in a.submission_files}))
        raise SpecError(path, f"cannot tell which assignment this is for: the handouts name "
                        f"the files {expected}; rename your file, or pass --assignment (one "
                        f"of: {', '.join(names)})")
    return matches[0]


def install_missing_packages(run: RunContext) -> None:
    """Students: the first check installs the packages the course allows (once, per user)."""
    from harness.release.packages_install import InstallError, install, missing
    requirements = run.assignment.requirements
    if not missing(requirements):
        return
    print(f"Installing the packages this course allows ({', '.join(requirements)}) for the "
          "checker, once...", file=sys.stderr)
    try:
        install(requirements)
    except InstallError as exc:
        print(f"warning: {exc}\n(a file that imports them will not run here)", file=sys.stderr)
