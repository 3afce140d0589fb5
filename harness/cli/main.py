"""Command line: ``gamegrader grade | check | list | generate | calibrate | ...`` (also
``python -m harness``); the instructor workflows are ``harness.cli.workflows``'s, what the
commands share ``harness.cli.common``'s."""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import Any, Sequence

from harness.cli.common import (
    UsageProblem,
    at_least_one,
    existing_path,
    infer_assignment,
    install_missing_packages,
    known_assignment,
    run_grading,
)
from harness.cli.play import add_play_command
from harness.cli.workflows import add_workflow_commands
from harness.spec import SpecError, find_assignment, list_assignments
from harness.spec.loader import load_checked_cases
from harness.spec.run import RunContext
from harness.timing.calibration import host_speed


def _cmd_grade(args: argparse.Namespace) -> int:
    run = RunContext(known_assignment(args.assignment), output=args.output,
                     games=args.games.resolve() if args.games is not None else None)
    existing_path(args.submission)
    with tempfile.TemporaryDirectory() as folder:
        # Gradescope's file is the grading's own; any other platform's is made from it
        gradescope = args.format == "gradescope"
        document = run_grading(run, args.submission,
                               args.output if gradescope else Path(folder) / "results.json",
                               budget=args.budget, timeout_cap=args.timeout_cap,
                               quiet=args.quiet, lanes=args.lanes)
    maximum = sum(t["max_score"] for t in document["tests"])
    if args.show:
        from harness.grading.report import render
        print(render(document, color=sys.stdout.isatty()))
    from harness.grading.report import total_line
    print(f"\n{total_line(document['score'], maximum, document, 'Score')}  (results written to "
          f"{args.output})")
    from harness.grading.api import GRADING_HOST
    for line in document.get("extra_data", {}).get(GRADING_HOST, []):
        print(line)  # the host's isolation, bounds and speed: for the instructor here
    if gradescope:
        return grade_exit_status(document)
    from harness.platforms.cli import write_format
    return write_format(args, document)


GRADED, GRADER_FAILED, MISCONFIGURED, UNGRADABLE = 0, 1, 2, 3
"""``gamegrader grade``'s exit statuses (docs/workflows.md); 2 is also a wrong command line, and
130/143 an interrupt (``harness.interrupts``)."""


def grade_exit_status(document: dict[str, Any]) -> int:
    """What a script needs to know about a grading from its exit status: graded (0), the
    grader itself failed (1: its fallback results), or no case could run (3: a syntax error,
    a missing file; the results say why, and score it 0)."""
    extra = document.get("extra_data", {})
    if extra.get("harness_error"):
        return GRADER_FAILED
    return UNGRADABLE if extra.get("ungradable") else GRADED


def _cmd_check(args: argparse.Namespace) -> int:
    from harness.grading.api import with_student_lines
    from harness.grading.coverage import coverage_lines, coverage_of
    from harness.grading.report import render
    existing_path(args.path)
    run = RunContext(known_assignment(args.assignment) if args.assignment
                     else infer_assignment(args.path))
    install_missing_packages(run)
    with tempfile.TemporaryDirectory() as folder:
        document = run_grading(run, args.path, Path(folder) / "results.json",
                               visible_only=True, siblings=True)
    print(render(with_student_lines(document), color=sys.stdout.isatty()))
    points_run = sum(float(test.get("max_score", 0)) for test in document.get("tests", []))
    print("\n".join(coverage_lines(coverage_of(run.assignment), points_run)))
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
        from harness.release.reference_times import record
        for name in [known_assignment(n) for n in args.assignments] or list_assignments():
            written = record(name, args.rounds)
            print(f"wrote: {written}" if written else f"{name}: no timeout is relative to the "
                  "reference, nothing to record")
    return 0


def _cmd_gradescope(args: argparse.Namespace) -> int:
    from harness.platforms.gradescope import run
    existing_path(args.root, "autograder root folder")
    return run(args.root, args.assignment, args.budget)


def _cmd_prairielearn(args: argparse.Namespace) -> int:
    from harness.platforms.prairielearn_job import run
    existing_path(args.root, "PrairieLearn job folder (/grade)")
    return run(args.root, args.assignment, args.budget)


