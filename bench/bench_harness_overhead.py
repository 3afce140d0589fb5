"""Harness overhead on the full Dominoes suite, measured side by side in one run.

Compares, on the same cases and the same solution file:
  direct   - every case's examples executed in this process (no isolation at all);
  harness  - every case graded by the Grader (a fresh sandboxed process per case, forked from
             a warm zygote, judged here), with the lanes this host offers (cases side by side,
             ``harness.timing.lanes``; the count is printed);
  one-lane - the same, one case at a time;
  exec     - the same with a freshly exec'd interpreter per case (no zygote; a spare worker is
             started ahead instead);
  cli      - the whole `gamegrader grade` command (start-up, spec loading, the zero-point cases
             too, results.json), compared with `direct` on the same (all) cases.
Prints absolute times and ratios to `direct` (aims: harness <= 1.3x, cli <= 2x), then where
each case's time goes: milliseconds per case per stage of the Grader (from
``harness.sandbox.stages``: the grader's own clock plus the times the zygote and the worker
report), of the fresh-interpreter mode, and of the whole command; with ``--cprofile``, the
trusted side's busiest functions too. Run it as root, the machine's normal mode (a dedicated
user and namespaces in force).

    .venv/bin/python bench/bench_harness_overhead.py [--repeat N] [--cprofile]
"""
from __future__ import annotations

import argparse
import contextlib
import cProfile
import importlib.util
import io
import json
import pstats
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import harness.grading.grader  # noqa: E402
from harness.grading import results as results_file  # noqa: E402
from harness.grading.api import GradingOptions, GradingSession, cases_to_grade  # noqa: E402
from harness.grading.grader import Grader  # noqa: E402
from harness.host import allowed_cpus  # noqa: E402
from harness.records.observations import Observation  # noqa: E402
from harness.sandbox.levels import detect  # noqa: E402
from harness.sandbox.packages import abi_tag  # noqa: E402
from harness.sandbox.stages import STAGES  # noqa: E402
from harness.spec import find_assignment  # noqa: E402
from harness.spec.loader import load_all_cases  # noqa: E402
from harness.spec.registry import resolve_comparator  # noqa: E402
from harness.timing.lanes import choose_lanes  # noqa: E402

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
            printed = io.StringIO()  # what the transcript prints is captured, as the worker does
            sys.displayhook = lambda value: None if value is None else shown.append(value)
            with contextlib.redirect_stdout(printed):
                exec(compile(example.source, "<example>", "single"), namespace)
            observations.append(Observation(shown[-1] if shown else None, bool(shown),
                                            stdout=printed.getvalue(),
                                            transcript_stdout=printed.getvalue()))
        sys.displayhook = sys.__displayhook__
        earned += case.points * resolve_comparator(case.compare)(case, observations, True).fraction
    return earned


def run_harness(assignment, cases: list, zygote: bool, lanes: int = 1) -> float:
    grader = Grader(assignment, SOLUTION, budget=3600)
    assert grader.sandbox is not None
    grader.sandbox.use_zygote = zygote and grader.sandbox.use_zygote
    try:
        return sum(result.score for result in grader.grade_all(cases, lanes))
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


def judged(comparator):
    """``comparator`` with its time counted as the "judging" stage."""
    def timed_comparator(*args, **kwargs):
        started = time.monotonic()
        try:
            return comparator(*args, **kwargs)
        finally:
            STAGES.add("judging", started)
    return timed_comparator


def stage_breakdown(assignment, cases: list, zygote: bool) -> tuple[float, dict[str, float]]:
    """One traced Grader run: (seconds per case, seconds per case of each stage). What the
    stages do not cover is the Grader's own bookkeeping (budget, verdicts, preflight)."""
    original = harness.grading.grader.resolve_comparator
    harness.grading.grader.resolve_comparator = lambda name: judged(original(name))
    STAGES.reset()
    STAGES.enabled = True
    try:
        grader = Grader(assignment, SOLUTION, budget=3600)
        assert grader.sandbox is not None
        grader.sandbox.use_zygote = zygote and grader.sandbox.use_zygote
        grader.preflight()  # once per submission, not per case
        STAGES.reset()
        started = time.monotonic()
        for case in cases:
            grader.grade(case)
        seconds = time.monotonic() - started
        grader.close()
    finally:
        STAGES.enabled = False
        harness.grading.grader.resolve_comparator = original
    stages = {name: value / len(cases) for name, value in STAGES.seconds.items()}
    stages["grader's own bookkeeping"] = seconds / len(cases) - sum(stages.values())
    return seconds / len(cases), stages


