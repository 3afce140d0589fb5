"""Instructor workflow commands: ``batch``, ``similarity``, ``diff``, ``build``, ``validate``
and ``packages`` (docs/workflows.md)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from harness.cli.common import (
    existing_path,
    known_assignment,
)
from harness.platforms import DEFAULT_FORMAT, FORMAT_NAMES
from harness.spec import find_assignment, list_assignments
from harness.spec.loader import load_checked_cases


def _cmd_batch(args: argparse.Namespace) -> int:
    from harness.batch import BatchOptions, run_batch
    known_assignment(args.assignment)
    existing_path(args.submissions, "folder of submissions")
    from harness.batch.canvas import CanvasOptions
    from harness.batch.insights import InsightOptions
    from harness.batch.roster import read_roster
    insights = InsightOptions(similarity=args.similarity or bool(args.similarity_reference),
                              similarity_reference=args.similarity_reference,
                              compare=args.compare)
    try:
        canvas = CanvasOptions(read_roster(args.roster) if args.roster else None,
                               args.folder_logins)
        summary = run_batch(BatchOptions(
            args.assignment, args.submissions, args.out, workers=args.workers,
            scheduler=args.scheduler, only=tuple(args.only or ()), force=args.force,
            timeout_cap=args.timeout_cap, budget=args.budget, progress=not args.no_progress,
            insights=insights, canvas=canvas))
    except (LookupError, NotADirectoryError, ImportError, ValueError) as exc:
        print(f"gamegrader: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:
        from harness.interrupts import exit_status
        print(f"\ngamegrader: interrupted; finished results are kept in {args.out} (gradebook "
              "and report included; a submission cut short is listed as interrupted, with no "
              "grade): run the same command to grade the rest", file=sys.stderr)
        return exit_status(exc)
    print(f"{len(summary.records)} submissions: {len(summary.graded)} graded, "
          f"{len(summary.skipped)} unchanged (kept), {len(summary.failed)} without a result")
    print(f"gradebook: {summary.gradebook}\nreport:    {summary.report}")
    if args.format != DEFAULT_FORMAT:
        from harness.platforms.batch_files import write_platform_files
        print(f"{args.format}: "
              f"{write_platform_files(args.out, summary.records, args.format, args.assignment)}")
    if summary.unmatched:
        print(f"canvas.csv leaves out {len(summary.unmatched)} student(s) Canvas could not "
              "match safely (their grades are in gradebook.csv):")
        for left_out in summary.unmatched:
            print(f"  {left_out.describe()}")
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
    makes_zip = args.platform != "prairielearn" and not args.docker_context
    if makes_zip and args.out.is_dir():
        print(f"gamegrader: --out {args.out} is a folder; name the zip to write, e.g. "
              f"--out {args.out / (args.assignment + '.zip')}", file=sys.stderr)
        return 2
    if args.platform == "prairielearn":
        from harness.platforms.prairielearn_build import build_prairielearn
        built = build_prairielearn(args.assignment, args.out, args.image)
    elif args.student:
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


def add_workflow_commands(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Instructor workflows: batch, build, validate (see docs/workflows.md)."""
    batch = commands.add_parser(
        "batch", help="instructors: grade a folder of submissions",
        description="Grade every submission in SUBMISSIONS (one folder or file per student, or "
        "Gradescope's 'Export submissions' folder with submission_metadata.yml), each in its own "
        "grading process, in parallel. Writes DIR/submissions/<key>/results.json, "
        "DIR/gradebook.csv (one row per student), DIR/canvas.csv (for Canvas's grade import) and "
        "DIR/report.html. A rerun grades only new or changed submissions. "
        "Exits 1 if grading failed for a submission (one that cannot be graded, e.g. a syntax "
        "error, is listed with status 'ungradable: ...' and is not a failure).")
    batch.add_argument("--assignment", required=True, help="short name (see 'gamegrader list')")
    batch.add_argument("submissions", type=Path, help="the folder of submissions")
    batch.add_argument("--out", required=True, type=Path, help="output folder (reused on rerun)")
    batch.add_argument("--format", choices=FORMAT_NAMES, default=DEFAULT_FORMAT,
                       help="also write this platform's file per submission into "
                       "DIR/platform-FORMAT/<key>/, with summary.csv (default: gradescope's "
                       "results.json only; see docs/platforms.md)")
    batch.add_argument("--workers", type=int, help="submissions graded at once (default: the "
                       "number of CPUs)")
    batch.add_argument("--scheduler", metavar="ADDRESS", help="grade on this dask.distributed "
                       "scheduler (e.g. tcp://10.0.0.5:8786) instead of local processes")
    batch.add_argument("--only", action="append", metavar="STUDENT", help="regrade only this "
                       "student (name, email, id or folder); repeatable")
    batch.add_argument("--force", action="store_true", help="regrade every submission")
    batch.add_argument("--timeout-cap", type=float, help="run no case longer than this many "
                       "seconds (default: each case's own timeout)")
    batch.add_argument("--budget", type=float, help="seconds for each submission's whole run "
                       "(default: the assignment's budget_seconds)")
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
    batch.add_argument("--roster", type=Path, metavar="CSV", help="the course roster canvas.csv "
                       "takes its identifiers from: a CSV file with a column that finds each "
                       "student (submission, email or sid) and the ones Canvas matches on (ID, "
                       "SIS User ID, SIS Login ID; Section optional); Canvas's own gradebook "
                       "export will do")
    batch.add_argument("--folder-logins", action="store_true", help="a plain folder of "
                       "submissions: each folder's (or file's) name is the student's Canvas "
                       "login (SIS Login ID) in canvas.csv")
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
    kind.add_argument("--platform", choices=["gradescope", "prairielearn"], default="gradescope",
                      help="prairielearn: write into the folder --out a question folder "
                      "(questions/NAME) and the grader image's build context (image/); see "
                      "docs/platforms.md (default: gradescope)")
    build.add_argument("--image", help="--platform prairielearn: the image name info.json "
                       "names (default: gamegrader-NAME)")
    build.set_defaults(run=_cmd_build)

    check = commands.add_parser(
        "validate", help="instructors: the grader's release check",
        description="For each assignment: every spec parses, generated cases are up to date, "
        "the reference solution passes every case, and every wrong implementation listed in "
        "assignments/NAME/mutants.yaml fails exactly the cases it should. Exits 1 on any problem.")
    check.add_argument("assignments", nargs="*", help="names (default: all)")
    check.add_argument("--workers", type=int, help="submissions graded at once (default: CPUs)")
    check.add_argument("--timeout-cap", type=float, help="run no case longer than this many "
                       "seconds (default: each case's own timeout)")
    check.add_argument("--no-mutants", action="store_true", help="skip the wrong implementations")
    check.add_argument("--mutant", action="append", metavar="NAME", help="run only this wrong "
                       "implementation (repeatable)")
    check.add_argument("--mutation", action="store_true", help="instead: grade automatic "
                       "mutants of each reference solution (cosmic-ray) and print the share the "
                       "cases catch, with every surviving mutant; exits 1 below --mutation-goal")
    check.add_argument("--mutation-limit", type=int, metavar="N", help="grade at most N mutants "
                       "per assignment, evenly spread over all of them (default: all)")
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
