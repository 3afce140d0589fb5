"""Benchmark: the Isolation referee's overhead per move, and tournament throughput.

1. Referee overhead per move: the same instant player (first legal move, written in the
   student API) plays random-bot games once in this process and once in the harness sandbox.
   The referee's clock charges both; the difference per move is the clock plus the process
   round trip (board encoding, pipe, sandboxed worker, reply decoding).
2. Games per minute for a 16-agent round robin of fast house bots (240 games): local worker
   processes versus a dask ``LocalCluster`` with as many single-threaded workers.

Run: ``.venv/bin/python bench/bench_referee.py [--games N] [--workers N]``. Prints ratios side by
side; asserts nothing.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from reference.games.isolation import Isolation, IsolationState, format_board  # noqa: E402
from reference.isolation.arena import IsolationArena  # noqa: E402
from reference.isolation.players import RandomPlayer  # noqa: E402
from reference.isolation.referee import referee_game, student_contestant  # noqa: E402
from harness.tournament.engine import run_round_robin  # noqa: E402
from harness.tournament.executors import DaskExecutor, Executor, LocalExecutor  # noqa: E402
from harness.games.match import Seat as Contestant  # noqa: E402
from harness.tournament.records import Entrant  # noqa: E402
from harness.games.seats import InProcess  # noqa: E402

INSTANT_PLAYER = '''
DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def choose_move(board, player, time_left):
    """The first legal move in row-major order, or (None, None)."""
    row, col = next((r, c) for r in range(8) for c in range(8) if board[r][c] == player)
    moves = []
    for dr, dc in DIRECTIONS:
        r, c = row + dr, col + dc
        while 0 <= r < 8 and 0 <= c < 8 and board[r][c] == '-':
            moves.append((r + 1, c + 1))
            r, c = r + dr, c + dc
    return min(moves) if moves else (None, None)
'''


class _ModuleAgent:
    """The instant player's function called in this process, on the student's board format."""

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function

    def choose_move(self, state: IsolationState, time_left: float) -> Any:
        return tuple(self.function(format_board(state), state.to_move, time_left))


def _per_move(make_student: Callable[[], Contestant[Any, Any]], games: int) -> list[float]:
    """Referee-charged seconds per move of the student (playing x), over ``games`` games."""
    game = Isolation()
    charged: list[float] = []
    for seed in range(games):
        record = referee_game(make_student(), InProcess(RandomPlayer(game, seed)), 600.0, game)
        charged += [p.seconds for p in record.plies if p.player == "x"]
    return charged


def bench_overhead(games: int) -> None:
    from harness import Sandbox

    namespace: dict[str, Any] = {}
    exec(compile(INSTANT_PLAYER, "instant_player", "exec"), namespace)
    in_process = _per_move(lambda: InProcess(_ModuleAgent(namespace["choose_move"])), games)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "player.py"
        path.write_text(INSTANT_PLAYER)
        with Sandbox("player", {"player.py": path}) as sandbox:
            servers: list[Any] = []

            def sandboxed() -> Contestant[Any, Any]:
                servers.append(sandbox.start_server())
                return student_contestant(servers[-1])

            try:
                served = _per_move(sandboxed, games)
            finally:
                for server in servers:
                    server.close()
    local_ms = statistics.median(in_process) * 1e3
    served_ms = statistics.median(served) * 1e3
    print(f"referee overhead per move ({len(served)} moves, median)")
    print(f"  {'in process':>14} {'sandboxed':>12} {'overhead':>12} {'ratio':>8}")
    print(f"  {local_ms:>11.3f} ms {served_ms:>9.3f} ms {served_ms - local_ms:>9.3f} ms "
          f"{served_ms / local_ms:>7.0f}x")


def _games_per_minute(executor: Executor, entrants: list[Entrant]) -> tuple[float, int]:
    started = time.perf_counter()
    result = run_round_robin(IsolationArena(seconds=30.0), entrants, 1, executor)
    elapsed = time.perf_counter() - started
    return len(result.results) / elapsed * 60, len(result.results)


def bench_throughput(workers: int) -> None:
    from distributed import Client, LocalCluster

    bots = ["random", "greedy", "depth1", "depth2"]
    entrants = [Entrant(f"{bots[i % 4]}-{i}", f"house:{bots[i % 4]}") for i in range(16)]
    local, games = _games_per_minute(LocalExecutor(workers), entrants)
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        remote, _ = _games_per_minute(DaskExecutor(client), entrants)
    print(f"16-agent round robin of fast bots ({games} games, {workers} workers)")
    print(f"  {'local':>14} {'LocalCluster':>14} {'ratio':>8}")
    print(f"  {local:>10.0f}/min {remote:>10.0f}/min {remote / local:>7.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games for the overhead part")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    bench_overhead(args.games)
    bench_throughput(args.workers)


if __name__ == "__main__":
    main()
