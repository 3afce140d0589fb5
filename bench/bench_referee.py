"""Benchmark: a 16-entrant Isolation round robin of sandboxed student players on this machine,
with the referee's own overhead per move.

The entrants are student-API files (``choose_move(board, player, time_left)``), each played in
the harness sandbox exactly as ``gamegrader tournament`` plays a submission: four honest kinds,
four copies of each (every file made unique by a comment) - the reference solution
(time-managed alpha-beta, so it thinks for a share of its clock), a greedy one-ply mobility
player, a seeded random player and a first-legal-move player. All 240 games (both colours of
every pair) run on local warm processes with ``--workers`` at a time.

Each entrant's ``choose_move`` is wrapped to print the seconds it spent thinking (measured in
its own process), and the referee's side of each sandboxed call is timed. The referee's overhead
for a move is the wall time from the previous reply to this reply, minus this move's thinking:
everything the referee does per move besides the entrant's own code - stopping the player that
has just moved and resuming the one to move (SIGSTOP/SIGCONT), legal moves and the clock,
encoding the board, the pipe and the sandboxed worker's decoding and encoding, reading and
converting the reply. A game's first move (which includes the greeting) is left out. One game
is also played in this process with the same accounting split into parts, to show where the
overhead goes. Aim: under 5 ms per move.

    .venv/bin/python bench/bench_referee.py [--workers 2] [--clock 1.0] [--entrants 16] [--dask]

``--dask`` plays the same round robin on a dask ``LocalCluster`` with as many single-threaded
workers too, and prints the two side by side. Asserts nothing but that every game finished.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from harness.games.arenas import HouseArena, entrant_sandbox  # noqa: E402
from harness.records.games import Entrant, GameResult  # noqa: E402
from harness.tournament.engine import run_round_robin  # noqa: E402
from harness.tournament.executors import DaskExecutor, Executor, LocalExecutor  # noqa: E402
from reference.isolation.kit import IsolationKit  # noqa: E402

LOG_ENV = "BENCH_REFEREE_LOG"
"""Folder where each game process appends its per-call timings (one file per process)."""
THINKING = "bench-thinking "

MOVES_OF = '''
DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def moves_of(board, player):
    row, col = next((r, c) for r in range(8) for c in range(8) if board[r][c] == player)
    found = []
    for dr, dc in DIRECTIONS:
        r, c = row + dr, col + dc
        while 0 <= r < 8 and 0 <= c < 8 and board[r][c] == '-':
            found.append((r + 1, c + 1))
            r, c = r + dr, c + dc
    return found
'''
"""The legal moves of a player in the student API's board, shared by the honest variants."""

PLAYERS = {
    "first": MOVES_OF + '''

def choose_move(board, player, time_left):
    moves = moves_of(board, player)
    return min(moves) if moves else (None, None)
''',
    "random": "import random\n" + MOVES_OF + '''

def choose_move(board, player, time_left):
    moves = moves_of(board, player)
    seed = sum(i for i, ch in enumerate(''.join(''.join(row) for row in board)) if ch == '*')
    return random.Random(seed).choice(moves) if moves else (None, None)
''',
    "greedy": MOVES_OF + '''

def choose_move(board, player, time_left):
    """The move leaving me the most moves and my opponent the fewest."""
    other = 'o' if player == 'x' else 'x'
    best, best_score = (None, None), None
    for r, c in moves_of(board, player):
        after = [row[:] for row in board]
        for i in range(8):
            for j in range(8):
                if after[i][j] == player:
                    after[i][j] = '*'
        after[r - 1][c - 1] = player
        score = len(moves_of(after, player)) - len(moves_of(after, other))
        if best_score is None or score > best_score:
            best, best_score = (r, c), score
    return best
''',
    "reference": (ROOT / "reference/solutions/isolation/player.py").read_text(encoding="utf-8"),
}

TIMED = f'''

def _timed(choose):
    import time as _time

    def choose_move(board, player, time_left):
        started = _time.perf_counter()
        move = choose(board, player, time_left)
        print("{THINKING}%.6f" % (_time.perf_counter() - started))
        return move
    return choose_move


choose_move = _timed(choose_move)
'''


