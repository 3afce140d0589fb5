"""Where the suite's CPU time goes, test by test (opt-in: ``GG_TEST_CPU_LOG=FILE bash
scripts/test.sh``; as root, with cgroup v1's cpuacct or cgroup v2).

Each phase (setup, call, teardown) of each test runs in a control group of its own, a child of
the worker's, so every process the phase starts is charged to it, sandboxes and gradings
included. Each phase appends ``microseconds<TAB>phase<TAB>test id`` to FILE, and the run's
summary lists the costliest test functions and files. A process that outlives the test which
started it (a worker's warm pool, a module fixture's zygote) stays charged to that test's group,
so what it does later counts in the run's total (``core-seconds:``) but in no test's line.
"""
from __future__ import annotations

import itertools
import os
from collections import Counter
from pathlib import Path
from typing import Any, Generator, Iterable

import pytest

LOG_ENV = "GG_TEST_CPU_LOG"
CGROUPS = Path("/sys/fs/cgroup")
SHOWN = 15  # lines of each table in the summary


def own_group(cgroup_text: str, root: Path = CGROUPS) -> tuple[Path, str] | None:
    """The control group a process is in and the file that holds its CPU time, from the text
    of ``/proc/PID/cgroup``: cgroup v1's cpuacct hierarchy where there is one, else the v2
    group; None if neither exists under ``root``."""
    unified = None
    for line in cgroup_text.splitlines():
        _, controllers, path = line.split(":", 2)
        if "cpuacct" in controllers.split(","):
            for mount in ("cpuacct", "cpu,cpuacct", "cpuacct,cpu"):
                if (root / mount).is_dir():
                    return root / mount / path.lstrip("/"), "cpuacct.usage"
        if controllers == "":
            unified = root / path.lstrip("/")
    if unified is not None and (root / "cgroup.controllers").is_file():
        return unified, "cpu.stat"
    return None


def usage_microseconds(group: Path, usage_file: str) -> int:
    """CPU time used by the group's processes so far, in microseconds."""
    text = (group / usage_file).read_text(encoding="ascii")
    if usage_file == "cpuacct.usage":
        return int(text) // 1000
    return next(int(line.split()[1]) for line in text.splitlines()
                if line.startswith("usage_usec "))


def summarize(lines: Iterable[str]) -> tuple[Counter[str], Counter[str]]:
    """Core-seconds by test function (parameters and xdist groups left out) and by file, from
    the log's lines."""
    functions: Counter[str] = Counter()
    files: Counter[str] = Counter()
    for line in lines:
        fields = line.rstrip("\n").split("\t")
        if len(fields) != 3 or not fields[0].isdigit():
            continue
        seconds, test = int(fields[0]) / 1e6, fields[2]
        functions[test.split("[", 1)[0].split("@", 1)[0]] += seconds
        files[test.split("::", 1)[0]] += seconds
    return functions, files


class PhaseGroups:
    """The pytest plugin: one control group per test phase (see the module docstring)."""

    def __init__(self, log: Path) -> None:
        self.log = log
        self.numbers = itertools.count()

    def _measured(self, phase: str, item: pytest.Item) -> Generator[None, Any, None]:
        found = own_group(Path("/proc/self/cgroup").read_text(encoding="ascii"))
        if found is None:
            yield
            return
        parent, usage_file = found
        group = parent / f"gg-test-{os.getpid()}-{next(self.numbers)}"
        try:
            group.mkdir()
            (group / "cgroup.procs").write_text(str(os.getpid()), encoding="ascii")
        except OSError:  # not root, or no such hierarchy here: the test runs unmeasured
            yield
            return
        try:
            yield
        finally:
            (parent / "cgroup.procs").write_text(str(os.getpid()), encoding="ascii")
            used = usage_microseconds(group, usage_file)
            with self.log.open("a", encoding="utf-8") as out:
                out.write(f"{used}\t{phase}\t{item.nodeid}\n")
            try:
                group.rmdir()
            except OSError:  # a process the test started is still in it
                pass

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> Generator[None, Any, None]:
        yield from self._measured("setup", item)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Generator[None, Any, None]:
        yield from self._measured("call", item)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_teardown(self, item: pytest.Item) -> Generator[None, Any, None]:
        yield from self._measured("teardown", item)

    def pytest_terminal_summary(self, terminalreporter: Any, config: pytest.Config) -> None:
        if hasattr(config, "workerinput") or not self.log.is_file():
            return
        with self.log.open(encoding="utf-8") as lines:
            functions, files = summarize(lines)
        write = terminalreporter.write_line
        write(f"core-seconds by test ({sum(files.values()):.0f} in tests; {self.log}):")
        for title, table in (("test functions", functions), ("test files", files)):
            write(f"  costliest {title}:")
            for name, seconds in table.most_common(SHOWN):
                write(f"    {seconds:7.1f}  {name}")


def register(config: pytest.Config) -> None:
    """Measure each test phase when ``GG_TEST_CPU_LOG`` names a file (in the controller and in
    every xdist worker, which inherit it)."""
    log = os.environ.get(LOG_ENV)
    if not log:
        return
    if not hasattr(config, "workerinput"):  # the controller, before any worker writes to it
        Path(log).write_text("", encoding="utf-8")
    config.pluginmanager.register(PhaseGroups(Path(log).absolute()), "gg_cpu_profile")
