"""Case generators for the othello spec (``gamegrader generate othello``).

Each generator is ``gen(rng, count, **params)`` and yields ``{"name", "doctest", "options"}``
with the reference's answers: the first best move and value as the transcript's expected
output, and in ``options`` every accepted answer for :mod:`reference.othello.checkers`.
Positions come from random playouts driven by ``rng`` (seeded by the spec), so a regenerated
file is identical as long as the reference is.
"""
from __future__ import annotations

import math
import random
import zlib
from typing import Any, Callable, Iterator, Optional, Sequence

from harness import render_doctest

from reference.core.counters import Counter
from reference.games.othello import Board, Othello, OthelloState, Player, disk_difference
from reference.games.othello import get_possible_moves, initial_board, opponent, play_move
from reference.othello import search
from reference.othello.agent import node_answers

_ATTEMPTS = 2000
_WINDOW = "float('-inf'), float('inf'), "


class _CountingOthello(Othello):
    """Othello that counts the calls a handout-faithful agent makes into ``othello_shared``.

    The reference search asks ``is_terminal`` exactly at the nodes where such an agent calls
    ``get_possible_moves`` (every node not cut off by the depth limit), and ``result`` once per
    successor it builds (one ``play_move``).
    """

    def __init__(self, size: int) -> None:
        super().__init__(size)
        self.expanded = 0
        self.played = 0

    def is_terminal(self, state: OthelloState) -> bool:
        self.expanded += 1
        return super().is_terminal(state)

    def result(self, state: OthelloState, move: Any) -> OthelloState:
        self.played += 1
        return super().result(state, move)


def _playout(rng: random.Random, size: int, plies: int) -> Optional[tuple[Board, Player]]:
    """The position after ``plies`` random moves from the start, or None if the game ends first."""
    board, player = initial_board(size), 1
    for _ in range(plies):
        moves = get_possible_moves(board, player)
        if not moves:
            return None
        col, row = rng.choice(moves)
        board, player = play_move(board, player, col, row), opponent(player)
    return board, player


def _position(rng: random.Random, size: int, plies: Sequence[int], seen: set[Board],
              accept: Callable[[Board, Player], bool] = lambda board, player: True,
              ) -> tuple[Board, Player, int]:
    """A random position ``plies[0]..plies[1]`` moves in, not in ``seen`` (it is added), with
    moves for the player to move, that ``accept(board, player)`` likes.

    Raises:
        RuntimeError: no such position turned up in a few thousand playouts.
    """
    for _ in range(_ATTEMPTS):
        count = rng.randint(*plies)
        found = _playout(rng, size, count)
        if found and found[0] not in seen and get_possible_moves(*found) and accept(*found):
            seen.add(found[0])
            return found[0], found[1], count
    raise RuntimeError(f"no acceptable {size}x{size} position {plies[0]}-{plies[1]} moves in")


def answer_entry(shape: str, board: Board, color: Player, limit: int,
                 maximizing: bool) -> dict[str, Any]:
    """The checkers' answer entry (see :mod:`reference.othello.checkers`) for one call.

    Args:
        shape: ``"node"`` for a node function, ``"move"`` for select_move.
        board: the position.
        color: the maximising player.
        limit: the depth limit of the call.
        maximizing: True for a max node or select_move, False for a min node.
    """
    value, moves = node_answers(board, color, limit, maximizing)
    return {"shape": shape, "value": value, "moves": [list(m) for m in moves], "color": color}


def _expected(answer: dict[str, Any]) -> Any:
    first = tuple(answer["moves"][0]) if answer["moves"] else None
    return first if answer["shape"] == "move" else (first, answer["value"])


def _transcript(setup: list[str], calls: list[tuple[str, dict[str, Any]]]) -> str:
    return "".join(render_doctest(setup if i == 0 else [], expression, _expected(answer))
                   for i, (expression, answer) in enumerate(calls))


def _work(board: Board, color: Player, limit: int) -> int:
    counter = Counter()
    search.minimax_max_node(Othello(len(board)), OthelloState(board, color), color, limit,
                            counter=counter)
    return counter.expansions + counter.leaves


def position_id(board: Board) -> str:
    """A short stable label of a board, so case names stay unique and can be searched for."""
    return f"{zlib.crc32(repr(board).encode()):08x}"


def _title(board: Board, plies: int, color: Player, limit: int) -> str:
    side = "dark" if color == 1 else "light"
    depth = "full depth" if limit < 0 else f"limit {limit}"
    size = len(board)
    return f"{size}x{size} position {position_id(board)}, {plies} moves in, {side} to move, {depth}"


def utility_cases(rng: random.Random, count: int,
                  sizes: Sequence[int] = (4, 6, 8)) -> Iterator[dict[str, Any]]:
    """compute_utility for both colours on positions from random playouts (any stage)."""
    seen: set[Board] = set()
    for _index in range(count):
        size = rng.choice(sizes)
        found = None
        while found is None or found[0] in seen:
            found = _playout(rng, size, rng.randint(0, size * size - 4))
        board = found[0]
        seen.add(board)
        text = render_doctest([f"board = {board!r}"], "compute_utility(board, 1)",
                              disk_difference(board, 1))
        text += render_doctest([], "compute_utility(board, 2)", disk_difference(board, 2))
        yield {"name": f"{size}x{size} board {position_id(board)}, both colours", "doctest": text}


