"""Command line: ``gamegrader grade | check | list | generate`` (also ``python -m harness``)."""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import Callable, Sequence

from harness.grading.api import GradingOptions, grade_to_file
from harness.grading.verdicts import CaseResult
from harness.intake.reading import take
from harness.intake.submission import stem_key
from harness.paths import checker_paths
from harness.spec import SpecError, find_assignment, list_assignments
from harness.spec.loader import load_checked_cases
from harness.timing.calibration import described, host_speed


def _progress(quiet: bool) -> Callable[[CaseResult], None] | None:
    """One character per case on stderr while grading ("." passed, "F" not), like pytest -q."""
    if quiet:
        return None

    def show(result: CaseResult) -> None:
        print("." if result.passed else "F", end="", file=sys.stderr, flush=True)
    return show


def run_grading(assignment_name: str, submission: Path, output: Path, *,
                visible_only: bool = False, siblings: bool = False, budget: float | None = None,
                timeout_cap: float | None = None, quiet: bool = False,
                lanes: int | None = None) -> dict:
    """Grade ``submission`` into ``output`` through the one grading API; see
    ``harness.grading.api.grade_to_file``."""
    options = GradingOptions(visible_only=visible_only, budget=budget,
                             timeout_cap=timeout_cap, siblings=siblings, lanes=lanes)
    document = grade_to_file(assignment_name, submission, output, options, _progress(quiet))
    if not quiet:
        print(file=sys.stderr)
    return document


def _at_least_one(text: str) -> int:
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


def _cmd_grade(args: argparse.Namespace) -> int:
    known_assignment(args.assignment)
    existing_path(args.submission)
    if args.games is not None:
        from harness.tournament.replays import GAMES_DIR_ENV
        os.environ[GAMES_DIR_ENV] = str(args.games.resolve())
    document = run_grading(args.assignment, args.submission, args.output,
                           budget=args.budget, timeout_cap=args.timeout_cap, quiet=args.quiet,
                           lanes=args.lanes)
    maximum = sum(t["max_score"] for t in document["tests"])
    if args.show:
        from harness.grading.report import render
        print(render(document, color=sys.stdout.isatty()))
    print(f"\nScore: {document['score']:g}/{maximum:g}  (results written to {args.output})")
    if described(document):
        print(described(document))
    return 0


def _cmd_check(args: argparse.Namespace) -> int:
    from harness.grading.coverage import coverage_lines, coverage_of
    from harness.grading.report import render
    existing_path(args.path)
    name = known_assignment(args.assignment) if args.assignment else infer_assignment(args.path)
    _install_missing_packages(name)
    with tempfile.TemporaryDirectory() as folder:
        document = run_grading(name, args.path, Path(folder) / "results.json",
                               visible_only=True, siblings=True, quiet=True)
    print(render(document, color=sys.stdout.isatty()))
    points_run = sum(float(test.get("max_score", 0)) for test in document.get("tests", []))
    print("\n".join(coverage_lines(coverage_of(find_assignment(name)), points_run)))
    return 0


def _install_missing_packages(name: str) -> None:
    """Students: the first check installs the packages the course allows (once, per user)."""
    from harness.release.packages_install import InstallError, install, missing
    requirements = find_assignment(name).requirements
    if not missing(requirements):
        return
    print(f"Installing the packages this course allows ({', '.join(requirements)}) for the "
          "checker, once...", file=sys.stderr)
    try:
        install(requirements)
    except InstallError as exc:
        print(f"warning: {exc}\n(a file that imports them will not run here)", file=sys.stderr)


def _cmd_packages(args: argparse.Namespace) -> int:
    from harness.release.packages_install import InstallError, install
    requirements = sorted({r for name in args.assignments or list_assignments()
                           for r in find_assignment(name).requirements})
    try:
        for line in install(requirements, reinstall=args.reinstall):
            print(line)
    except InstallError as exc:
        print(f"gamegrader packages: {exc}", file=sys.stderr)
        return 1
    return 0


def _cmd_list(args: argparse.Namespace) -> int:
    """Every assignment, each with its points or its spec error (one broken assignment does
    not hide the others); exit status 1 if any has an error."""
    broken = 0
    for name in list_assignments():
        try:
            assignment = find_assignment(name)
            cases = load_checked_cases(assignment)
            visible = sum(c.points for c in cases if c.visibility.value == "visible")
            total = sum(c.points for c in cases)
            print(f"{name:22} {total:7g} points ({visible:g} in visible cases, "
                  f"{len(cases)} cases)  {assignment.title}")
        except SpecError as exc:
            broken += 1
            print(f"{name:22} spec error: {exc}")
    return 1 if broken else 0


