"""Batch grading speed-up: the same submissions graded with 1 worker, with 2 (each pinned to a
CPU, the default, and unpinned: ``harness.parallel.affinity``), and on a dask LocalCluster with 2
workers, in one run.

Generates COUNT submissions in a temporary folder, cycling through the reference solution and
each wrong implementation of assignments/adversarial_search/mutants.yaml (every file made
unique by a
comment), then grades them all with `gamegrader batch` in each setting, into fresh output
folders. To be fair on a machine whose load drifts, the submissions are split into ROUNDS equal
parts and the settings take turns part by part, in a rotating order; each setting's time is the
sum over its parts. The cluster is started once, before the first part (its start-up is not
timed). By default each submission is graded on the quick Dominoes set (the 18 infrastructure
cases and the 2 handout cases, without the 64 generated ones) so a run takes minutes; `--full`
grades all 84. Asserts that every setting gives every submission the same score on every test.
Prints absolute times, the load average, the ratios, and where the batch process's own (serial)
time went. Aims: at least 1.8x with 2 workers on 2 otherwise idle cores, and the cluster within
10% of the local pool.

    .venv/bin/python bench/bench_batch.py [--count 200] [--rounds 4] [--full] [--no-dask]
"""
from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from collections import Counter
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from harness.batch import BatchOptions, BatchSummary, run_batch  # noqa: E402
from harness.host import BUSY_LIMIT, busy_share  # noqa: E402
from harness.parallel.affinity import NO_PIN_ENV  # noqa: E402
from harness.paths import ROOT_ENV  # noqa: E402
from harness.release.validate import load_mutants, subset_root  # noqa: E402
from harness.spec import find_assignment  # noqa: E402

ASSIGNMENT = "adversarial_search"
UNPINNED = "2 workers, unpinned"  # each worker's processes free to run on any CPU
SOLUTION = ROOT / "assignments/adversarial_search/solution/adversarial_search.py"


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


def graded(summary: BatchSummary) -> dict[str, tuple[float | None, tuple[float, ...]]]:
    """Per submission: its score and the score of each test."""
    return {record.submission.key: (record.score, tuple(
        float(test.get("score", 0)) for test in (record.document or {}).get("tests", [])))
        for record in summary.records}


def timed_batch(submissions: Path, out: Path, workers: int | None, scheduler: str | None,
                cap: float | None) -> tuple[float, float, BatchSummary]:
    """Grade ``submissions``; return wall seconds, CPU seconds of this process's finished
    children (the local workers' processes and their sandboxes), and the summary."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    summary = run_batch(BatchOptions(ASSIGNMENT, submissions, out, workers=workers,
                                     scheduler=scheduler, timeout_cap=cap, progress=False))
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    if summary.failed:
        raise SystemExit(f"{len(summary.failed)} submissions got no result: {summary.failed[:5]}")
    return seconds, cpu, summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=200, help="submissions (default 200)")
    parser.add_argument("--rounds", type=int, default=4, help="alternating parts (default 4)")
    parser.add_argument("--full", action="store_true", help="grade all 84 cases of each")
    parser.add_argument("--no-dask", action="store_true", help="leave the LocalCluster out")
    parser.add_argument("--timeout-cap", type=float, default=None, help="per-case cap, seconds")
    args = parser.parse_args()
    settings = ["1 worker", "2 workers", UNPINNED] + ([] if args.no_dask else ["dask, 2 workers"])
    times = dict.fromkeys(settings, 0.0)
    cpu = dict.fromkeys(settings, 0.0)
    phases: dict[str, Counter[str]] = {name: Counter() for name in settings}
    grades: dict[str, dict[str, tuple[float | None, tuple[float, ...]]]] = {
        name: {} for name in settings}
    busy_at_start: list[float] = []
    with tempfile.TemporaryDirectory(prefix="bench-batch-") as temporary, ExitStack() as stack:
        folder = Path(temporary)
        made = make_submissions(folder / "submissions", args.count, args.rounds)
        if not args.full:
            subset_root(find_assignment(ASSIGNMENT), ["01_infrastructure", "02_get_best_move"],
                        folder / "root", generated=False)
            os.environ[ROOT_ENV] = str(folder / "root")  # read by every grading process
        scheduler = None
        if not args.no_dask:  # after ROOT_ENV is set: the cluster's workers inherit it
            from distributed import LocalCluster
            cluster = stack.enter_context(LocalCluster(
                n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None))
            scheduler = cluster.scheduler_address
        print(f"{args.count} submissions: " + ", ".join(f"{n} {k}" for k, n in sorted(made.items()))
              + f"; cases: {'all 84' if args.full else 'quick set (20)'}; CPUs: {os.cpu_count()}; "
              f"load average at start: {os.getloadavg()[0]:.1f}")
        for part in range(args.rounds):
            order = settings[part % len(settings):] + settings[:part % len(settings)]
            for name in order:
                if name == UNPINNED:
                    os.environ[NO_PIN_ENV] = "1"
                else:
                    os.environ.pop(NO_PIN_ENV, None)
                if name == "2 workers":  # pinned only if the machine is idle as it starts
                    busy_at_start.append(busy_share())
                seconds, used, summary = timed_batch(
                    folder / "submissions" / f"part_{part}", folder / f"out-{part}-{name}",
                    1 if name == "1 worker" else 2, scheduler if name.startswith("dask") else None,
                    args.timeout_cap)
                times[name] += seconds
                cpu[name] += used
                phases[name].update(summary.phases)
                grades[name].update(graded(summary))
                print(f"  part {part + 1}/{args.rounds}, {name:<15}: {seconds:6.1f} s")
    for name in settings[1:]:
        assert grades[name] == grades[settings[0]], f"{name} disagrees on some grade"
    for name in settings:
        # CPUs busy = CPU seconds / wall seconds: with 2 workers on 2 idle cores about twice
        # the 1-worker figure; what other processes take shows up as a shortfall. CPU seconds
        # per submission do not depend on the load: equal figures mean parallel grading adds no
        # work. (A cluster's workers outlive the run: their CPU time is not counted.)
        busy = "" if name.startswith("dask") else \
            (f"; {cpu[name] / times[name]:.2f} CPUs busy grading, "
             f"{cpu[name] / args.count:.2f} CPU s per submission")
        spent = phases[name]
        print(f"{name:<16}: {times[name]:7.1f} s  ({times[name] / args.count:.2f} s per "
              f"submission{busy}); batch process: plan {spent['plan']:.1f} s, saving results "
              f"{spent['save']:.1f} s (while workers graded), report {spent['report']:.1f} s")
    print(f"speed-up, 2 workers over 1: {times['1 worker'] / times['2 workers']:.2f}x "
          "(aim: >= 1.8x)")
    print(f"pinning each worker to a CPU: 2 workers unpinned take "
          f"{times[UNPINNED] / times['2 workers']:.2f}x the pinned time (busy share of the "
          f"machine as the pinned parts started: at most {max(busy_at_start):.2f}; they pin "
          f"below {BUSY_LIMIT})")
    if not args.no_dask:
        print(f"dask LocalCluster / local pool, 2 workers: "
              f"{times['dask, 2 workers'] / times['2 workers']:.2f}x the time (aim: <= 1.10x)")
    print(f"grades identical per submission and test in every setting; load average at end: "
          f"{os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