def _cmd_replay(args: argparse.Namespace) -> int:
    from harness.games.replays import replay_record
    try:
        page = replay_record(args.record, args.out, args.force)
    except (ValueError, FileExistsError) as exc:
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
                                "every case and write Gradescope's results.json (or, with "
                                "--format, another platform's file). Exit status: 0 graded, "
                                "3 ungradable submission, 2 a wrong command line or a broken "
                                "spec, 1 the grader failed, 130/143 interrupted; with --format, "
                                "the status that platform reads (docs/platforms.md).")
    grade.add_argument("--assignment", required=True, help="short name (see 'gamegrader list')")
    grade.add_argument("--submission", required=True, type=Path, help="file or folder")
    grade.add_argument("--output", required=True, type=Path, help="results.json to write")
    grade.add_argument("--budget", type=float, help="seconds for the whole run "
                       "(default: the assignment's budget_seconds)")
    grade.add_argument("--timeout-cap", type=float, help="run no case longer than this many "
                       "seconds (quick local runs; default: each case's own timeout, as on "
                       "Gradescope)")
    grade.add_argument("--quiet", action="store_true", help="no progress bar (there is none "
                       "when stderr is not a terminal)")
    grade.add_argument("--lanes", type=at_least_one, metavar="N",
                       help="run up to N cases side by side (default: as many as the host has "
                       "idle CPUs for; 1: one at a time)")
    grade.add_argument("--games", type=Path, help="keep every game played (game assignments) "
                       "in this folder: a record and a replay page per game")
    grade.add_argument("--show", action="store_true", help="print every case's result and "
                       "feedback (as students see them, hidden cases included)")
    from harness.platforms.cli import add_format_arguments
    add_format_arguments(grade)
    grade.set_defaults(run=_cmd_grade)

    check = commands.add_parser("check", help="students: run the visible cases on your file",
                                description="Run the visible cases on your file and show what "
                                "passed, what failed and why. The assignment is inferred from "
                                "the file name.")
    check.add_argument("path", type=Path, help="your file (named as the handout says) or folder")
    check.add_argument("--assignment", help="the assignment, if the file name does not say")
    check.set_defaults(run=_cmd_check)
    add_play_command(commands)

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
    scope.add_argument("--budget", type=float, help="seconds for the whole run (default: "
                       "the assignment's budget_seconds)")
    scope.set_defaults(run=_cmd_gradescope)

    prairie = commands.add_parser(
        "prairielearn", help="the PrairieLearn external grader entry point",
        description="Grade ROOT/student into ROOT/results/results.json (PrairieLearn's "
        "external grader format; the folder is created). The assignment and budget come from "
        "ROOT/tests/gamegrader.json, written by 'gamegrader build --platform prairielearn'.")
    prairie.add_argument("--root", type=Path, default=Path("/grade"), help="default: /grade")
    prairie.add_argument("--assignment", help="default: from ROOT/tests/gamegrader.json, else "
                         "the question's params.assignment in ROOT/data/data.json")
    prairie.add_argument("--budget", type=float, help="seconds for the whole run (default: "
                         "tests/gamegrader.json's, else the assignment's budget_seconds)")
    prairie.set_defaults(run=_cmd_prairielearn)

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
                                 "on a drawn board, with the moves and clocks. An existing "
                                 "page is never replaced without --force.")
    replay.add_argument("record", type=Path, help="the game record (JSON)")
    replay.add_argument("--out", type=Path, help="the page to write (default: the record's "
                        "path with .html for .json, e.g. games/0001.html, which a tournament "
                        "has already written)")
    replay.add_argument("--force", action="store_true",
                        help="replace the page if it exists (default: refuse, exit status 2)")
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
    add_workflow_commands(commands)
    return parser


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
    from harness.interrupts import exit_status, stopping_on_signals
    try:  # Ctrl-C and SIGTERM: what finished is kept, the exit status says interrupted
        with stopping_on_signals():
            return int(args.run(args))
    except KeyboardInterrupt as exc:
        print(f"\ngamegrader: interrupted ({exc or 'SIGINT'}) before it finished; what it cut "
              "short has no grade: run the same command again", file=sys.stderr)
        return exit_status(exc)
    except (SpecError, UsageProblem) as exc:
        print(f"gamegrader: {exc}", file=sys.stderr)
        return MISCONFIGURED
    except BrokenPipeError:  # e.g. `gamegrader list | head`: the reader has gone, which is fine
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so the interpreter's final flush is quiet too
        return 1


if __name__ == "__main__":
    sys.exit(main())