def _cmd_generate(args: argparse.Namespace) -> int:
    from harness.spec.generate import generate
    names = [known_assignment(n) for n in args.assignments] or list_assignments()
    stale, broken = [], []
    for name in names:  # a broken assignment is reported, and the others still done
        try:
            assignment = find_assignment(name)
            changed = generate(assignment, check=args.check)
            stale.extend(changed)
            for path in changed:
                print(f"{'out of date' if args.check else 'wrote'}: {path}")
            if args.check and not changed:  # fresh generated files: the specs must load too
                load_checked_cases(assignment)
        except SpecError as exc:
            broken.append(name)
            print(f"spec error: {exc}")
    return 1 if broken or (args.check and stale) else 0


def _cmd_calibrate(args: argparse.Namespace) -> int:
    try:
        print(host_speed(fresh=args.fresh).describe())
    except ValueError as exc:
        raise UsageProblem(str(exc)) from exc
    if args.record:
        if in_student_package():
            raise UsageProblem("--record needs the reference solutions (the full repository)")
        from harness.timing.reference_times import record
        for name in [known_assignment(n) for n in args.assignments] or list_assignments():
            written = record(name, args.rounds)
            print(f"wrote: {written}" if written else f"{name}: no timeout is relative to the "
                  "reference, nothing to record")
    return 0


def _cmd_gradescope(args: argparse.Namespace) -> int:
    from harness.grading.gradescope import run
    existing_path(args.root, "autograder root folder")
    return run(args.root, args.assignment, args.budget)


def _cmd_replay(args: argparse.Namespace) -> int:
    from harness.tournament.replays import replay_record
    try:
        page = replay_record(args.record, args.out)
    except ValueError as exc:
        print(f"gamegrader replay: {exc}", file=sys.stderr)
        return 2
    print(page)
    return 0


