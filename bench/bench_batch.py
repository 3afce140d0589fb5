"""Batch grading speed-up: the same submissions graded with 1 worker and with 2, in one run.

Generates COUNT submissions in a temporary folder, cycling through the reference solution and
each wrong implementation of tests/mutants/adversarial_search.yaml (every file made unique by a
comment), then grades them all with `gamegrader batch` once with 1 worker and once with 2, into
fresh output folders. To be fair on a machine whose load drifts, the submissions are split into
ROUNDS equal parts and the two settings alternate part by part (1 then 2, then 2 then 1, ...);
each setting's time is the sum over its parts. By default each submission is graded on the quick
Dominoes set (the 18 infrastructure cases and the 2 handout cases, without the 64 generated
ones) so a run takes minutes; `--full` grades all 84. Prints absolute times, the load average,
and the ratio. Aim: at least 1.8x with 2 workers on 2 otherwise idle cores.

    .venv/bin/python bench/bench_batch.py [--count 200] [--rounds 4] [--full] [--timeout-cap 5]
"""
from __future__ import annotations

import argparse
import os
import resource
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


def make_submissions(folder: Path, count: int, rounds: int) -> Counter[str]:
    """Write ``count`` student folders into ``folder/part_<r>`` (``rounds`` parts, kinds
    spread evenly); return how many of each kind were made."""
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
        student = folder / f"part_{index % rounds}" / f"student_{index:03d}"
        student.mkdir(parents=True)
        (student / "adversarial_search.py").write_text(
            f"# submission {index} ({kind})\n{kinds[kind]}", encoding="utf-8")
        made[kind] += 1
    return made


def timed_batch(submissions: Path, out: Path, workers: int, cap: float | None
                ) -> tuple[float, float, list[float | None]]:
    """Grade ``submissions``; return wall seconds, CPU seconds of the grading processes (and
    their sandboxes), and the scores."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    summary = run_batch(BatchOptions(ASSIGNMENT, submissions, out, workers=workers,
                                     timeout_cap=cap, progress=True))
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    if summary.failed:
        raise SystemExit(f"{len(summary.failed)} submissions got no result: {summary.failed[:5]}")
    return seconds, cpu, [record.score for record in summary.records]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=200, help="submissions (default 200)")
    parser.add_argument("--rounds", type=int, default=4, help="alternating parts (default 4)")
    parser.add_argument("--full", action="store_true", help="grade all 84 cases of each")
    parser.add_argument("--timeout-cap", type=float, default=None, help="per-case cap, seconds")
    args = parser.parse_args()
    times = {1: 0.0, 2: 0.0}
    cpu = {1: 0.0, 2: 0.0}
    scores: dict[int, list[float | None]] = {1: [], 2: []}
    with tempfile.TemporaryDirectory(prefix="bench-batch-") as temporary:
        folder = Path(temporary)
        made = make_submissions(folder / "submissions", args.count, args.rounds)
        if not args.full:
            subset_root(find_assignment(ASSIGNMENT), ["01_infrastructure", "02_get_best_move"],
                        folder / "root", generated=False)
            os.environ[ROOT_ENV] = str(folder / "root")  # read by every grading process
        print(f"{args.count} submissions: " + ", ".join(f"{n} {k}" for k, n in sorted(made.items()))
              + f"; cases: {'all 84' if args.full else 'quick set (20)'}; CPUs: {os.cpu_count()}; "
              f"load average at start: {os.getloadavg()[0]:.1f}")
        for part in range(args.rounds):
            for workers in ((1, 2) if part % 2 == 0 else (2, 1)):
                seconds, used, got = timed_batch(folder / "submissions" / f"part_{part}",
                                                 folder / f"out{workers}_{part}", workers,
                                                 args.timeout_cap)
                times[workers] += seconds
                cpu[workers] += used
                scores[workers].extend(got)
                print(f"  part {part + 1}/{args.rounds}, {workers} worker(s): {seconds:6.1f} s")
    assert scores[1] == scores[2], "the two settings disagree on some score"
    # CPUs busy grading = CPU seconds / wall seconds: with 2 workers on 2 idle cores this is
    # about twice the 1-worker figure; what other processes take shows up as a shortfall.
    for workers in (1, 2):
        print(f"{workers} worker{'s' if workers > 1 else ' '}: {times[workers]:8.1f} s  "
              f"({times[workers] / args.count:.2f} s per submission; "
              f"{cpu[workers] / times[workers]:.2f} CPUs busy grading)")
    print(f"speed-up : {times[1] / times[2]:.2f}x  (aim: >= 1.8x); scores identical; load "
          f"average at end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
