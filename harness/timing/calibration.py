"""How fast this host is compared with a nominal machine, measured once per host and cached.

A case may state its time limit relative to the reference solution's time
(``timeout: {reference: 10, at_least: 1}``: ten times what the reference needs, at least one
second, on the nominal machine; scaled to this host). Running the reference on every case at the
start of each run would cost every submission seconds of Gradescope's cap, so its time per case
is recorded once, on the instructor's machine, in nominal seconds
(``assignments/NAME/reference_times.yaml``, written by ``gamegrader calibrate NAME --record``). A
grading host then only needs its *speed factor*: a fixed, deterministic CPU workload (a small
game-tree search, like the students' code) timed here against its time on the nominal machine.
That takes well under a second and is cached per host (name, CPU, Python, CPU quota), so a batch
measures once; a fresh Gradescope container measures once per run, before the first case.

The factor is clamped to [``SLOWEST``, ``FASTEST``] so that a wildly disturbed measurement cannot
produce absurd limits, and it errs on the lenient side: a measurement slowed by load makes the
host look slower, so the limits grow, never shrink. Such a measurement is therefore not kept for
a month: one taken while other work held every CPU (a batch's other workers, a test suite) is
reused for ``BUSY_ENTRY_SECONDS`` at most, and only while the host stays busy; on a quiet host
it is measured again. Otherwise one busy moment would let slow code through for 30 days (a
suite's first grading, measured on a loaded 2-core machine, once cached 0.31 for a host that
measures 0.8 when quiet).
"""
from __future__ import annotations

import datetime
import json
import os
import platform
import socket
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from harness import host
from harness.paths import user_cache_root

NOMINAL_WORKLOAD_SECONDS = 0.1
"""The workload's wall time on the nominal machine. "Nominal" is a definition, not a particular
machine: one on which the workload takes this long (about one idle core of a 2024 laptop)."""
WORKLOAD_VERSION = 1
"""Bump whenever the workload changes: cached factors of the old workload are then ignored."""
ROUNDS = 3
SLOWEST, FASTEST = 0.1, 10.0
MAX_AGE_DAYS = 30
BUSY_ENTRY_SECONDS = 600.0
"""How long a measurement taken on a busy host is reused (while the host stays busy): a loaded
batch then measures every few minutes rather than once per submission."""
BUSY_SOURCE = "measured on a busy host, kept briefly"
SPEED_ENV = "GAMEGRADER_HOST_SPEED"
"""Set to a number to skip the measurement and use that factor (tests, reproducible regrades)."""
CACHE_ENV = "GAMEGRADER_CALIBRATION_CACHE"
"""Where the cache file is (default ``calibration.json`` in ``paths.user_cache_root()``)."""
MAX_CACHE_BYTES = 64 * 1024


@dataclass(frozen=True)
class HostSpeed:
    """This host's speed relative to the nominal machine (2.0: twice as fast) and where the
    number comes from ("measured", "cached" or the environment variable)."""

    factor: float
    date: str
    source: str

    def describe(self) -> str:
        """One line for the run's output, e.g. "host speed: 0.62x nominal (calibrated
        2026-11-25, cached); time limits relative to the reference scaled"."""
        how = f"set by {SPEED_ENV}" if self.source == SPEED_ENV else \
            f"calibrated {self.date}, {self.source}"
        return (f"host speed: {self.factor:.2f}x nominal ({how}); "
                "time limits relative to the reference scaled")


def recorded(document: dict[str, Any]) -> HostSpeed | None:
    """The host speed a results document was graded with (None if no limit was relative)."""
    extra = document.get("extra_data")
    entry = extra.get("host_speed") if isinstance(extra, dict) else None
    try:
        speed = HostSpeed(**entry) if isinstance(entry, dict) else None
    except TypeError:
        return None
    return speed if speed is not None and isinstance(speed.factor, (int, float)) else None


def described(document: dict[str, Any]) -> str:
    """The host-speed line of a results document ("" if no limit of its run was relative)."""
    speed = recorded(document)
    return speed.describe() if speed is not None else ""


def summarised(documents: Iterable[dict[str, Any]]) -> str:
    """One line for many runs (a batch report): the distinct speeds they were graded with."""
    factors = sorted({round(float(speed.factor), 2) for speed in map(recorded, documents)
                      if speed is not None})
    if not factors:
        return ""
    return (f"host speed: {', '.join(f'{f:.2f}x' for f in factors)} nominal; "
            "time limits relative to the reference scaled")


def _node_value(board: tuple[int, ...], player: int, lines: tuple[tuple[int, ...], ...]) -> int:
    """Negamax value of a tic-tac-toe position for ``player`` (the fixed workload)."""
    for a, b, c in lines:
        if board[a] and board[a] == board[b] == board[c]:
            return 1 if board[a] == player else -1
    best = -2
    for cell in range(9):
        if not board[cell]:
            child = board[:cell] + (player,) + board[cell + 1:]
            best = max(best, -_node_value(child, 3 - player, lines))
    return 0 if best == -2 else best


def workload() -> int:
    """A deterministic CPU-bound task shaped like the students' code: full game-tree searches
    (tuples, loops, recursion) of tic-tac-toe after a first move in a corner and in the centre
    (about 0.1 s: longer than a CPU quota's period, so a throttled host shows as slow)."""
    rows = tuple(tuple(range(r, r + 3)) for r in (0, 3, 6))
    columns = tuple(tuple(range(c, 9, 3)) for c in range(3))
    lines = rows + columns + ((0, 4, 8), (2, 4, 6))
    return sum(_node_value(tuple(1 if cell == first else 0 for cell in range(9)), 2, lines)
               for first in (0, 4))


