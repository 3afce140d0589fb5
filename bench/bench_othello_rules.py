"""Side-by-side timings of the Othello rules: the plain implementations they replaced (kept as the
test oracle, ``assignments/othello/tests/plain_othello_rules.py``) against the fast ones, in one
run.

Per function, on the positions of seeded random playouts (8 x 8 by default): the trusted rules
(``assignments/othello/rules.py``) and the students' helpers
(``assignments/othello/template/othello_shared.py``); the memos of both are emptied before every
pass, so each position is computed once, as in a search that meets it once. Then full-depth
minimax from the 4 x 4 start: the reference solution agent (student API) on the old and on the
new ``othello_shared``, once and as the handout's case asks (max node, min node, select move:
three searches of the same tree), also with the grader's work probe installed, as in a
sandboxed case; and the trusted reference search on the old and the new rules. Prints ratios;
asserts only that old and new agree.

    .venv/bin/python bench/bench_othello_rules.py [--size 8] [--positions 400] [--repeat 3]
"""
from __future__ import annotations

import argparse
import math
import os
import random
import sys
import tempfile
import time
import types
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "assignments" / "othello" / "tests"))

import plain_othello_rules as plain  # noqa: E402
from othello_support import SOLUTION, TEMPLATE_DIR  # noqa: E402
from othello_support import load_module as load  # noqa: E402

from assignments.othello import rules  # noqa: E402
from reference.search import alphabeta as search  # noqa: E402

PROBE = ROOT / "assignments" / "othello" / "othello_probe.py"


def old_shared_module() -> types.ModuleType:
    """An ``othello_shared`` module made of the plain helpers (their calls to each other go
    through the module's names, as in the original file)."""
    module = types.ModuleType("othello_shared")
    module.OLD_DIRECTIONS = plain.OLD_DIRECTIONS  # type: ignore[attr-defined]
    for name in ("find_lines", "get_possible_moves", "play_move", "get_score"):
        old = getattr(plain, f"old_shared_{name}")
        setattr(module, name, types.FunctionType(old.__code__, vars(module), name))
    module.old_shared_find_lines = module.find_lines  # type: ignore[attr-defined]
    return module


def playout_boards(size: int, count: int) -> list[rules.Board]:
    rng = random.Random(size)
    boards: list[rules.Board] = []
    while len(boards) < count:
        board, player = rules.Othello(size).initial_state().board, rules.DARK
        while len(boards) < count:
            boards.append(board)
            moves = rules.get_possible_moves(board, player)
            if not moves:
                break
            board = rules.play_move(board, player, *rng.choice(moves))
            player = rules.opponent(player)
    return boards


def best_of(repeat: int, run: Callable[[], Any]) -> tuple[float, Any]:
    """The fastest of ``repeat`` runs (the least disturbed by other load) and its result."""
    best, result = math.inf, None
    for _ in range(repeat):
        empty_memos()
        started = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - started)
    return best, result


STUDENT_MODULES: list[types.ModuleType] = []
"""Every copy of the students' othello_shared this run loaded (see ``new_shared``)."""


def new_shared() -> types.ModuleType:
    """A fresh copy of the students' othello_shared.py, as ``othello_shared``."""
    module = load(TEMPLATE_DIR / "othello_shared.py", "othello_shared")
    STUDENT_MODULES.append(module)
    return module


def empty_memos() -> None:
    """Every pass starts with empty memos, the trusted rules' and the students' helpers' (which
    remember boards of up to 4 x 4), so a pass computes each position the first time it meets
    it, as one search does."""
    rules._MOVES_MEMO.clear()
    rules._PLAYS_MEMO.clear()
    for module in STUDENT_MODULES:
        for name in ("_MOVES_SEEN", "_PLAYS_SEEN", "_SCORES_SEEN", "_BOARDS"):
            getattr(module, name).clear()


def compare(label: str, old: Callable[[], Any], new: Callable[[], Any], repeat: int) -> None:
    old_seconds, old_result = best_of(repeat, old)
    new_seconds, new_result = best_of(repeat, new)
    assert old_result == new_result, f"{label}: old and new rules disagree"
    print(f"  {label:34} old {old_seconds * 1e3:9.1f} ms   new {new_seconds * 1e3:9.1f} ms   "
          f"{old_seconds / new_seconds:5.1f}x faster")