def cli_breakdown(cases: list) -> dict[str, float]:
    """The whole command's phases, in seconds (grading done in this process, as the command
    does; interpreter start-up and imports measured in a fresh interpreter)."""
    phases: dict[str, float] = {}
    detect.cache_clear()  # decided once per process: the command pays for it every run
    abi_tag.cache_clear()
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import harness.cli.main"], cwd=ROOT, check=True)
    phases["interpreter start + imports"] = time.perf_counter() - started
    started = time.perf_counter()
    assignment = find_assignment("adversarial_search")
    session = GradingSession(SOLUTION, GradingOptions())
    all_cases = cases_to_grade(assignment, GradingOptions(), session.spec_errors)
    session.plan(assignment, all_cases)
    phases["spec loading"] = time.perf_counter() - started
    started = time.perf_counter()
    session.grader(assignment)
    phases["sandbox set-up (detect, lease, workspace)"] = time.perf_counter() - started
    started = time.perf_counter()
    session.grade_all(assignment, all_cases)
    phases[f"grading {len(all_cases)} cases ({len(cases)} with points)"] = \
        time.perf_counter() - started
    started = time.perf_counter()
    document = session.finish(all_cases)
    phases["close sandbox + build results"] = time.perf_counter() - started
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        results_file.write(Path(folder) / "results.json", document)
    phases["write results.json"] = time.perf_counter() - started
    return phases


def trusted_profile(assignment, cases: list, top: int = 15) -> str:
    """cProfile of one Grader run (the trusted side only: the sandbox is another process)."""
    profiler = cProfile.Profile()
    profiler.enable()
    run_harness(assignment, cases, True)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def print_stages(title: str, per_case: float, stages: dict[str, float]) -> None:
    print(f"\n{title}: {1000 * per_case:.2f} ms per case")
    for name, seconds in sorted(stages.items(), key=lambda item: -item[1]):
        print(f"  {name:42} {1000 * seconds:7.2f} ms {100 * seconds / per_case:5.1f}%")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="take the best of N runs")
    parser.add_argument("--cprofile", action="store_true",
                        help="also print the trusted side's busiest functions (cProfile)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    assignment = find_assignment("adversarial_search")
    every_case = load_all_cases(assignment)
    cases = [c for c in every_case if c.points > 0]
    rows: dict[str, list[float]] = {"direct": [], "harness": [], "one-lane": [], "exec": [],
                                    "direct-all": [], "cli": []}
    lanes = choose_lanes(assignment.limits.memory_mb)
    for _ in range(args.repeat):
        seconds, points = timed(run_direct, cases)
        rows["direct"].append(seconds)
        assert abs(points - 40) < 1e-6, points
        seconds, points = timed(run_direct, every_case)
        rows["direct-all"].append(seconds)
        assert abs(points - 40) < 1e-6, points
        seconds, points = timed(run_harness, assignment, cases, True, lanes)
        rows["harness"].append(seconds)
        assert abs(points - 40) < 1e-6, points
        seconds, points = timed(run_harness, assignment, cases, True)
        rows["one-lane"].append(seconds)
        assert abs(points - 40) < 1e-6, points
        rows["exec"].append(timed(run_harness, assignment, cases, False)[0])
        rows["cli"].append(timed(run_cli)[0])
    direct = min(rows["direct"])
    probe = Grader(assignment, SOLUTION)
    isolation = probe.isolation_text
    probe.close()
    print(f"Dominoes suite: {len(cases)} cases with points ({len(every_case)} in all), "
          f"best of {args.repeat} runs; ratios to `direct` on the same cases")
    print(f"isolation: {isolation}; lanes: {lanes} (harness and cli rows; "
          f"{len(allowed_cpus())} CPUs)")
    print(f"{'mode':10} {'cases':>5} {'seconds':>8} {'per case':>9} {'ratio':>6}")
    ratios = {}
    for name, values in rows.items():
        best, count = min(values), len(every_case if name in ("direct-all", "cli") else cases)
        ratios[name] = best / min(rows["direct-all" if name == "cli" else "direct"])
        print(f"{name:10} {count:5} {best:8.3f} {1000 * best / count:7.1f}ms "
              f"{ratios[name]:6.2f}x")
    print(f"\ndirect: {1000 * direct / len(cases):.2f} ms per case is the work itself; "
          "the stages below are the harness's.")
    figures: dict[str, object] = {"ratios": ratios}
    for title, zygote in (("harness (zygote) stages, one lane", True),
                          ("exec (fresh interpreter) stages", False)):
        per_case, stages = min((stage_breakdown(assignment, cases, zygote)
                                for _ in range(args.repeat)), key=lambda pair: pair[0])
        print_stages(title, per_case, stages)
        figures[title] = stages
    phases = cli_breakdown(cases)
    print("\ncli phases (seconds):")
    for name, seconds in phases.items():
        print(f"  {name:52} {seconds:6.3f}")
    figures["cli phases"] = phases
    if args.cprofile:
        print("\ntrusted side, one harness run (cProfile, by own time):")
        print(trusted_profile(assignment, cases))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
