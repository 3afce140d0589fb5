"""Batch grading speed-up: the same submissions graded with 1 worker and with 2, in one run.

Generates COUNT submissions in a temporary folder, cycling through the reference solution and
each wrong implementation of tests/mutants/adversarial_search.yaml (every file made unique by a
comment), then runs `gamegrader batch` on them twice, into two fresh output folders. By default
each submission is graded on the quick Dominoes set (the 18 infrastructure cases and the 2
handout cases, without the 64 generated ones) so a run takes minutes; `--full` grades all 84.
Prints absolute times and the ratio. Aim: at least 1.8x with 2 workers on 2 cores.

    .venv/bin/python bench/bench_batch.py [--count 200] [--full] [--timeout-cap 5]
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from harness.batch import BatchOptions, run_batch  # noqa: E402
from harness.paths import ROOT_ENV  # noqa: E402
from harness.spec import find_assignment  # noqa: E402
from harness.validate import load_mutants, subset_root  # noqa: E402

ASSIGNMENT = "adversarial_search"
SOLUTION = ROOT / "reference/solutions/adversarial_search/adversarial_search.py"


def make_submissions(folder: Path, count: int) -> Counter[str]:
    """Write ``count`` student folders; return how many of each kind were made."""
    text = SOLUTION.read_text(encoding="utf-8")
    kinds = {"reference": text}
    for mutant in load_mutants(find_assignment(ASSIGNMENT)):
        edited = text
        for old, new in mutant.replace:
            edited = edited.replace(old, new)
        kinds[mutant.name] = edited
    names = sorted(kinds)
    made: Counter[str] = Counter()
    for index in range(count):
        kind = names[index % len(names)]
        student = folder / f"student_{index:03d}"
        student.mkdir(parents=True)
        (student / "adversarial_search.py").write_text(
            f"# submission {index} ({kind})\n{kinds[kind]}", encoding="utf-8")
        made[kind] += 1
    return made


def timed_batch(submissions: Path, out: Path, workers: int, cap: float | None
                ) -> tuple[float, list[float | None]]:
    started = time.perf_counter()
    summary = run_batch(BatchOptions(ASSIGNMENT, submissions, out, workers=workers,
                                     timeout_cap=cap, progress=True))
    seconds = time.perf_counter() - started
    if summary.failed:
        raise SystemExit(f"{len(summary.failed)} submissions got no result: {summary.failed[:5]}")
    return seconds, [record.score for record in summary.records]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=200, help="submissions (default 200)")
    parser.add_argument("--full", action="store_true", help="grade all 84 cases of each")
    parser.add_argument("--timeout-cap", type=float, default=None, help="per-case cap, seconds")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-batch-") as temporary:
        folder = Path(temporary)
        made = make_submissions(folder / "submissions", args.count)
        if not args.full:
            subset_root(find_assignment(ASSIGNMENT), ["01_infrastructure", "02_get_best_move"],
                        folder / "root", generated=False)
            os.environ[ROOT_ENV] = str(folder / "root")  # read by every grading process
        print(f"{args.count} submissions: " + ", ".join(f"{n} {k}" for k, n in sorted(made.items()))
              + f"; cases: {'all 84' if args.full else 'quick set (20)'}; CPUs: {os.cpu_count()}")
        one, scores_one = timed_batch(folder / "submissions", folder / "out1", 1, args.timeout_cap)
        two, scores_two = timed_batch(folder / "submissions", folder / "out2", 2, args.timeout_cap)
    assert scores_one == scores_two, "the two runs disagree on some score"
    print(f"1 worker : {one:8.1f} s  ({one / args.count:.2f} s per submission)")
    print(f"2 workers: {two:8.1f} s  ({two / args.count:.2f} s per submission)")
    print(f"speed-up : {one / two:.2f}x  (aim: >= 1.8x); scores identical in both runs")


if __name__ == "__main__":
    main()