def bench_functions(module: Any, prefix: str, boards: list[rules.Board], repeat: int) -> None:
    size = len(boards[0])
    squares = [(c, r) for c in range(size) for r in range(size)]
    plays = [(b, p, m) for b in boards for p in (1, 2) for m in rules.get_possible_moves(b, p)]

    def each_square(find_lines: Callable[..., Any]) -> Callable[[], Any]:
        return lambda: [find_lines(b, c, r, p) for b in boards for p in (1, 2)
                        for c, r in squares if b[r][c] == 0]

    def each_board(moves: Callable[..., Any]) -> Callable[[], Any]:
        return lambda: [moves(b, p) for b in boards for p in (1, 2)]

    def each_play(play: Callable[..., Any]) -> Callable[[], Any]:
        return lambda: [play(b, p, *m) for b, p, m in plays]

    compare("find_lines (every empty square)", each_square(getattr(plain, f"{prefix}find_lines")),
            each_square(module.find_lines), repeat)
    compare("get_possible_moves", each_board(getattr(plain, f"{prefix}get_possible_moves")),
            each_board(module.get_possible_moves), repeat)
    compare("play_move (every legal move)", each_play(getattr(plain, f"{prefix}play_move")),
            each_play(module.play_move), repeat)
    if prefix == "old_shared_":
        compare("get_score", lambda: [plain.old_shared_get_score(b) for b in boards],
                lambda: [module.get_score(b) for b in boards], repeat)
    else:
        game = rules.Othello(size)
        plain_game = PlainOthello(size)

        def node(game: rules.Othello) -> Callable[[], Any]:
            """What a search does at a node: is it terminal, and if not, its moves."""
            states = [rules.OthelloState(b, p) for b in boards for p in (1, 2)]
            return lambda: [game.is_terminal(s) or game.actions(s) for s in states]

        compare("is_terminal, then actions", node(plain_game), node(game), repeat)


class PlainOthello(rules.Othello):
    """The trusted game adapter on the plain rules."""

    def actions(self, state: rules.OthelloState) -> list[rules.Move]:
        return plain.old_trusted_get_possible_moves(state.board, state.to_move)

    def result(self, state: rules.OthelloState, move: rules.Move) -> rules.OthelloState:
        return rules.OthelloState(plain.old_trusted_play_move(state.board, state.to_move, *move),
                                  rules.opponent(state.to_move))

    def is_terminal(self, state: rules.OthelloState) -> bool:
        return plain.old_trusted_is_terminal(state.board, state.to_move)


def agent_on(shared: types.ModuleType, name: str) -> types.ModuleType:
    sys.modules["othello_shared"] = shared
    return load(SOLUTION, name)


def bench_minimax(repeat: int) -> None:
    start = rules.Othello(4).initial_state().board
    print("full-depth minimax from the 4x4 start (value -6):")
    old_agent = agent_on(old_shared_module(), "bench_agent_old")
    new_agent = agent_on(new_shared(), "bench_agent_new")
    compare("reference agent (student API)", lambda: old_agent.minimax_max_node(start, 1, -1),
            lambda: new_agent.minimax_max_node(start, 1, -1), repeat)

    def handout_case(agent: types.ModuleType) -> Callable[[], Any]:
        return lambda: (agent.minimax_max_node(start, 1, -1, 0),
                        agent.minimax_min_node(start, 2, -1, 0),
                        agent.select_move_minimax(start, 1, -1, 0))

    compare("the handout's case (3 searches)", handout_case(old_agent), handout_case(new_agent),
            repeat)
    compare("trusted search (reference/search)",
            lambda: search.minimax_max_node(PlainOthello(4), PlainOthello(4).initial_state(),
                                            1, -1).value,
            lambda: search.minimax_max_node(rules.Othello(4), rules.Othello(4).initial_state(),
                                            1, -1).value, repeat)
    probed = {}
    with tempfile.TemporaryDirectory() as folder:
        here = os.getcwd()
        os.chdir(folder)  # the probe looks for student modules under the current folder
        try:
            for label, shared in (("old", old_shared_module()), ("new", new_shared())):
                agent = agent_on(shared, f"bench_probed_agent_{label}")
                work = load(PROBE, f"bench_probe_{label}").install()
                probed[label] = (agent, work)
        finally:
            os.chdir(here)

    def probed_run(label: str) -> Callable[[], Any]:
        agent, work = probed[label]
        return lambda: (agent.minimax_max_node(start, 1, -1), work())

    compare("reference agent, probe installed", probed_run("old"), probed_run("new"), repeat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=8)
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    boards = playout_boards(args.size, args.positions)
    print(f"trusted rules (assignments/othello/rules.py), {len(boards)} positions "
          f"{args.size}x{args.size}, both players, best of {args.repeat}:")
    bench_functions(rules, "old_trusted_", boards, args.repeat)
    shared = new_shared()
    print("students' helpers (othello_shared.py), same positions:")
    bench_functions(shared, "old_shared_", boards, args.repeat)
    bench_minimax(args.repeat)


if __name__ == "__main__":
    main()
