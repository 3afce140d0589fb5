"""What this machine offers a grading run: the CPUs it may use, how busy they are, spare memory.

Gradescope runs a container limited by a control group (half a CPU, 768 MB), which ``nproc``
does not show: the CPU count here is the affinity mask cut down to the control group's CPU
quota, and the memory is what the control group still allows, if less than the kernel's
estimate of available memory. Control groups v2 and v1 are both read; where nothing can be
read the answer is the conservative one (one CPU; busy).
"""
from __future__ import annotations

import contextlib
import math
import os
import time
from pathlib import Path
from typing import Callable, Iterator

CGROUP_ROOT = Path("/sys/fs/cgroup")
NO_PIN_ENV = "GAMEGRADER_NO_PIN"
"""Set: nothing is pinned to a CPU (batch workers, grading lanes)."""
IDLE_SAMPLE_SECONDS = 0.05
BUSY_LIMIT = 0.25
"""The share of all CPUs other work may keep busy for the machine to count as idle."""


def allowed_cpus() -> list[int]:
    """The CPUs this process may run on, in order ([] where the system cannot say)."""
    try:
        return sorted(os.sched_getaffinity(0))
    except AttributeError:
        return []


def cpu_count() -> int:
    """How many CPUs this process may run on (all the system has where it cannot say)."""
    return len(allowed_cpus()) or os.cpu_count() or 1


def one_cpu_each(count: int, idle: Callable[[], bool] = lambda: True) -> list[int]:
    """The CPUs to give ``count`` workers one each: all this process may use, when there are
    exactly as many workers as those CPUs (at least two), pinning is not turned off
    (``NO_PIN_ENV``) and the machine is ``idle()`` (asked last: it may take time). Else none:
    with fewer workers a worker keeps the spare CPU's help, and a pinned worker could not move
    off a CPU that other work holds."""
    cpus = allowed_cpus()
    if 2 <= count == len(cpus) and not os.environ.get(NO_PIN_ENV) and idle():
        return cpus
    return []


@contextlib.contextmanager
def started_on(cpu: int | None) -> Iterator[None]:
    """Within: this thread, so every process it starts from now on, runs on ``cpu`` only
    (None: unchanged). The thread's own CPUs are restored after."""
    if cpu is None:
        yield
        return
    before = allowed_cpus()
    try:
        os.sched_setaffinity(0, {cpu})
    except (OSError, AttributeError):
        before = []
    try:
        yield
    finally:
        if before:
            os.sched_setaffinity(0, before)


def busy_share(seconds: float = IDLE_SAMPLE_SECONDS) -> float:
    """The share of the machine's CPU time spent busy over the next ``seconds`` (from
    ``/proc/stat``; 1.0 where it cannot be read)."""
    def sample() -> tuple[int, int]:
        with open("/proc/stat", encoding="ascii") as stat:
            fields = [int(value) for value in stat.readline().split()[1:]]
        return sum(fields), fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait

    try:
        total, idle = sample()
        time.sleep(seconds)
        total_after, idle_after = sample()
    except (OSError, ValueError, IndexError):
        return 1.0
    spent = total_after - total
    return 1.0 - (idle_after - idle) / spent if spent > 0 else 1.0


def others_running(samples: int = 3, gap: float = 0.002) -> int:
    """How many threads besides the caller are running or waiting for a CPU now: the fewest
    the kernel's ``procs_running`` shows over a few samples, minus the caller (a grading that
    just finished elsewhere is not counted; a busy program is). Where it cannot be read, as
    many as there are CPUs."""
    counts: list[int] = []
    for number in range(samples):
        if number:
            time.sleep(gap)
        try:
            with open("/proc/stat", encoding="ascii") as stat:
                counts.extend(int(line.split()[1]) for line in stat
                              if line.startswith("procs_running "))
        except (OSError, ValueError, IndexError):
            return usable_cpus()
    return max(0, min(counts) - 1) if counts else usable_cpus()


def _own_cgroup_files(controller: str, name: str, root: Path) -> list[Path]:
    """Where this process's control-group file ``name`` may be: under its own group's path
    (from /proc/self/cgroup) and at the mount's top (a container's usual view), for control
    groups v2 (``controller`` "") and v1."""
    base = root / controller if controller else root
    places = []
    try:
        for line in Path("/proc/self/cgroup").read_text(encoding="ascii").splitlines():
            _, controllers, path = line.split(":", 2)
            if (controller in controllers.split(",")) if controller else controllers == "":
                places.append(base / path.lstrip("/") / name)
    except (OSError, ValueError):
        pass
    return [*places, base / name]


def own_cgroup_folder(controller: str, root: Path = CGROUP_ROOT) -> Path | None:
    """This process's own control-group folder (v2: ``controller`` "", v1: its name), the
    first of ``_own_cgroup_files``'s places that exists; None where there is none."""
    for place in _own_cgroup_files(controller, "", root):
        if place.is_dir():
            return place
    return None


def _first_readable(paths: list[Path]) -> str | None:
    for path in paths:
        try:
            return path.read_text(encoding="ascii").strip()
        except OSError:
            continue
    return None


def cpu_quota(root: Path = CGROUP_ROOT) -> float | None:
    """The control group's CPU quota in CPUs (0.5: half a CPU), or None if unlimited."""
    text = _first_readable(_own_cgroup_files("", "cpu.max", root))
    try:
        if text is not None:
            quota, period = text.split()
            return None if quota == "max" else int(quota) / int(period)
        quota_text = _first_readable(_own_cgroup_files("cpu", "cpu.cfs_quota_us", root))
        period_text = _first_readable(_own_cgroup_files("cpu", "cpu.cfs_period_us", root))
        if quota_text is None or period_text is None or int(quota_text) < 0:
            return None
        return int(quota_text) / int(period_text)
    except (ValueError, ZeroDivisionError):
        return None


def usable_cpus(root: Path = CGROUP_ROOT) -> int:
    """Whole CPUs this process can keep busy: its affinity mask within its CPU quota (at
    least 1)."""
    cpus = cpu_count()
    quota = cpu_quota(root)
    if quota is not None:
        cpus = min(cpus, math.floor(quota))
    return max(1, cpus)


def spare_memory_mb(root: Path = CGROUP_ROOT) -> int:
    """MiB that can still be used: the kernel's available memory, or what the control group
    still allows if that is less (0 where neither can be read)."""
    available = None
    try:
        for line in Path("/proc/meminfo").read_text(encoding="ascii").splitlines():
            if line.startswith("MemAvailable:"):
                available = int(line.split()[1]) // 1024
    except (OSError, ValueError, IndexError):
        pass
    limit = _first_readable(_own_cgroup_files("", "memory.max", root)) or \
        _first_readable(_own_cgroup_files("memory", "memory.limit_in_bytes", root))
    usage = _first_readable(_own_cgroup_files("", "memory.current", root)) or \
        _first_readable(_own_cgroup_files("memory", "memory.usage_in_bytes", root))
    try:
        if limit is not None and limit != "max" and usage is not None:
            allowed = max(0, int(limit) - int(usage)) // (1024 * 1024)
            available = allowed if available is None else min(available, allowed)
    except ValueError:
        pass
    return available or 0