def measure(clock: Callable[[], float] = time.perf_counter) -> float:
    """The speed factor: the median wall time of ``ROUNDS`` runs of the workload against its
    nominal time. Wall time, because case limits are wall-clock deadlines: a CPU quota (half a
    CPU on Gradescope) slows the students' code and the workload alike."""
    times = []
    for _ in range(ROUNDS):
        started = clock()
        workload()
        times.append(clock() - started)
    median = sorted(times)[len(times) // 2]
    return clamp(NOMINAL_WORKLOAD_SECONDS / max(median, 1e-9))


def clamp(factor: float) -> float:
    return min(FASTEST, max(SLOWEST, factor))


def host_key() -> str:
    """What makes a measurement reusable: the same machine, CPU, Python and CPU quota."""
    model = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as info:
            model = next((line.split(":", 1)[1].strip() for line in info
                          if line.startswith("model name")), "")
    except OSError:
        pass
    quota = ""
    try:
        quota = Path("/sys/fs/cgroup/cpu.max").read_text(encoding="utf-8").strip()
    except OSError:
        pass
    return "|".join([socket.gethostname(), platform.machine(), model, sys.version.split()[0],
                     str(os.cpu_count()), quota, f"workload {WORKLOAD_VERSION}"])


def cache_path() -> Path:
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    return user_cache_root() / "calibration.json"


def _read_cache(path: Path) -> dict[str, dict[str, object]]:
    """The cache's entries by host key; anything unreadable or malformed counts as empty."""
    try:
        with path.open("rb") as stream:
            data = json.loads(stream.read(MAX_CACHE_BYTES + 1))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def host_is_quiet() -> bool:
    """Whether a CPU is free for the measurement: fewer other threads running than this
    process has CPUs to use."""
    return host.others_running() < host.usable_cpus()


def _cached(entry: object, today: datetime.date, now: float,
            quiet: Callable[[], bool]) -> HostSpeed | None:
    """The entry's speed if it may still be used: a quiet measurement for ``MAX_AGE_DAYS``, a
    busy one for ``BUSY_ENTRY_SECONDS`` and only while the host is still busy."""
    if not isinstance(entry, dict):
        return None
    factor, date, busy_at = entry.get("factor"), entry.get("date"), entry.get("busy_at")
    if not isinstance(factor, (int, float)) or not isinstance(date, str):
        return None
    try:
        age = (today - datetime.date.fromisoformat(date)).days
    except ValueError:
        return None
    if not 0 <= age <= MAX_AGE_DAYS:
        return None
    if busy_at is not None:
        if not isinstance(busy_at, (int, float)) or not 0 <= now - busy_at <= BUSY_ENTRY_SECONDS \
                or quiet():
            return None
        return HostSpeed(clamp(float(factor)), date, BUSY_SOURCE)
    return HostSpeed(clamp(float(factor)), date, "cached")


def find_speed_ahead() -> None:
    """Find this host's speed (cached, or measured now) before starting work that keeps every
    CPU busy (a batch's workers, a test suite): measured during that work it would be a busy
    measurement, kept only briefly and taken again every few minutes. A bad
    ``GAMEGRADER_HOST_SPEED`` is left for the gradings that use it to report."""
    try:
        host_speed()
    except ValueError:
        pass


def host_speed(measure_speed: Callable[[], float] = measure,
               today: datetime.date | None = None, fresh: bool = False,
               quiet: Callable[[], bool] | None = None,
               clock: Callable[[], float] = time.time) -> HostSpeed:
    """This host's speed: from ``GAMEGRADER_HOST_SPEED``, else the cache (same host key, at
    most ``MAX_AGE_DAYS`` old, unless ``fresh``; see the module docstring for busy
    measurements), else measured now and cached (a cache that cannot be written only means
    measuring again next time). ``quiet`` (default ``host_is_quiet``) and ``clock`` are for
    tests.

    Raises:
        ValueError: ``GAMEGRADER_HOST_SPEED`` is set but is not a positive number.
    """
    today = today or datetime.date.today()
    pinned = os.environ.get(SPEED_ENV)
    if pinned:
        try:
            factor = float(pinned)
        except ValueError:
            factor = 0.0
        if not factor > 0:
            raise ValueError(f"{SPEED_ENV}={pinned!r} is not a positive number")
        return HostSpeed(clamp(factor), today.isoformat(), SPEED_ENV)
    quiet = quiet or host_is_quiet
    path, key = cache_path(), host_key()
    entries = _read_cache(path)
    found = None if fresh else _cached(entries.get(key), today, clock(), quiet)
    if found is not None:
        return found
    calm = quiet()
    factor = measure_speed()
    calm = calm and quiet()
    speed = HostSpeed(factor, today.isoformat(), "measured" if calm else BUSY_SOURCE)
    entries[key] = {"factor": round(speed.factor, 4), "date": speed.date}
    if not calm:
        entries[key]["busy_at"] = round(clock(), 1)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.{os.getpid()}")
        temporary.write_text(json.dumps(entries, indent=1), encoding="utf-8")
        os.replace(temporary, path)
    except OSError:
        pass
    return speed
