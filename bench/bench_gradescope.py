"""How long a student waits on Gradescope's machine: every assignment's reference grading and
one hostile grading per assignment, each inside a control group of Gradescope's size (half a CPU,
768 MB), one `gamegrader grade` command each.

The hostile file is the reference with every function's body replaced, in turn, by one of three
bodies that never answer: a busy loop, a recursion without end (recursion limit raised), and a
print loop. It is the worst case a grading must survive: every case runs into its limit.

Prints one line per grading, `<assignment> honest <seconds>s` / `<assignment> hostile
<seconds>s`, with the CPU seconds the control group was charged, then where the time went: the
case groups that took longest and how much of the wall time no case accounts for (the grader's
own start, judging and writing). Targets (issue "Worst-case time"): honest at most 60 s,
hostile at most 180 s each. The wall time is what a student waits for; the CPU seconds do not
depend on what else the host runs, but the wall time of a case that hangs does not depend on the
host either (its limit is a wall-clock one), so both are printed.

Needs root and a control-group file system (v1 or v2); without them it says so and exits 2.

    .venv/bin/python bench/bench_gradescope.py [ASSIGNMENT ...] [--honest-only | --hostile-only]
        [--keep FOLDER]
"""
from __future__ import annotations

import argparse
import ast
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parent.parent
CGROUP_ROOT = Path("/sys/fs/cgroup")
CPU_QUOTA_US, CPU_PERIOD_US = 50_000, 100_000  # half a CPU
MEMORY_BYTES = 768 * 1024 * 1024
ASSIGNMENTS = ["adversarial_search", "search_and_games", "othello", "isolation", "stonehenge"]
TARGETS = {"honest": 60.0, "hostile": 180.0}

HOSTILE_BODIES = [
    "while True:\n    pass\n",
    "import sys\nsys.setrecursionlimit(10 ** 6)\ndef again(n):\n    return again(n + 1) + 1\n"
    "return again(0)\n",
    "while True:\n    print('x' * 200)\n",
]


class GradescopeGroup:
    """A control group of Gradescope's size that a command can be started in (cgroup v2, or
    the v1 `cpu`, `cpuacct` and `memory` hierarchies), removed on exit; ``cpu_quota_us=None``
    for no CPU quota (a group that only counts)."""

    def __init__(self, name: str, cpu_quota_us: Optional[int] = CPU_QUOTA_US) -> None:
        self.v2 = (CGROUP_ROOT / "cgroup.controllers").exists()
        if self.v2:
            self.folders = [CGROUP_ROOT / name]
        else:
            self.folders = [CGROUP_ROOT / kind / name for kind in ("cpu", "cpuacct", "memory")]
        for folder in self.folders:
            folder.mkdir()
        if self.v2:
            if cpu_quota_us is not None:
                (self.folders[0] / "cpu.max").write_text(f"{cpu_quota_us} {CPU_PERIOD_US}")
            (self.folders[0] / "memory.max").write_text(str(MEMORY_BYTES))
        else:
            if cpu_quota_us is not None:
                (self.folders[0] / "cpu.cfs_period_us").write_text(str(CPU_PERIOD_US))
                (self.folders[0] / "cpu.cfs_quota_us").write_text(str(cpu_quota_us))
            (self.folders[2] / "memory.limit_in_bytes").write_text(str(MEMORY_BYTES))

    def enter(self) -> None:
        """Move the calling process into the group (run in the child before exec)."""
        for folder in self.folders:
            (folder / "cgroup.procs").write_text(str(os.getpid()))

    def cpu_seconds(self) -> float:
        """CPU time charged to the group so far."""
        if self.v2:
            stat = dict(line.split() for line in
                        (self.folders[0] / "cpu.stat").read_text().splitlines())
            return int(stat["usage_usec"]) / 1e6
        return int((self.folders[1] / "cpuacct.usage").read_text()) / 1e9

    def remove(self) -> None:
        for folder in self.folders:
            for _ in range(50):
                try:
                    folder.rmdir()
                    break
                except OSError:  # processes still leaving it
                    time.sleep(0.1)


