"""Command line: ``gamegrader grade | check | list | generate`` (also ``python -m harness``)."""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Sequence

from harness import results as results_file
from harness.paths import specs_root
from harness.spec import SpecError, find_assignment, list_assignments
from harness.spec.loader import load_all_cases
from harness.spec.generate import generate
from harness.submission import _stem_key

PYTEST_INI = Path(__file__).resolve().parent / "data" / "pytest.ini"


def run_grading(assignment_name: str, submission: Path, output: Path, *,
                visible_only: bool = False, budget: float | None = None,
                timeout_cap: float | None = None, pytest_args: Sequence[str] = (), quiet: bool = False) -> dict:
    """Grade ``submission`` into ``output`` and return the document written.

    Always leaves a valid results.json: a provisional one first, the final one from the pytest
    plugin, and a fallback (every case kept with its max score, marked not run) if the run
    failed in between.
    """
    import pytest
    started = time.monotonic()
    results_file.write(output, results_file.provisional(
        "Grading started but did not finish; please contact your instructor."))
    try:
        assignment = find_assignment(assignment_name)
        args = [str(assignment.folder / "cases"), "-c", str(PYTEST_INI),
                "--rootdir", str(assignment.folder), "-p", "harness.pytest_plugin",
                "--gg-submission", str(submission), "--gg-results", str(output),
                "--continue-on-collection-errors", "-p", "no:randomly",
                *(["--gg-visible-only"] if visible_only else []),
                *(["--gg-budget", str(budget)] if budget is not None else []),
                *(["--gg-timeout-cap", str(timeout_cap)] if timeout_cap is not None else []),
                *(["-p", "no:terminal"] if quiet else ["-q"]), *pytest_args]
        pytest.main(args)
    except BaseException as exc:  # noqa: BLE001 - the fallback below must always be written
        problem = f"{type(exc).__name__}: {exc}"
    else:
        problem = "the grading run stopped before writing its results"
    if not results_file.is_final(output):
        print(f"gamegrader: grading failed ({problem}); writing a fallback results.json",
              file=sys.stderr)
        _write_fallback(assignment_name, output, problem, time.monotonic() - started,
                        visible_only)
    return json.loads(output.read_text(encoding="utf-8"))


def _write_fallback(name: str, output: Path, problem: str, seconds: float,
                    visible_only: bool) -> None:
    try:
        cases = load_all_cases(find_assignment(name))
        if visible_only:
            cases = [c for c in cases if c.visibility.value == "visible"]
    except SpecError:
        cases = []
    results = results_file.not_run(cases, "not run: the grader failed (see the message above)")
    results_file.write(output, results_file.build(
        results, output=f"The grader itself failed: {problem}. Your instructor has been "
                        "shown this message; no test was lost.", execution_time=seconds,
        extra={"harness_error": problem}))


def infer_assignment(path: Path) -> str:
    """The assignment whose main file name matches ``path`` (a file, or files in a folder).

    Raises:
        SpecError: no assignment matches, or several do.
    """
    names = [p.stem for p in ([path] if path.is_file() else path.rglob("*.py"))]
    keys = {_stem_key(n) for n in names}
    matches = [a for a in list_assignments()
               if _stem_key(Path(find_assignment(a).main_file).stem) in keys]
    if len(matches) != 1:
        known = ", ".join(list_assignments())
        raise SpecError(path, f"cannot tell which assignment this is ({len(matches)} match); "
                        f"pass --assignment (one of: {known})")
    return matches[0]


def _cmd_grade(args: argparse.Namespace) -> int:
    document = run_grading(args.assignment, args.submission, args.output,
                           budget=args.budget, timeout_cap=args.timeout_cap, quiet=args.quiet)
    maximum = sum(t["max_score"] for t in document["tests"])
    if args.show:
        from harness.report import render
        print(render(document, color=sys.stdout.isatty()))
    print(f"\nScore: {document['score']:g}/{maximum:g}  (results written to {args.output})")
    return 0