class _TimedServer:
    """A sandboxed ``CallServer`` whose calls are logged: when each reply arrived (referee's
    clock) and how long the entrant says it thought. Everything else is the server's own."""

    def __init__(self, server: Any, log: list[dict[str, Any]]) -> None:
        self._server = server
        self._log = log

    def __getattr__(self, name: str) -> Any:
        return getattr(self._server, name)

    def call(self, function: str, args: list[Any], timeout: float) -> Any:
        sent = time.perf_counter()
        result = self._server.call(function, args, timeout)
        arrived = time.perf_counter()
        thinking = [float(line[len(THINKING):]) for line in result.stdout.splitlines()
                    if line.startswith(THINKING)]
        self._log.append({"sent": sent, "arrived": arrived,
                          "thinking": thinking[-1] if thinking else None})
        return result


class _TimedSandbox:
    """A sandbox whose servers are :class:`_TimedServer` s logging to ``log``."""

    def __init__(self, sandbox: Any, log: list[dict[str, Any]]) -> None:
        self._sandbox = sandbox
        self._log = log

    def start_server(self) -> Any:
        return _TimedServer(self._sandbox.start_server(), self._log)

    def start_program(self) -> Any:
        return self._sandbox.start_program()


@contextmanager
def timed_sandbox(assignment: str, path: str) -> Iterator[Any]:
    """The tournament's own ``entrant_sandbox``, its calls logged to ``$BENCH_REFEREE_LOG``."""
    log: list[dict[str, Any]] = []
    try:
        with entrant_sandbox(assignment, path) as sandbox:
            yield _TimedSandbox(sandbox, log)
    finally:
        folder = os.environ.get(LOG_ENV)
        if folder and log:
            with open(Path(folder) / f"{os.getpid()}.jsonl", "a", encoding="utf-8") as out:
                out.write(json.dumps({"calls": log}) + "\n")


def make_entrants(folder: Path, count: int) -> list[Entrant]:
    """``count`` entrant files, the kinds in turn, each unique and wrapped by ``TIMED``."""
    kinds = sorted(PLAYERS)
    entrants = []
    for index in range(count):
        kind = kinds[index % len(kinds)]
        path = folder / f"player_{kind}{index}.py"
        path.write_text(f"# entrant {index}\n{PLAYERS[kind]}{TIMED}", encoding="utf-8")
        entrants.append(Entrant(f"{kind}-{index}", str(path)))
    return entrants


def overheads(folder: Path) -> tuple[list[float], list[float]]:
    """Per move after each game's first: referee overhead and thinking, in seconds."""
    calls_by_game: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for file in folder.glob("*.jsonl"):
        lines = file.read_text(encoding="utf-8").splitlines()
        # Both entrants of a game log from the same process: pair them by the game's order.
        for pair_start in range(0, len(lines), 2):
            for line in lines[pair_start:pair_start + 2]:
                calls_by_game[f"{file.name}-{pair_start}"] += json.loads(line)["calls"]
    overhead, thinking = [], []
    for calls in calls_by_game.values():
        calls.sort(key=lambda call: call["sent"])
        for before, call in zip(calls, calls[1:]):
            if call["thinking"] is None:
                continue
            overhead.append(call["arrived"] - before["arrived"] - call["thinking"])
            thinking.append(call["thinking"])
    return overhead, thinking


def play_round_robin(executor: Executor, entrants: list[Entrant], clock: float, log: Path
                     ) -> tuple[float, list[GameResult], list[float], list[float]]:
    """The round robin on ``executor``: seconds, results, overheads and thinking per move."""
    log.mkdir(exist_ok=True)
    os.environ[LOG_ENV] = str(log)  # read by the game processes (started after this)
    arena = HouseArena(IsolationKit(seconds=clock), open_sandbox=timed_sandbox)
    started = time.perf_counter()
    result = run_round_robin(arena, entrants, 1, executor)
    seconds = time.perf_counter() - started
    overhead, thinking = overheads(log)
    return seconds, list(result.results), overhead, thinking