def node_cases(rng: random.Random, count: int, algorithm: str = "minimax", size: int = 4,
               limits: Sequence[int] = (-1,), plies: Sequence[int] = (2, 6),
               max_work: int = 20000) -> Iterator[dict[str, Any]]:
    """The max node, the min node (opponent to move) and select_move on one position.

    ``algorithm`` is ``minimax`` or ``alphabeta``; alpha-beta's answers must equal minimax's.
    Positions whose full minimax tree exceeds ``max_work`` nodes are skipped, which bounds the
    students' run time.
    """
    window = _WINDOW if algorithm == "alphabeta" else ""
    seen: set[Board] = set()
    for _index in range(count):
        limit = rng.choice(limits)
        board, color, played = _position(
            rng, size, plies, seen, lambda b, p: _work(b, p, limit) <= max_work)
        calls = [
            (f"{algorithm}_max_node(board, {color}, {window}{limit})",
             answer_entry("node", board, color, limit, True)),
            (f"{algorithm}_min_node(board, {color}, {window}{limit})",
             answer_entry("node", board, color, limit, False)),
            (f"select_move_{algorithm}(board, {color}, {limit})",
             answer_entry("move", board, color, limit, True)),
        ]
        yield {"name": _title(board, played, color, limit),
               "doctest": _transcript([f"board = {board!r}"], calls),
               "options": {"answers": [answer for _, answer in calls]}}


def caching_cases(rng: random.Random, count: int, algorithm: str = "minimax", size: int = 6,
                  limits: Sequence[int] = (4, 2),
                  plies: Sequence[int] = (4, 12)) -> Iterator[dict[str, Any]]:
    """Calls with caching on, in one process, arranged so that a cache key missing the node
    kind, the colour or the limit, or a cached root without its move, gives a wrong answer.

    The position is chosen so that the values at the two limits differ and are non-zero.
    """
    deep, shallow = limits
    window = _WINDOW if algorithm == "alphabeta" else ""

    def distinct(board: Board, color: Player) -> bool:
        a = node_answers(board, color, deep, True)[0]
        b = node_answers(board, color, shallow, True)[0]
        return a != b and a != 0 and b != 0

    seen: set[Board] = set()
    for _index in range(count):
        board, color, played = _position(rng, size, plies, seen, distinct)
        other = opponent(color)
        select = f"select_move_{algorithm}(board, {color}, {deep}, 1)"
        if algorithm == "alphabeta":
            select = f"select_move_alphabeta(board, {color}, {deep}, 1, 0)"
        calls = [
            (select, answer_entry("move", board, color, deep, True)),
            (select, answer_entry("move", board, color, deep, True)),
            (f"{algorithm}_max_node(board, {color}, {window}{shallow}, 1)",
             answer_entry("node", board, color, shallow, True)),
            (f"{algorithm}_min_node(board, {other}, {window}{deep}, 1)",
             answer_entry("node", board, other, deep, False)),
        ]
        yield {"name": _title(board, played, color, deep) + f", then limit {shallow}",
               "doctest": _transcript([f"board = {board!r}"], calls),
               "options": {"answers": [answer for _, answer in calls]}}


def ordering_work(board: Board, color: Player, limit: int,
                  ordering: Optional[search.Ordering]) -> tuple[Any, int]:
    """(move, get_possible_moves calls) of a handout-faithful alpha-beta agent, caching off."""
    game = _CountingOthello(len(board))
    move, _ = search.alphabeta_max_node(game, OthelloState(board, color), color, -math.inf,
                                        math.inf, limit, ordering=ordering)
    return move, game.expanded


def ordering_cases(rng: random.Random, count: int, size: int = 6, limit: int = 5,
                   plies: Sequence[int] = (4, 14),
                   min_saving: float = 0.15) -> Iterator[dict[str, Any]]:
    """select_move_alphabeta with ordering off then on, work counted by the probe.

    Only positions where ordering saves at least ``min_saving`` of the expansions, both with
    the handout's ordering and with best-for-the-mover ordering, are used, so either reading
    of the handout passes.
    """
    def saves(board: Board, color: Player) -> bool:
        off = ordering_work(board, color, limit, None)[1]
        on = max(ordering_work(board, color, limit, search.handout_ordering)[1],
                 ordering_work(board, color, limit, search.mover_ordering)[1])
        return on <= (1 - min_saving) * off

    seen: set[Board] = set()
    for _index in range(count):
        board, color, played = _position(rng, size, plies, seen, saves)
        answer = answer_entry("move", board, color, limit, True)
        move_off, off = ordering_work(board, color, limit, None)
        move_on, on = ordering_work(board, color, limit, search.handout_ordering)
        text = render_doctest(["import othello_probe", 'probe = othello_probe.install("agent")',
                               f"board = {board!r}", "probe.reset()"],
                              f"select_move_alphabeta(board, {color}, {limit}, 0, 0)", move_off)
        text += render_doctest([], 'probe.counts()["get_possible_moves"]', off)
        text += render_doctest(["probe.reset()"],
                               f"select_move_alphabeta(board, {color}, {limit}, 0, 1)", move_on)
        text += render_doctest([], 'probe.counts()["get_possible_moves"]', on)
        yield {"name": _title(board, played, color, limit),
               "doctest": text,
               "options": {"answer": answer, "measure": "get_possible_moves"}}


__all__ = ["answer_entry", "caching_cases", "node_cases", "ordering_cases", "ordering_work",
           "position_id", "utility_cases"]
