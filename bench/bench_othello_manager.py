"""Side-by-side timings for the othello assignment: the manager's per-move overhead and the
reference searches' work. Prints ratios; asserts nothing (speed claims live here, not in tests).

    .venv/bin/python bench/bench_othello_manager.py [--games 20] [--size 6]
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assignments.othello import rules  # noqa: E402
from assignments.othello.manager import TEMPLATE_DIR, load_manager  # noqa: E402
from reference.core.counters import Counter  # noqa: E402
from reference.search import alphabeta as search  # noqa: E402


def _games(make_dark, make_light, count: int, size: int) -> tuple[float, int]:
    manager = load_manager()
    started, moves = time.perf_counter(), 0
    for seed in range(count):
        outcome = manager.play_game(make_dark(seed), make_light(seed),
                                    manager.GameConfig(size=size), rules=rules)
        moves += len(outcome.moves)
    return time.perf_counter() - started, moves


def bench_manager(count: int, size: int) -> None:
    manager = load_manager()
    randy = str(TEMPLATE_DIR / "randy_ai.py")

    def in_process(seed: int):
        return manager.random_player(seed, rules)

    def program(seed: int):
        return manager.ProcessPlayer(randy, env={"OTHELLO_SEED": str(seed),
                                                 "PYTHONPATH": str(TEMPLATE_DIR)})

    local, local_moves = _games(in_process, in_process, count, size)
    piped, piped_moves = _games(program, program, count, size)
    print(f"manager, {count} Randy-vs-Randy games on {size}x{size}:")
    print(f"  in-process players: {1e3 * local / local_moves:8.3f} ms per move")
    print(f"  player programs:    {1e3 * piped / piped_moves:8.3f} ms per move "
          f"({piped / local:.0f}x; process start and pipes)")


def bench_search() -> None:
    game = rules.Othello(4)
    variants = {
        "minimax": lambda c: search.minimax_max_node(game, game.initial_state(), 1, -1, counter=c),
        "minimax, caching": lambda c: search.minimax_max_node(game, game.initial_state(), 1, -1,
                                                              cache={}, counter=c),
        "alpha-beta": lambda c: search.alphabeta_max_node(game, game.initial_state(), 1, -math.inf,
                                                          math.inf, -1, counter=c),
        "alpha-beta, ordering": lambda c: search.alphabeta_max_node(
            game, game.initial_state(), 1, -math.inf, math.inf, -1, counter=c,
            ordering=search.handout_ordering),
    }
    print("reference search, 4x4 start, full depth (value -6):")
    base = None
    for name, run in variants.items():
        counter = Counter()
        started = time.perf_counter()
        answer = run(counter)
        seconds = time.perf_counter() - started
        base = base or seconds
        print(f"  {name:22} {counter.expansions:7} expansions {seconds:7.3f} s "
              f"({seconds / base:.2f}x minimax) value {answer.value}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--size", type=int, default=6)
    args = parser.parse_args()
    bench_search()
    bench_manager(args.games, args.size)


if __name__ == "__main__":
    main()