def breakdown(entrants: list[Entrant], clock: float) -> None:
    """One game between two entrants in this process, the overhead per move split in parts.

    Only what happens between the first and the last reply counts, so that the parts add up to
    the overhead measured as in the round robin (the greeting and the goodbyes are left out).
    """
    from harness.games.freeze import Freezer
    from harness.games.seats import Served
    from harness.records.games import GameTask

    spans: list[tuple[str, float, float]] = []

    def timed(name: str, function: Any) -> Any:
        def run(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                spans.append((name, started, time.perf_counter()))
        return run

    patched = [(Freezer, "pause", "stop the player that moved (SIGSTOP, wait until stopped)"),
               (Freezer, "resume", "resume the player to move (SIGCONT)"),
               (Served, "choose", "choose")]
    originals = [getattr(owner, method) for owner, method, _ in patched]
    for owner, method, name in patched:
        setattr(owner, method, timed(name, getattr(owner, method)))
    log: list[dict[str, Any]] = []

    @contextmanager
    def opener(assignment: str, path: str) -> Iterator[Any]:
        with entrant_sandbox(assignment, path) as sandbox:
            yield _TimedSandbox(sandbox, log)

    try:
        arena = HouseArena(IsolationKit(seconds=clock), open_sandbox=opener)
        started = time.perf_counter()
        result = arena.play(GameTask(0, 0, entrants[1], entrants[2], 1))
        total = time.perf_counter() - started
    finally:
        for (owner, method, _), original in zip(patched, originals):
            setattr(owner, method, original)
    ordered = sorted(log, key=lambda call: call["sent"])
    calls = ordered[1:]  # each move from the reply before it to its own reply
    first, last = ordered[0]["arrived"], calls[-1]["arrived"]
    moves = len(calls)
    inside = [(name, end - begin) for name, begin, end in spans if first <= begin < last]
    parts: dict[str, float] = defaultdict(float)
    for name, seconds in inside:
        parts[name] += seconds
    round_trip = sum(c["arrived"] - c["sent"] for c in calls)
    thought = sum(c["thinking"] or 0.0 for c in calls)
    overhead = sum(c["arrived"] - b["arrived"] - (c["thinking"] or 0.0)
                   for b, c in zip(ordered, calls))
    per_move = {
        "pipe, sandboxed worker (call round trip - thinking)": round_trip - thought,
        "encode the board, convert the reply": parts.pop("choose", 0.0) - round_trip,
        **parts,
    }
    per_move["legal moves, clock, match loop (the rest)"] = overhead - sum(per_move.values())
    print(f"one game in this process ({entrants[1].name} v {entrants[2].name}: {moves + 1} "
          f"moves, {total:.2f} s with sandbox start and stop, {result.reason.value}); "
          "per move:")
    for name, seconds in per_move.items():
        print(f"  {name:<60} {seconds / moves * 1e3:7.3f} ms")
    print(f"  {'= referee overhead':<60} {overhead / moves * 1e3:7.3f} ms")
    print(f"  {'(thinking, measured in the entrant)':<60} {thought / moves * 1e3:7.3f} ms")


def report(name: str, seconds: float, results: list[GameResult], overhead: list[float],
           thinking: list[float]) -> float:
    games = len(results)
    per_minute = games / seconds * 60
    endings = Counter(r.reason.value for r in results)
    assert endings.get("aborted", 0) == 0, f"aborted games: {endings}"
    print(f"{name}: {games} games in {seconds:.1f} s = {per_minute:.0f} games/min; endings: "
          + ", ".join(f"{n} {k}" for k, n in endings.most_common()))
    print(f"  referee overhead per move ({len(overhead)} moves): median "
          f"{statistics.median(overhead) * 1e3:.2f} ms, mean {statistics.mean(overhead) * 1e3:.2f}"
          f" ms, 90th percentile {statistics.quantiles(overhead, n=10)[-1] * 1e3:.2f} ms "
          f"(aim: < 5 ms); thinking per move: mean {statistics.mean(thinking) * 1e3:.2f} ms")
    return per_minute


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--clock", type=float, default=1.0,
                        help="seconds per player per game (default 1)")
    parser.add_argument("--entrants", type=int, default=16)
    parser.add_argument("--dask", action="store_true",
                        help="also on a dask LocalCluster with --workers workers")
    args = parser.parse_args()
    print(f"CPUs: {os.cpu_count()}; load average at start: {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory(prefix="bench-referee-") as temporary:
        folder = Path(temporary)
        entrants = make_entrants(folder, args.entrants)
        breakdown(entrants, args.clock)
        local = report(f"round robin, {args.entrants} sandboxed entrants, {args.workers} local "
                       f"workers, {args.clock:g} s clocks",
                       *play_round_robin(LocalExecutor(args.workers), entrants, args.clock,
                                         folder / "log-local"))
        if args.dask:
            from distributed import Client, LocalCluster

            (folder / "log-dask").mkdir()
            os.environ[LOG_ENV] = str(folder / "log-dask")  # before the workers start
            with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                              dashboard_address=None) as cluster, Client(cluster) as client:
                remote = report("the same on a dask LocalCluster",
                                *play_round_robin(DaskExecutor(client), entrants, args.clock,
                                                  folder / "log-dask"))
            print(f"LocalCluster / local games per minute: {remote / local:.2f}x")
    print(f"load average at end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