def _cmd_tournament(args: argparse.Namespace) -> int:
    from harness.tournament.cli import run
    return run(args)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line. ``command``, when known, is the command about to run: the tournament
    command's options (whose module imports the whole tournament engine, a tenth of a second)
    are set up only for it, so every other command starts faster."""
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
    grade.add_argument("--lanes", type=_at_least_one, metavar="N",
                       help="run up to N cases side by side (default: as many as the host has "
                       "idle CPUs for; 1: one at a time)")
    grade.add_argument("--games", type=Path, help="keep every game played (game assignments) "
                       "in this folder: a record and a replay page per game")
    grade.add_argument("--show", action="store_true", help="print every case's result and "
                       "feedback (as students see them, hidden cases included)")
    grade.set_defaults(run=_cmd_grade)

    check = commands.add_parser("check", help="students: run the visible cases on your file",
                                description="Run the visible cases on your file and show what "
                                "passed, what failed and why. The assignment is inferred from "
                                "the file name.")
    check.add_argument("path", type=Path, help="your file (named as the handout says) or folder")
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

    if command in (None, "tournament"):
        from harness.tournament.cli import DESCRIPTION, add_arguments
        tour = commands.add_parser("tournament", help="instructors: run a class tournament",
                                   description=DESCRIPTION)
        add_arguments(tour).set_defaults(run=_cmd_tournament)
    else:
        commands.add_parser("tournament", help="instructors: run a class tournament")

    replay = commands.add_parser("replay", help="a recorded game as an HTML page",
                                 description="Write a self-contained HTML page that steps "
                                 "through a recorded game (a games/NNNN.json of a tournament) "
                                 "on a drawn board, with the moves and clocks.")
    replay.add_argument("record", type=Path, help="the game record (JSON)")
    replay.add_argument("--out", type=Path, help="the page to write (default: RECORD.html)")
    replay.set_defaults(run=_cmd_replay)

    gen = commands.add_parser("generate", help="instructors: regenerate hidden cases",
                              description="Re-create generated/*.yaml from the reference "
                              "generators named in the case files.")
    gen.add_argument("assignments", nargs="*", help="names (default: all)")
    gen.add_argument("--check", action="store_true", help="only report out-of-date files "
                     "(exit 1 if any)")
    gen.set_defaults(run=_cmd_generate)

    calibrate = commands.add_parser(
        "calibrate", help="this host's speed; instructors: record the reference's times",
        description="Print this host's speed against the nominal machine (measured in under a "
        "second and cached per host), which scales every timeout written relative to the "
        "reference. With --record, grade each reference solution on its cases with such a "
        "timeout and write their times to test_specs/NAME/reference_times.yaml.")
    calibrate.add_argument("assignments", nargs="*", help="names for --record (default: all "
                           "with a relative timeout)")
    calibrate.add_argument("--fresh", action="store_true", help="measure again (e.g. after a "
                           "measurement on a busy machine) and update the cache")
    calibrate.add_argument("--record", action="store_true", help="record the reference's times")
    calibrate.add_argument("--rounds", type=int, default=2, help="gradings of the reference; "
                           "the fastest time per case is kept (default: 2)")
    calibrate.set_defaults(run=_cmd_calibrate)
    _add_workflow_commands(commands)
    return parser


def _cmd_batch(args: argparse.Namespace) -> int:
    from harness.batch import BatchOptions, run_batch
    known_assignment(args.assignment)
    existing_path(args.submissions, "folder of submissions")
    from harness.batch.insights import InsightOptions
    insights = InsightOptions(similarity=args.similarity or bool(args.similarity_reference),
                              similarity_reference=args.similarity_reference,
                              compare=args.compare)
    try:
        summary = run_batch(BatchOptions(
            args.assignment, args.submissions, args.out, workers=args.workers,
            scheduler=args.scheduler, only=tuple(args.only or ()), force=args.force,
            timeout_cap=args.timeout_cap, budget=args.budget, progress=not args.no_progress,
            insights=insights))
    except (LookupError, NotADirectoryError, ImportError, ValueError) as exc:
        print(f"gamegrader: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"\ngamegrader: interrupted; finished results are kept in {args.out} (gradebook "
              "and report included): run the same command to grade the rest", file=sys.stderr)
        return 130
    print(f"{len(summary.records)} submissions: {len(summary.graded)} graded, "
          f"{len(summary.skipped)} unchanged (kept), {len(summary.failed)} without a result")
    print(f"gradebook: {summary.gradebook}\nreport:    {summary.report}")
    if args.compare is not None:
        from harness.batch.regrade import compare_batches, render_changes
        print(render_changes(compare_batches(args.compare, args.out)))
    return 1 if summary.failed else 0


def _cmd_similarity(args: argparse.Namespace) -> int:
    from harness.batch.discover import discover
    from harness.batch.insight_pages import write_similarity_pages
    from harness.batch.insights import similar_pairs, write_similarity_csv
    from harness.batch.similarity import MAX_COMPARED_CHARS, SimilarityUnavailable
    assignment = find_assignment(known_assignment(args.assignment))
    for folder in (args.submissions, args.reference):
        if folder is not None and not folder.is_dir():
            print(f"gamegrader: {folder} is not a folder of submissions", file=sys.stderr)
            return 2
    try:
        pairs, skipped = similar_pairs(assignment, discover(args.submissions), args.reference)
    except SimilarityUnavailable as exc:
        print(f"gamegrader: {exc}", file=sys.stderr)
        return 2
    page = write_similarity_pages(args.out, pairs, assignment.name, skipped)
    write_similarity_csv(args.out / "similarity.csv", pairs)
    for pair in pairs[:args.top]:
        print(f"{pair.score:5.0%}  {pair.left.label}  ~  {pair.right.label}"
              + ("  (earlier term)" if pair.right.is_reference else ""))
    for document in skipped:
        print(f"not compared (over {MAX_COMPARED_CHARS:,} characters of Python): "
              f"{document.label}")
    print(f"{len(pairs)} pairs share code beyond the template; all of them: {page}")
    return 0


def _cmd_diff(args: argparse.Namespace) -> int:
    from harness.batch.regrade import (
        NotABatchFolder,
        compare_batches,
        render_changes,
        write_changes_csv,
    )
    try:
        changes = compare_batches(args.old, args.new)
    except NotABatchFolder as exc:
        print(f"gamegrader: {exc}", file=sys.stderr)
        return 2
    print(render_changes(changes))
    if args.csv is not None:
        write_changes_csv(args.csv, changes)
    return 0


def _cmd_build(args: argparse.Namespace) -> int:
    from harness.release.build import build_autograder, build_student, write_docker_context
    load_checked_cases(find_assignment(known_assignment(args.assignment)))
    if args.student:
        built = build_student(args.assignment, args.out)
    elif args.docker_context:
        built = write_docker_context(args.assignment, args.out)
    else:
        built = build_autograder(args.assignment, args.out)
    for line in built.describe():
        print(line)
    return 0


def _cmd_validate(args: argparse.Namespace) -> int:
    from harness.release.validate import validate
    if args.mutation:
        return _mutation(args)
    report = validate([known_assignment(n) for n in args.assignments] or list_assignments(),
                      workers=args.workers,
                      timeout_cap=args.timeout_cap, mutants=not args.no_mutants,
                      only_mutants=tuple(args.mutant or ()))
    print(report.render())
    return 0 if report.ok else 1


def _mutation(args: argparse.Namespace) -> int:
    from harness.release.mutation import MutationUnavailable, mutation_report
    failed = False
    for name in [known_assignment(n) for n in args.assignments] or list_assignments():
        try:
            report = mutation_report(name, workers=args.workers or 2,
                                     timeout_cap=args.timeout_cap or 5.0,
                                     limit=args.mutation_limit,
                                     stems=tuple(args.mutation_cases or ()))
        except MutationUnavailable as exc:
            print(f"gamegrader: {exc}", file=sys.stderr)
            return 2
        print(report.render(), flush=True)
        failed = failed or report.score < args.mutation_goal
    return 1 if failed else 0


def _add_workflow_commands(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Instructor workflows: batch, build, validate (see docs/workflows.md)."""
    batch = commands.add_parser(
        "batch", help="instructors: grade a folder of submissions",
        description="Grade every submission in SUBMISSIONS (one folder or file per student, or "
        "Gradescope's 'Export submissions' folder with submission_metadata.yml), each in its own "
        "grading process, in parallel. Writes DIR/submissions/<key>/results.json, "
        "DIR/gradebook.csv and DIR/report.html. A rerun grades only new or changed submissions. "
        "Exits 1 if grading failed for a submission (one that cannot be graded, e.g. a syntax "
        "error, is listed with status 'ungradable: ...' and is not a failure).")
    batch.add_argument("--assignment", required=True, help="short name (see 'gamegrader list')")
    batch.add_argument("submissions", type=Path, help="the folder of submissions")
    batch.add_argument("--out", required=True, type=Path, help="output folder (reused on rerun)")
    batch.add_argument("--workers", type=int, help="submissions graded at once (default: the "
                       "number of CPUs)")
    batch.add_argument("--scheduler", metavar="ADDRESS", help="grade on this dask.distributed "
                       "scheduler (e.g. tcp://10.0.0.5:8786) instead of local processes")
    batch.add_argument("--only", action="append", metavar="STUDENT", help="regrade only this "
                       "student (name, email, id or folder); repeatable")
    batch.add_argument("--force", action="store_true", help="regrade every submission")
    batch.add_argument("--timeout-cap", type=float, help="run no case longer than this")
    batch.add_argument("--budget", type=float, help="seconds for each submission's whole run")
    batch.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    batch.add_argument("--similarity", action="store_true", help="also compare every pair of "
                       "submissions (template code excluded); report.html lists the most "
                       "similar pairs, similarity.html shows each side by side")
    batch.add_argument("--similarity-reference", type=Path, metavar="DIR", help="earlier-term "
                       "submissions to compare against (not with each other); implies "
                       "--similarity")
    batch.add_argument("--compare", type=Path, metavar="PREVIOUS_OUT", help="an earlier batch's "
                       "output folder: list every student whose score or test outcome changed "
                       "(printed, in report.html and in changes.csv)")
    batch.set_defaults(run=_cmd_batch)

    similar = commands.add_parser(
        "similarity", help="instructors: find submissions that share code",
        description="Compare every pair of submissions in SUBMISSIONS by winnowed fingerprints "
        "(renamed variables and reordered functions still match), leaving out the code of the "
        "student template and starter modules. Writes OUT/similarity.html (pairs ranked, each "
        "side by side with the shared code highlighted) and OUT/similarity.csv.")
    similar.add_argument("submissions", type=Path, help="the folder of submissions (as batch)")
    similar.add_argument("--assignment", required=True, help="short name (its template is "
                         "excluded)")
    similar.add_argument("--out", required=True, type=Path, help="folder for the pages")
    similar.add_argument("--reference", type=Path, metavar="DIR", help="earlier-term "
                         "submissions: compared against, not with each other")
    similar.add_argument("--top", type=int, default=10, help="pairs to print (default 10)")
    similar.set_defaults(run=_cmd_similarity)

    diff = commands.add_parser(
        "diff", help="instructors: whose grade changed between two batch runs",
        description="List every submission whose score or per-test outcome differs between two "
        "batch output folders (e.g. before and after fixing a spec), with the tests that "
        "changed.")
    diff.add_argument("old", type=Path, help="the earlier batch output folder")
    diff.add_argument("new", type=Path, help="the later batch output folder")
    diff.add_argument("--csv", type=Path, help="also write the changes to this CSV file")
    diff.set_defaults(run=_cmd_diff)

    build = commands.add_parser(
        "build", help="instructors: the Gradescope zip, or the student package",
        description="Write the autograder zip Gradescope takes (setup.sh and run_autograder at "
        "its root and only what grading NAME needs), a Docker build folder, or with --student "
        "the package students install (visible cases only, no hidden expected values).")
    build.add_argument("--assignment", required=True, help="short name (see 'gamegrader list')")
    build.add_argument("--out", required=True, type=Path, help="the zip (or folder) to write")
    kind = build.add_mutually_exclusive_group()
    kind.add_argument("--student", action="store_true", help="build the student package")
    kind.add_argument("--docker-context", action="store_true", help="write a folder to run "
                      "'docker build' in (the autograder files plus the Dockerfile)")
    build.set_defaults(run=_cmd_build)

    check = commands.add_parser(
        "validate", help="instructors: the grader's release check",
        description="For each assignment: every spec parses, generated cases are up to date, "
        "the reference solution passes every case, and every wrong implementation listed in "
        "tests/mutants/NAME.yaml fails exactly the cases it should. Exits 1 on any problem.")
    check.add_argument("assignments", nargs="*", help="names (default: all)")
    check.add_argument("--workers", type=int, help="submissions graded at once (default: CPUs)")
    check.add_argument("--timeout-cap", type=float, help="run no case longer than this")
    check.add_argument("--no-mutants", action="store_true", help="skip the wrong implementations")
    check.add_argument("--mutant", action="append", metavar="NAME", help="run only this wrong "
                       "implementation (repeatable)")
    check.add_argument("--mutation", action="store_true", help="instead: grade automatic "
                       "mutants of each reference solution (cosmic-ray) and print the share the "
                       "cases catch, with every surviving mutant; exits 1 below --mutation-goal")
    check.add_argument("--mutation-limit", type=int, metavar="N", help="grade at most N mutants "
                       "per assignment, evenly spread over all of them")
    check.add_argument("--mutation-cases", action="append", metavar="FILE", help="grade the "
                       "mutants on this case file only (its stem, e.g. 01_choose_move; "
                       "repeatable)")
    check.add_argument("--mutation-goal", type=float, default=0.95, metavar="SHARE",
                       help="the share of mutants the cases must catch (default 0.95)")
    check.set_defaults(run=_cmd_validate)

    packages = commands.add_parser(
        "packages", help="instructors: install the third-party packages students may import",
        description="Install the allowed_packages of the assignments (default: all) into the "
        "folder the sandbox imports them from, built for the interpreter it runs: "
        "$GAMEGRADER_PACKAGES, else /usr/local/lib/gamegrader/packages as root and "
        "~/.cache/gamegrader/packages otherwise. setup.sh runs this; so does the first "
        "'gamegrader check'.")
    packages.add_argument("action", choices=["install"])
    packages.add_argument("assignments", nargs="*", help="names (default: all)")
    packages.add_argument("--reinstall", action="store_true", help="install again even if "
                          "already installed")
    packages.set_defaults(run=_cmd_packages)


INSTRUCTOR_COMMANDS = ("batch", "build", "diff", "generate", "similarity", "tournament",
                       "validate")


def in_student_package() -> bool:
    """Whether this harness is the student package (``gamegrader build --student``), which holds
    the visible cases only: instructor commands cannot work there."""
    from harness.intake.reading import STUDENT_PACKAGE_MARKER
    return (Path(__file__).resolve().parents[2] / STUDENT_PACKAGE_MARKER).is_file()


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(words[0] if words and not words[0].startswith("-") else None
                        ).parse_args(words)
    if args.command in INSTRUCTOR_COMMANDS and in_student_package():
        print(f"gamegrader: '{args.command}' is for instructors and needs the full gamegrader "
              "repository; this student package runs the visible cases on your file: "
              "gamegrader check PATH", file=sys.stderr)
        return 2
    try:
        return int(args.run(args))
    except (SpecError, UsageProblem) as exc:
        print(f"gamegrader: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `gamegrader list | head`: the reader has gone, which is fine
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so the interpreter's final flush is quiet too
        return 1


if __name__ == "__main__":
    sys.exit(main())