def hostile_copy(source: str) -> str:
    """``source`` with every function's body replaced, function by function in turn, by one
    of the bodies that never answer."""
    tree = ast.parse(source)
    functions = [node for node in ast.walk(tree)
                 if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for index, function in enumerate(functions):
        function.body = ast.parse(HOSTILE_BODIES[index % len(HOSTILE_BODIES)]).body
        function.decorator_list = []
    return ast.unparse(tree) + "\n"


def submission_of(assignment: str, kind: str, folder: Path) -> Path:
    """The reference's files for ``assignment``, as they are (honest) or hostile."""
    folder.mkdir(parents=True)
    for path in sorted((ROOT / "assignments" / assignment / "solution").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        (folder / path.name).write_text(hostile_copy(text) if kind == "hostile" else text,
                                        encoding="utf-8")
    return folder


def grade_in_group(assignment: str, submission: Path, results: Path) -> tuple[float, float]:
    """Grade ``submission`` inside a fresh Gradescope-sized group: (wall, CPU) seconds."""
    group = GradescopeGroup(f"gamegrader-bench-{os.getpid()}-{assignment}-{submission.name}")
    try:
        started = time.monotonic()
        subprocess.run([str(ROOT / ".venv/bin/gamegrader"), "grade", "--assignment", assignment,
                        "--submission", str(submission), "--output", str(results), "--quiet"],
                       preexec_fn=group.enter, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
        return time.monotonic() - started, group.cpu_seconds()
    finally:
        group.remove()


def where_time_went(results: Path, wall: float, top: int = 3) -> str:
    """The cases' verdicts, the case groups that took longest, and the time no case accounts
    for."""
    try:
        tests = json.loads(results.read_text(encoding="utf-8"))["tests"]
    except (OSError, ValueError, KeyError):
        return "no results.json written"
    by_group: dict[str, float] = defaultdict(float)
    verdicts: Counter[str] = Counter()
    for test in tests:
        extra = test.get("extra_data", {})
        group = str(extra.get("case_id", test.get("name", "?"))).split("::")[0]
        by_group[group] += float(extra.get("seconds") or 0.0)
        verdicts[str(extra.get("verdict", "?")).lower()] += 1
    in_cases = sum(by_group.values())
    largest = sorted(by_group.items(), key=lambda item: -item[1])[:top]
    parts = [f"{name} {seconds:.1f}s" for name, seconds in largest]
    counted = ", ".join(f"{count} {verdict}" for verdict, count in verdicts.most_common())
    return (f"{len(tests)} cases ({counted}); in cases {in_cases:.1f}s ("
            + ", ".join(parts) + f"); outside cases {max(wall - in_cases, 0.0):.1f}s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("assignments", nargs="*", default=ASSIGNMENTS)
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--honest-only", action="store_true")
    only.add_argument("--hostile-only", action="store_true")
    parser.add_argument("--keep", type=Path, metavar="FOLDER",
                        help="copy each grading's results.json into FOLDER (to read later)")
    options = parser.parse_args()
    if os.geteuid() != 0 or not CGROUP_ROOT.is_dir():
        print("bench_gradescope: needs root and /sys/fs/cgroup (it makes a control group of "
              "Gradescope's size)", file=sys.stderr)
        return 2
    kinds = ["honest"] * (not options.hostile_only) + ["hostile"] * (not options.honest_only)
    print(f"control group: {CPU_QUOTA_US / CPU_PERIOD_US:.1f} CPU, "
          f"{MEMORY_BYTES // 2 ** 20} MB; load average {os.getloadavg()[0]:.2f}")
    over = 0
    scratch = Path(tempfile.mkdtemp(prefix="gamegrader-bench-gradescope-"))
    try:
        for assignment in options.assignments:
            for kind in kinds:
                folder = submission_of(assignment, kind, scratch / assignment / kind)
                results = scratch / f"{assignment}-{kind}.json"
                wall, cpu = grade_in_group(assignment, folder, results)
                if options.keep is not None and results.is_file():
                    options.keep.mkdir(parents=True, exist_ok=True)
                    shutil.copy(results, options.keep / results.name)
                over += wall > TARGETS[kind]
                print(f"{assignment} {kind} {wall:.1f}s  (cpu {cpu:.1f}s; target "
                      f"{TARGETS[kind]:.0f}s)  {where_time_went(results, wall)}", flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"over target: {over}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
