"""Benchmark: what the staff ladder costs a grading, for the Othello and Isolation references.

The ladder (``ladder:`` in assignment.yaml) is one extra case of every grading, after the case
files' cases. This grades that case alone (``harness.spec.ladder.ladder_case`` through the one
grading API, ``harness.grading.api.GradingSession``) for the reference solution of each game, in
a child process of its own inside a fresh control group (no CPU quota), ``--repeat`` times, and
prints per grading the wall seconds, the CPU seconds the group was charged (the grader, the
sandboxes and both players of every game) and the ladder's score and games. CPU seconds do not
move with the host's load the way wall seconds do; on a shared machine both are loaded numbers,
so the load average is printed before and after.

Needs root and a control-group file system (as ``bench_gradescope.py``).

    .venv/bin/python bench/bench_ladder.py [othello isolation] [--repeat 2]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_gradescope import GradescopeGroup, submission_of  # noqa: E402

GAMES = ["othello", "isolation"]


def grade_ladder(assignment_name: str, submission: Path, output: Path) -> None:
    """(In the child) grade the ladder case alone and write the results document."""
    from harness.grading.api import GradingOptions, GradingSession
    from harness.spec import find_assignment
    from harness.spec.ladder import ladder_case

    assignment = find_assignment(assignment_name)
    case = ladder_case(assignment, len(assignment.case_files) + 1)
    session = GradingSession(submission, GradingOptions())
    session.plan(assignment, [case])
    session.grade_all(assignment, [case])
    output.write_text(json.dumps(session.finish([case])), encoding="utf-8")


def timed(assignment: str, submission: Path, output: Path) -> tuple[float, float]:
    """One ladder grading in a fresh control group: (wall, CPU) seconds."""
    group = GradescopeGroup(f"gamegrader-bench-ladder-{os.getpid()}-{assignment}",
                            cpu_quota_us=None)
    try:
        started = time.monotonic()
        subprocess.run([sys.executable, __file__, "--child", assignment, str(submission),
                        str(output)], preexec_fn=group.enter, check=True, cwd=ROOT)
        return time.monotonic() - started, group.cpu_seconds()
    finally:
        group.remove()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=GAMES)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--child", nargs=3, metavar=("ASSIGNMENT", "SUBMISSION", "OUTPUT"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        name, submission, output = args.child
        grade_ladder(name, Path(submission), Path(output))
        return
    if os.geteuid() != 0:
        sys.exit("bench_ladder: needs root (control groups)")
    print(f"load average before {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory(prefix="bench-ladder-") as scratch:
        for game in args.games:
            submission = submission_of(game, "honest", Path(scratch) / game)
            for run in range(1, args.repeat + 1):
                output = Path(scratch) / f"{game}-{run}.json"
                wall, cpu = timed(game, submission, output)
                document = json.loads(output.read_text(encoding="utf-8"))
                board = {entry["name"]: entry["value"]
                         for entry in document.get("leaderboard", [])}
                won = [text.split(": ", 1)[-1] for text in
                       document["tests"][0].get("output", "").splitlines() if "won " in text]
                print(f"{game:<10} ladder {wall:6.1f} s wall  {cpu:6.1f} CPU-s  rating "
                      f"{board.get('Ladder rating', '?')}  ({'; '.join(won)})", flush=True)
    print(f"load average after {os.getloadavg()[0]:.2f} (a shared machine's numbers are "
          "loaded ones)")


if __name__ == "__main__":
    main()
