"""Harness overhead on the full Dominoes suite, measured side by side in one run.

Compares, on the same cases and the same solution file:
  direct   - every case's examples executed in this process (no isolation at all);
  harness  - every case graded by the Grader (a fresh sandboxed process per case, forked from
             a warm zygote, judged here);
  exec     - the same with a freshly exec'd interpreter per case (no zygote; a spare worker is
             started ahead instead);
  cli      - the whole `gamegrader grade` command (pytest collection, results.json).
Prints absolute times and ratios to `direct`. Aim: harness / direct <= 1.5.

    .venv/bin/python bench/bench_harness_overhead.py [--repeat N]
"""
from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from harness.compare.registry import resolve_comparator  # noqa: E402
from harness.compare.observations import Observation  # noqa: E402
from harness.grader import Grader  # noqa: E402
from harness.spec import find_assignment  # noqa: E402
from harness.spec.loader import load_all_cases  # noqa: E402

SOLUTION = ROOT / "reference/solutions/adversarial_search/adversarial_search.py"


def run_direct(cases: list) -> float:
    """Execute every case's examples in this process and judge them; returns points earned."""
    spec = importlib.util.spec_from_file_location("adversarial_search", SOLUTION)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    earned = 0.0
    for case in cases:
        namespace = dict(vars(module))
        observations = []
        for example in case.examples:
            shown: list = []
            sys.displayhook = lambda value: None if value is None else shown.append(value)
            exec(compile(example.source, "<example>", "single"), namespace)
            observations.append(Observation(shown[-1] if shown else None, bool(shown)))
        sys.displayhook = sys.__displayhook__
        earned += case.points * resolve_comparator(case.compare)(case, observations, True).fraction
    return earned


def run_harness(assignment, cases: list, zygote: bool) -> float:
    grader = Grader(assignment, SOLUTION, budget=3600)
    assert grader.sandbox is not None
    grader.sandbox.use_zygote = zygote and grader.sandbox.use_zygote
    try:
        return sum(grader.grade(case).score for case in cases)
    finally:
        grader.close()


def run_cli() -> None:
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([sys.executable, "-m", "harness", "grade", "--assignment",
                        "adversarial_search", "--submission", str(SOLUTION), "--output",
                        f"{folder}/results.json", "--quiet"], cwd=ROOT, check=True,
                       capture_output=True)


def timed(function, *args) -> tuple[float, object]:
    started = time.perf_counter()
    value = function(*args)
    return time.perf_counter() - started, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="take the best of N runs")
    args = parser.parse_args()
    assignment = find_assignment("adversarial_search")
    cases = [c for c in load_all_cases(assignment) if c.points > 0]
    rows: dict[str, list[float]] = {"direct": [], "harness": [], "exec": [], "cli": []}
    for _ in range(args.repeat):
        seconds, points = timed(run_direct, cases)
        rows["direct"].append(seconds)
        assert abs(points - 40) < 1e-6, points
        seconds, points = timed(run_harness, assignment, cases, True)
        rows["harness"].append(seconds)
        assert abs(points - 40) < 1e-6, points
        rows["exec"].append(timed(run_harness, assignment, cases, False)[0])
        rows["cli"].append(timed(run_cli)[0])
    direct = min(rows["direct"])
    probe = Grader(assignment, SOLUTION)
    isolation = probe.isolation_text
    probe.close()
    print(f"Dominoes suite: {len(cases)} graded cases, best of {args.repeat} runs")
    print(f"isolation: {isolation}")
    print(f"{'mode':10} {'seconds':>8} {'per case':>9} {'ratio':>6}")
    for name, values in rows.items():
        best = min(values)
        print(f"{name:10} {best:8.3f} {1000 * best / len(cases):7.1f}ms {best / direct:6.2f}x")


if __name__ == "__main__":
    main()