def _cmd_check(args: argparse.Namespace) -> int:
    from harness.report import render
    name = args.assignment or infer_assignment(args.path)
    with tempfile.TemporaryDirectory() as folder:
        document = run_grading(name, args.path, Path(folder) / "results.json",
                               visible_only=True, quiet=True)
    print(render(document, color=sys.stdout.isatty()))
    print("Hidden cases are graded only on Gradescope.")
    return 0


def _cmd_list(args: argparse.Namespace) -> int:
    for name in list_assignments():
        assignment = find_assignment(name)
        try:
            cases = load_all_cases(assignment)
            visible = sum(c.points for c in cases if c.visibility.value == "visible")
            total = sum(c.points for c in cases)
            print(f"{name:22} {total:7g} points ({visible:g} in visible cases, "
                  f"{len(cases)} cases)  {assignment.title}")
        except SpecError as exc:
            print(f"{name:22} spec error: {exc}")
    return 0


def _cmd_generate(args: argparse.Namespace) -> int:
    names = args.assignments or list_assignments()
    stale = []
    for name in names:
        changed = generate(find_assignment(name), check=args.check)
        stale.extend(changed)
        for path in changed:
            print(f"{'out of date' if args.check else 'wrote'}: {path}")
    return 1 if args.check and stale else 0


def _cmd_gradescope(args: argparse.Namespace) -> int:
    from harness.gradescope import run
    return run(args.root, args.assignment, args.budget)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gamegrader", description=(
        "Grade game-search assignments: student code runs isolated, results are compared "
        "in the grader, and a Gradescope results.json is written."))
    commands = parser.add_subparsers(dest="command", required=True)

    grade = commands.add_parser("grade", help="grade one submission into results.json",
                                description="Grade a submission (a file or a folder) against "
                                "every case and write Gradescope's results.json. Exits 0 "
                                "whenever a valid results.json was written.")
    grade.add_argument("--assignment", required=True, help="short name (see 'gamegrader list')")
    grade.add_argument("--submission", required=True, type=Path, help="file or folder")
    grade.add_argument("--output", required=True, type=Path, help="results.json to write")
    grade.add_argument("--budget", type=float, help="seconds for the whole run "
                       "(default: the assignment's budget_seconds)")
    grade.add_argument("--timeout-cap", type=float, help="run no case longer than this many "
                       "seconds (quick local runs; Gradescope uses the spec's timeouts)")
    grade.add_argument("--quiet", action="store_true", help="no pytest progress output")
    grade.add_argument("--show", action="store_true", help="print every case's result and "
                       "feedback (as students see them, hidden cases included)")
    grade.set_defaults(run=_cmd_grade)

    check = commands.add_parser("check", help="students: run the visible cases on your file",
                                description="Run the visible cases on your file and show what "
                                "passed, what failed and why. The assignment is inferred from "
                                "the file name.")
    check.add_argument("path", type=Path, help="your file (e.g. adversarial_search.py) or folder")
    check.add_argument("--assignment", help="the assignment, if the file name does not say")
    check.set_defaults(run=_cmd_check)

    listing = commands.add_parser("list", help="the assignments and their points",
                                  description="List the assignments and their point totals.")
    listing.set_defaults(run=_cmd_list)

    scope = commands.add_parser("gradescope", help="the Gradescope entry point (run_autograder)",
                                description="Grade ROOT/submission into "
                                "ROOT/results/results.json, as Gradescope expects.")
    scope.add_argument("--root", type=Path, default=Path(os.environ.get("AUTOGRADER_ROOT",
                       "/autograder")), help="default: $AUTOGRADER_ROOT or /autograder")
    scope.add_argument("--assignment", help="default: $GAMEGRADER_ASSIGNMENT or "
                       "ROOT/source/ASSIGNMENT")
    scope.add_argument("--budget", type=float, help="seconds for the whole run")
    scope.set_defaults(run=_cmd_gradescope)

    gen = commands.add_parser("generate", help="instructors: regenerate hidden cases",
                              description="Re-create generated/*.yaml from the reference "
                              "generators named in the case files.")
    gen.add_argument("assignments", nargs="*", help="names (default: all)")
    gen.add_argument("--check", action="store_true", help="only report out-of-date files "
                     "(exit 1 if any)")
    gen.set_defaults(run=_cmd_generate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except SpecError as exc:
        print(f"gamegrader: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
