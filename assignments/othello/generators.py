"""Case generators for the othello spec (``gamegrader generate othello``).

Each generator is ``gen(rng, count, **params)`` and yields ``{"name", "doctest", "options"}``
with the reference's answers: the first best move and value as the transcript's expected
output, and in ``options`` every accepted answer for :mod:`assignments.othello.checkers`.
Positions come from random playouts driven by ``rng`` (seeded by the spec), so a regenerated
file is identical as long as the reference is.
"""
from __future__ import annotations

import math
import random
import zlib
from dataclasses import replace
from typing import Any, Callable, Iterator, Optional, Sequence

from assignments.othello.agent import node_answers
from assignments.othello.checkers import judge_value
from assignments.othello.rules import (
    Board,
    Move,
    Othello,
    OthelloState,
    Player,
    disk_difference,
    get_possible_moves,
    opponent,
    play_move,
)
from harness import render_doctest
from reference.core.counters import Counter
from reference.core.symmetry import first_image
from reference.search import alphabeta as search

_ATTEMPTS = 2000
_WINDOW = "float('-inf'), float('inf'), "


def _playout(rng: random.Random, size: int, plies: int) -> Optional[tuple[Board, Player]]:
    """The position after ``plies`` random moves from the start, or None if the game ends first."""
    board, player = Othello(size).initial_state().board, 1
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
    """The checkers' answer entry (see :mod:`assignments.othello.checkers`) for one call.

    Args:
        shape: ``"node"`` for a node function, ``"move"`` for select_move.
        board: the position.
        color: the maximising player.
        limit: the depth limit of the call.
        maximizing: True for a max node or select_move, False for a min node.
    """
    value, moves = node_answers(board, color, limit, maximizing)
    return {"shape": shape, "value": value, "moves": [list(m) for m in moves], "color": color}



Call = tuple[list[str], str, dict[str, Any]]
"""One graded call of a transcript: (setup statements, expression, answer entry)."""

CONSTANT_ANSWERS: dict[str, tuple[Any, ...]] = {
    "node": ((None, 0), ((0, 0), 0)),
    "move": ((0, 0), None),
    "cutoff": ((None, 0), ((0, 0), 0)),
    "ordered": ((0, 0), None),
    "value": (0, None),
}
"""What untouched stubs of the course's starters return (the 2020-2024 and the current one)."""


def constant_earns(answer: dict[str, Any]) -> bool:
    """Whether some constant stub answer earns credit on ``answer``."""
    return any(judge_value(stub, answer, reveal=False)[0] > 0
               for stub in CONSTANT_ANSWERS[answer["shape"]])


def _switches(algorithm: str, caching: int = 0, ordering: int = 0) -> str:
    """The caching (and, for alpha-beta, ordering) arguments of a call, written out even when
    0: the course's own tests pass every argument, so a student's function that gives these
    parameters no default passed them and must pass ours (e.g. ``"0"`` or ``"1, 0"``)."""
    return f"{caching}, {ordering}" if algorithm == "alphabeta" else f"{caching}"


def call(function: str, arguments: str, value_fn: str = "") -> str:
    """The text of a call to a student function; ``value_fn`` (the name of an evaluation, as in
    the value_fn revision of the agent API) goes first when given."""
    return f"{function}({value_fn}, {arguments})" if value_fn else f"{function}({arguments})"


def _expected(answer: dict[str, Any]) -> Any:
    """What the transcript shows for an answer: what the function returns, a select_move's move
    (with ordering too) alone, a node's (move, value)."""
    first = tuple(answer["moves"][0]) if answer["moves"] else None
    if answer["shape"] == "value":
        return answer["value"]
    return first if answer["shape"] in ("move", "ordered") else (first, answer["value"])


def _transcript(calls: Sequence[Call]) -> str:
    return "".join(render_doctest(setup, expression, _expected(answer))
                   for setup, expression, answer in calls)


def _case(name: str, calls: Sequence[Call], **options: Any) -> dict[str, Any]:
    return {"name": name, "doctest": _transcript(calls),
            "options": {"answers": [answer for _, _, answer in calls], **options}}


def _searched(board: Board, color: Player, limit: int, algorithm: str,
              cache: Optional[search.Cache]) -> int:
    """Positions the reference search visits for a max node (expansions + leaves)."""
    counter = Counter()
    game, state = Othello(len(board)), OthelloState(board, color)
    if algorithm == "alphabeta":
        search.alphabeta_max_node(game, state, color, -math.inf, math.inf, limit, cache=cache,
                                  counter=counter)
    else:
        search.minimax_max_node(game, state, color, limit, cache=cache, counter=counter)
    return counter.expansions + counter.leaves


class _Recording(Othello):
    """The rules, noting the moves the search plays, so a transcript's shown work can say how
    many successors it generated again (as ``othello_probe`` counts them in the student's
    search: ``play_move`` called again with the same board, player and square)."""

    def __init__(self, size: int, played: set[tuple[OthelloState, Move]]) -> None:
        super().__init__(size)
        self.played = played
        self.again = self.plays = 0

    def result(self, state: OthelloState, move: Move) -> OthelloState:
        key = (state, move)
        self.plays += 1
        if key in self.played:
            self.again += 1
        self.played.add(key)
        return super().result(state, move)


def _shown_work(boards: Sequence[Board], color: Player, limit: int, algorithm: str,
                cache: Optional[search.Cache],
                rules: search.SearchRules = search.TEXTBOOK) -> tuple[int, int, int]:
    """What ``work()`` shows after the reference searched ``boards`` in turn: positions visited
    (expansions + leaves, a stand-in for the helper calls), positions explored again and
    successors generated."""
    counter = Counter()
    game = _Recording(len(boards[0]), set())
    for board in boards:
        state = OthelloState(board, color)
        if algorithm == "alphabeta":
            search.alphabeta_max_node(game, state, color, -math.inf, math.inf, limit,
                                      cache=cache, counter=counter, rules=rules)
        else:
            search.minimax_max_node(game, state, color, limit, cache=cache, counter=counter,
                                    rules=rules)
    return counter.expansions + counter.leaves, game.again, game.plays


_TIE_ORDERS = (search.TEXTBOOK, replace(search.TEXTBOOK, reorder=lambda moves: moves[::-1]))
"""The move orders students search in: get_possible_moves' and its reverse (ties broken the
other way)."""


def _cache_explores_less(boards: Sequence[Board], color: Player, limit: int,
                         algorithm: str) -> bool:
    """Whether the reference's exact cache explores fewer positions again over ``boards``, in
    either move order. An alpha-beta cache of exact values only finds what was searched with a
    window around its value, which depends on the order: on some positions one order finds
    nothing, and an honest student's search in that order must not fail the case."""
    return all(_shown_work(boards, color, limit, algorithm, {}, rules)[1]
               < _shown_work(boards, color, limit, algorithm, None, rules)[1]
               for rules in _TIE_ORDERS)


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
    """compute_utility for both colours on positions from random playouts (any stage).

    Only boards where the colours do not have equally many disks, so a constant 0 is wrong.
    """
    seen: set[Board] = set()
    for _index in range(count):
        size = rng.choice(sizes)
        found = None
        while found is None or found[0] in seen or disk_difference(found[0], 1) == 0:
            found = _playout(rng, size, rng.randint(0, size * size - 4))
        board = found[0]
        seen.add(board)
        text = render_doctest([f"board = {board!r}"], "compute_utility(board, 1)",
                              disk_difference(board, 1))
        text += render_doctest([], "compute_utility(board, 2)", disk_difference(board, 2))
        yield {"name": f"{size}x{size} board {position_id(board)}, both colours", "doctest": text}


def _pair_constant_answers(calls: list[Call], extra_select: Callable[[], Call]) -> None:
    """Put each answer a constant stub could earn in a unit with one it cannot (in place).

    A node answer is paired with a node answer of the same case; a select answer with an extra
    select call on another position (``extra_select``), appended to ``calls``.

    Raises:
        ValueError: a node answer has no partner (the generator then picks another position).
    """
    for index, (_, _, answer) in enumerate(list(calls)):
        if not constant_earns(answer):
            continue
        label = f"pair{index}"
        answer["unit"] = label
        if answer["shape"] == "move":
            extra = extra_select()
            extra[2]["unit"] = label
            calls.append(extra)
            continue
        partner = next((other for _, _, other in calls if other["shape"] == answer["shape"]
                        and "unit" not in other and not constant_earns(other)), None)
        if partner is None:
            raise ValueError("no partner for an answer a constant could give")
        partner["unit"] = label


def one_ply_less_tells(board: Board, color: Player, limit: int) -> bool:
    """Whether no best move of a root searched with ``limit - 1`` is a best move with ``limit``
    (always at limit 1, where one ply less searches nothing), so that a select_move searching
    a ply too few fails there whatever its tie-breaking."""
    if limit < 2:
        return limit == 1
    shallow = node_answers(board, color, limit - 1, True)[1]
    return not set(shallow) & set(node_answers(board, color, limit, True)[1])


def node_cases(rng: random.Random, count: int, algorithm: str = "minimax", size: int = 4,
               limits: Sequence[int] = (-1,), plies: Sequence[int] = (2, 6),
               max_work: int = 20000, value_fn: str = "",
               root_depth_tells: bool = False,
               images: Sequence[str] = ()) -> Iterator[dict[str, Any]]:
    """The max node, the min node (opponent to move) and select_move on one position.

    ``algorithm`` is ``minimax`` or ``alphabeta``; alpha-beta's answers must equal minimax's.
    Positions whose full minimax tree exceeds ``max_work`` nodes are skipped, which bounds the
    students' run time. An answer a constant stub could give is paired (see
    :func:`_pair_constant_answers`). ``value_fn`` names an evaluation passed first to every
    search call (the value_fn revision of the API). ``root_depth_tells``: every select_move
    position is one where searching one ply less changes the move
    (:func:`one_ply_less_tells`), so a root that starts from ``limit - 1`` fails each.
    ``images`` (symmetry names of :mod:`reference.core.symmetry`; Othello's rules keep all
    eight): with the same seed and settings as a visible block, each case asks instead the
    first image of that block's position that differs from it, answered by the reference on
    the image, ``mirror_of`` the visible case.
    """
    window = _WINDOW if algorithm == "alphabeta" else ""
    off = _switches(algorithm)
    seen: set[Board] = set()

    def small(limit: int) -> Callable[[Board, Player], bool]:
        return lambda b, p: _searched(b, p, limit, "minimax", None) <= max_work and (
            not root_depth_tells or one_ply_less_tells(b, p, limit))

    def position_calls(board: Board, color: Player, limit: int,
                       picks: random.Random) -> list[Call]:
        calls: list[Call] = [
            ([f"board = {board!r}"],
             call(f"{algorithm}_max_node", f"board, {color}, {window}{limit}, {off}", value_fn),
             answer_entry("node", board, color, limit, True)),
            ([], call(f"{algorithm}_min_node", f"board, {color}, {window}{limit}, {off}",
                      value_fn),
             answer_entry("node", board, color, limit, False)),
            ([], call(f"select_move_{algorithm}", f"board, {color}, {limit}, {off}", value_fn),
             answer_entry("move", board, color, limit, True)),
        ]

        def extra_select() -> Call:
            other, _, _ = _position(picks, size, plies, seen, lambda b, p: small(limit)(b, color)
                                    and p == color and not constant_earns(
                                        answer_entry("move", b, color, limit, True)))
            return ([f"other = {other!r}"],
                    call(f"select_move_{algorithm}", f"other, {color}, {limit}, {off}",
                         value_fn),
                    answer_entry("move", other, color, limit, True))

        _pair_constant_answers(calls, extra_select)
        return calls

    for _index in range(count):
        while True:
            limit = rng.choice(limits)
            board, color, played = _position(rng, size, plies, seen, small(limit))
            try:
                calls = position_calls(board, color, limit, rng)
            except ValueError:
                continue
            break
        title = _title(board, played, color, limit)
        yield _image_case(title, board, images, lambda image, picks: position_calls(
            image, color, limit, picks), lambda image: _title(image, played, color, limit)
        ) if images else _case(title, calls)


def _image_case(title: str, board: Board, images: Sequence[str],
                calls_on: Callable[[Board, random.Random], list[Call]],
                image_title: Callable[[Board], str]) -> dict[str, Any]:
    """The visible case ``title`` on ``board`` asked again on the first image of ``board`` under
    ``images`` that differs from it, ``mirror_of`` it: ``calls_on(image, picks)`` makes the
    calls (``picks`` seeded by the image, for an extra position a pairing needs, so the visible
    block's sequence is kept), and the name is ``image_title(image)`` with the symmetry.

    Raises:
        RuntimeError: ``board`` is symmetric under every one of ``images``, or an answer a
            constant could give on the image has no partner.
    """
    found = first_image(board, images)
    if found is None:
        raise RuntimeError(f"{title} is symmetric under every one of {list(images)}")
    name, image = found
    try:
        image_calls = calls_on(image, random.Random(position_id(image)))
    except ValueError:
        raise RuntimeError(f"no partner for a constant answer on the {name} image of "
                           f"{title}") from None
    return {**_case(f"{image_title(image)} ({name} image of {position_id(board)})", image_calls),
            "mirror_of": title}


def limit_images(rng: random.Random, count: int, *, board: Sequence[Sequence[int]], color: Player,
                 algorithm: str, limits: Sequence[int], images: Sequence[str],
                 mirror_of: str, value_fn: str = "") -> Iterator[dict[str, Any]]:
    """The visible case ``mirror_of`` (the max node of ``algorithm`` on ``board`` for ``color``
    at each of ``limits``, a case written by hand) asked again on the first image of ``board``
    under ``images`` that differs from it (Othello's rules keep every symmetry of the square
    board), answered by the reference on the image; answers a constant could give are paired as
    in :func:`node_cases`; ``value_fn`` as there. ``count`` must be 1.
    """
    if count != 1:
        raise ValueError("limit_images asks one visible case again: count must be 1")
    position: Board = tuple(tuple(row) for row in board)
    found = first_image(position, images)
    if found is None:
        raise ValueError(f"{mirror_of!r} is unchanged by every one of {list(images)}")
    name, image = found
    window = _WINDOW if algorithm == "alphabeta" else ""
    calls: list[Call] = [
        ([f"board = {image!r}"] if index == 0 else [],
         call(f"{algorithm}_max_node", f"board, {color}, {window}{limit}, "
                                       f"{_switches(algorithm)}", value_fn),
         answer_entry("node", image, color, limit, True))
        for index, limit in enumerate(limits)]

    def no_select() -> Call:
        raise ValueError("a limit image asks no select_move")

    _pair_constant_answers(calls, no_select)
    yield {**_case(f"{mirror_of} ({name} image)", calls), "mirror_of": mirror_of}


def mover_value(board: Board, color: Player) -> int:
    """A min node's value where ``color`` is taken for the player to move there (the colour-only
    starter fixes no convention for min nodes): ``color`` moves and minimises the value for its
    opponent, at full depth the negation of the max node's value for ``color`` (the disk
    difference is zero-sum)."""
    return -node_answers(board, color, -1, True)[0]


def _colour_calls(board: Board, color: Player, algorithm: str, plies: Sequence[int],
                  max_work: int, picks: random.Random, seen: set[Board],
                  min_color: Optional[Player] = None) -> list[Call]:
    """The colour-only calls on one position (see :func:`colour_node_cases`): the max node for
    ``color``, the min node for ``min_color`` (``color`` unless given) and select_move for
    ``color``, answers a constant could give paired (an extra select_move on a position of
    ``plies`` moves picked by ``picks``, not in ``seen``).

    Raises:
        ValueError: a node answer has no partner (:func:`_pair_constant_answers`).
    """
    window = ", float('-inf'), float('inf')" if algorithm == "alphabeta" else ""
    fit = ["import starter_calls; starter_calls.fit(globals())"] if window else []
    other_color = color if min_color is None else min_color

    def extra_select() -> Call:
        other, _, _ = _position(picks, len(board), plies, seen, lambda b, p: _small_tree(
            b, p, max_work) and p == color and not constant_earns(
                _colour_entry("move", b, color, True)))
        return ([f"other = {other!r}"], f"select_move_{algorithm}(other, {color})",
                _colour_entry("move", other, color, True))

    calls: list[Call] = [
        ([*fit, f"board = {board!r}"], f"{algorithm}_max_node(board, {color}{window})",
         _colour_entry("value", board, color, True)),
        ([], f"{algorithm}_min_node(board, {other_color}{window})",
         _colour_entry("value", board, other_color, False)),
        ([], f"select_move_{algorithm}(board, {color})", _colour_entry("move", board, color, True)),
    ]
    _pair_constant_answers(calls, extra_select)
    return calls


def _small_tree(board: Board, player: Player, max_work: int) -> bool:
    """Whether the full minimax tree of the position has at most ``max_work`` nodes."""
    return _searched(board, player, -1, "minimax", None) <= max_work


def _colour_entry(shape: str, board: Board, color: Player, maximizing: bool) -> dict[str, Any]:
    """A colour-only answer entry at full depth; a min node's also holds ``mover_value``."""
    answer = {**answer_entry(shape, board, color, -1, maximizing), "shape": shape}
    if not maximizing:
        answer["mover_value"] = mover_value(board, color)
    return answer


def colour_node_cases(rng: random.Random, count: int, algorithm: str = "minimax", size: int = 4,
                      plies: Sequence[int] = (2, 6), max_work: int = 20000,
                      images: Sequence[str] = ()) -> Iterator[dict[str, Any]]:
    """:func:`node_cases` for the colour-only lineage of the API: full depth, no limit, caching
    or ordering parameters; a node function takes ``(board, color)`` (alpha-beta adds
    ``alpha, beta``) and returns the node's value alone, select_move a ``(column, row)``. A min
    node's entry also holds ``mover_value``, its value where ``color`` is read as the player to
    move (:func:`mover_value`), which the checkers accept as well. An
    alpha-beta case first fits the nodes to the starter's proposed ``level, limit`` parameters
    (``assignments/othello/starter_calls.py``), where the student's nodes take them.
    ``images``: as in :func:`node_cases` (each case asks the visible block's position mirrored).
    """
    seen: set[Board] = set()
    for _index in range(count):
        while True:
            board, color, played = _position(rng, size, plies, seen,
                                             lambda b, p: _small_tree(b, p, max_work))
            try:
                calls = _colour_calls(board, color, algorithm, plies, max_work, rng, seen)
            except ValueError:
                continue
            break
        title = _title(board, played, color, -1)
        yield _image_case(title, board, images, lambda image, picks: _colour_calls(
            image, color, algorithm, plies, max_work, picks, seen),
            lambda image: _title(image, played, color, -1)) if images else _case(title, calls)


def colour_images(rng: random.Random, count: int, *, board: Sequence[Sequence[int]],
                  color: Player, min_color: Player, algorithm: str, images: Sequence[str],
                  mirror_of: str, plies: Sequence[int] = (2, 8),
                  max_work: int = 30000) -> Iterator[dict[str, Any]]:
    """The hand-written visible case ``mirror_of`` of the colour-only lineage (the max node and
    select_move for ``color``, the min node for ``min_color``, on ``board``) asked again on the
    first image of ``board`` under ``images`` that differs from it, answered by the reference on
    the image (answers a constant could give paired as in :func:`colour_node_cases`, from
    positions ``plies`` moves in). ``count`` must be 1.
    """
    if count != 1:
        raise ValueError("colour_images asks one visible case again: count must be 1")
    position: Board = tuple(tuple(row) for row in board)
    yield _image_case(mirror_of, position, images, lambda image, picks: _colour_calls(
        image, color, algorithm, plies, max_work, picks, {position}, min_color),
        lambda image: mirror_of)


def _probe_setup(size: int, color: Player, algorithm: str, value_fn: str) -> list[str]:
    """Start counting, and set the agent up as a game would (a first select_move with caching
    on the start position, so a cache created on the first call exists; not counted)."""
    start = Othello(size).initial_state().board
    first = call(f"select_move_{algorithm}", f"{start!r}, {color}, 1, {_switches(algorithm, 1)}",
                 value_fn)
    return ["import othello_probe", "work = othello_probe.install()",
            f"othello_probe.set_up(lambda: {first}, work)"]


def caching_cases(rng: random.Random, count: int, algorithm: str = "minimax", size: int = 6,
                  limit: int = 4, plies: Sequence[int] = (4, 12),
                  min_saving: float = 0.15, value_fn: str = "") -> Iterator[dict[str, Any]]:
    """One search twice without caching and twice with it (the cache kept) on a position, then
    select_move with the cache, and without it.

    The handout's cache "maps board states to their minimax value" and is checked at the start
    of each node: within one search a board fixes the depth, the player to move and the node
    kind (a move adds one disk, and there is no passing), so any cache key from the board alone
    to (kind, board, colour, limit) is exact. Graded by
    :func:`assignments.othello.checkers.caching`:
    the same answers; with caching, fewer positions explored again within the search or by the
    second search (the handout's use and re-use of stored values: a cache keyed by the
    alpha-beta window may find nothing within one search, and finds the root the second time);
    without it, the same successors generated twice (the cache is not read). select_move
    without caching comes last, so a select_move mistake of its own (a root searching one ply
    less) is told from one caching makes. Only positions where the reference's cache saves at least
    ``min_saving`` of the positions searched are used, and where it explores fewer positions
    again in either move order.
    """
    window = _WINDOW if algorithm == "alphabeta" else ""

    def saves(board: Board, color: Player) -> bool:
        plain = _searched(board, color, limit, algorithm, None)
        return _searched(board, color, limit, algorithm, {}) <= (1 - min_saving) * plain \
            and _cache_explores_less([board], color, limit, algorithm)

    seen: set[Board] = set()
    for _index in range(count):
        board, color, played = _position(rng, size, plies, seen, saves)
        node = answer_entry("node", board, color, limit, True)
        arguments = f"board, {color}, {window}{limit}, "
        uncached = call(f"{algorithm}_max_node", arguments + _switches(algorithm, 0), value_fn)
        calls: list[Call] = [
            ([*_probe_setup(size, color, algorithm, value_fn), f"board = {board!r}"], uncached,
             node),
            ([], uncached, dict(node)),
            ([], call(f"{algorithm}_max_node", arguments + _switches(algorithm, 1), value_fn),
             dict(node)),
            ([], call(f"{algorithm}_max_node", arguments + _switches(algorithm, 1), value_fn),
             dict(node)),
            *(([], call(f"select_move_{algorithm}",
                        f"board, {color}, {limit}, {_switches(algorithm, caching)}", value_fn),
               answer_entry("move", board, color, limit, True)) for caching in (1, 0)),
        ]
        cache: search.Cache = {}
        shown = [_shown_work([board], color, limit, algorithm, kept)
                 for kept in (None, None, cache, cache)]
        text = "".join(_transcript([step]) + render_doctest([], "work()", work)
                       for step, work in zip(calls, shown))
        text += _transcript(calls[4:])
        yield {"name": _title(board, played, color, limit) + ", caching off twice then on",
               "doctest": text, "options": {"answers": [a for _, _, a in calls]}}


def _game_turns(rng: random.Random, size: int, color: Player,
                first_turn: int) -> list[Board]:
    """The boards ``color`` faced in one game: it plays a first best move (full depth), the
    opponent a random legal one; turns before ply ``first_turn`` are left out."""
    board, player, ply = Othello(size).initial_state().board, 1, 0
    turns: list[Board] = []
    while True:
        moves = get_possible_moves(board, player)
        if not moves:
            return turns
        if player == color:
            if ply >= first_turn:
                turns.append(board)
            move = node_answers(board, color, -1, True)[1][0]
        else:
            move = rng.choice(moves)
        board, player, ply = play_move(board, player, *move), opponent(player), ply + 1


def _short_root_shows(turns: Sequence[Board], color: Player, limit: int) -> bool:
    """Whether a root searching one ply less than ``limit`` chooses, on some turn, only moves
    that are not best at ``limit``: its uncached answers then show the short root (charged in
    the depth-limit cases), whatever its tie order."""
    return any(not set(node_answers(board, color, limit - 1, True)[1])
               & set(node_answers(board, color, limit, True)[1]) for board in turns)


def _one_ply_deeper(turns: Sequence[Board], color: Player, limit: int, algorithm: str,
                    value_fn: str) -> str:
    """The turns again at ``limit + 1``, without caching and with it, each with its work: the
    depth a root one ply short reaches at ``limit``, where its cache is judged (its own
    searches at ``limit`` find no position a cache keyed by the depth could hold)."""
    deeper = [_expected(answer_entry("move", board, color, limit + 1, True)) for board in turns]
    text = ""
    for caching in (0, 1):
        arguments = f"board, {color}, {limit + 1}, {_switches(algorithm, caching)}"
        text += render_doctest([], f"[{call(f'select_move_{algorithm}', arguments, value_fn)} "
                                   "for board in turns]", deeper)
        text += render_doctest([], "work()", _shown_work(turns, color, limit + 1, algorithm,
                                                         {} if caching else None))
    return text


def caching_turn_cases(rng: random.Random, count: int, algorithm: str = "minimax",
                       size: int = 4, first_turn: int = 3,
                       colors: Sequence[int] = (1, 2), limit: int = -1,
                       value_fn: str = "") -> Iterator[dict[str, Any]]:
    """select_move on every turn of one game, in one process: twice without caching, then
    with it, so the cache lives across the turns as in a real game.

    At full depth the board alone fixes the value for an agent that keeps its colour, so any
    of the handout's cache keys stays exact across turns, and every move must be a best one.
    With a depth limit a board is searched to another depth on a later turn (with an even
    limit a turn's root is a leaf of the search two turns before), so a cache keyed without
    the depth may answer a later turn from a shallower search: the handout allows that key, so
    a turn then needs only a legal move (``legal`` in its entry), and what it forbids is a
    stored placeholder such as a leaf's ``None`` coming back as the move. The turns with
    caching must explore fewer positions again, the two without caching do the same work:
    only games where the reference's exact cache explores fewer again are used (at a limit an
    exact key finds little from earlier turns, which search their boards to other depths).
    The agent is set up as for one search first (a select_move with caching on the start
    position): a cache that fails where nothing is stored fails there, rather than answering
    every turn from what the searches without caching left in it. At a limit the games are ones
    where a root one ply short chooses no best move on some turn, and the turns follow again one
    ply deeper (:func:`_one_ply_deeper`), where such a root's cache is judged.
    """
    for index in range(count):
        color = colors[index % len(colors)]
        for _attempt in range(_ATTEMPTS):
            turns = _game_turns(rng, size, color, first_turn)
            if len(turns) >= 2 and _cache_explores_less(turns, color, limit, algorithm) \
                    and (limit < 1 or _short_root_shows(turns, color, limit)):
                break
        else:
            raise RuntimeError(f"no {size}x{size} game where an exact cache saves work at "
                               f"limit {limit}")
        answers = [answer_entry("move", board, color, limit, True) for board in turns]
        if limit >= 0:
            for board, answer in zip(turns, answers):
                answer["legal"] = [list(move) for move in get_possible_moves(board, color)]
                answer["one_ply_short"] = [list(move) for move in
                                           node_answers(board, color, limit - 1, True)[1]]
        firsts = [_expected(answer) for answer in answers]
        listing = "turns = [\n" + "".join(f"    {board!r},\n" for board in turns) + "]"
        select = [f"[{call(f'select_move_{algorithm}', arguments, value_fn)} for board in turns]"
                  for arguments in (f"board, {color}, {limit}, {_switches(algorithm, caching)}"
                                    for caching in (0, 1))]
        work_off = render_doctest([], "work()", _shown_work(turns, color, limit, algorithm, None))
        text = render_doctest([*_probe_setup(size, color, algorithm, value_fn), listing],
                              select[0], firsts)
        text += work_off + render_doctest([], select[0], firsts) + work_off
        text += render_doctest([], select[1], firsts)
        text += render_doctest([], "work()", _shown_work(turns, color, limit, algorithm, {}))
        if limit >= 0:
            text += _one_ply_deeper(turns, color, limit, algorithm, value_fn)
        side = "dark" if color == 1 else "light"
        depth = "full depth" if limit < 0 else f"limit {limit}"
        yield {"name": f"{size}x{size} game {position_id(turns[0])}: {len(turns)} turns as "
                       f"{side}, {depth}, caching off twice then on",
               "doctest": text, "options": {"turns": answers}}


def _child_values(board: Board, color: Player, depth: int) -> list[tuple[Move, int, int]]:
    """(move, utility for color after it, minimax value with ``depth - 1`` left) per move."""
    values = dict(search.limited_move_values(Othello(len(board)), OthelloState(board, color),
                                             color, depth))
    return [(move, disk_difference(play_move(board, color, *move), color), int(values[move]))
            for move in get_possible_moves(board, color)]


def _first_best(children: Sequence[tuple[Move, int, int]], key: Callable[[Move, int], int],
                best: int) -> Move:
    """The move a root searching ``children`` highest ``key`` first (a stable sort, ties in
    column order) chooses: the first that reaches the best value."""
    ordered = sorted(children, key=lambda child: key(child[0], child[1]), reverse=True)
    return next(move for move, _, value in ordered if value == best)


def ordering_mistakes(board: Board, color: Player,
                      children: Sequence[tuple[Move, int, int]]) -> dict[str, Move]:
    """The root's choice under each known ordering mistake (as ``assignments.othello.diagnoses``
    replays them): no ordering, lowest utility first, and moves scored after playing them with
    the opponent's colour."""
    best = max(value for _, _, value in children)
    other = opponent(color)
    return {
        "ignored": _first_best(children, lambda move, utility: 0, best),
        "reversed": _first_best(children, lambda move, utility: -utility, best),
        "opponent": _first_best(children, lambda move, utility: disk_difference(
            play_move(board, other, *move), color), best),
    }


def _handout_choices(children: Sequence[tuple[Move, int, int]]) -> list[Move]:
    """The moves a root searching ``children`` highest ``compute_utility`` first chooses: the
    best moves of the highest utility among the best ones (ties in utility in any order)."""
    best = max(value for _, _, value in children)
    top = max(utility for _, utility, value in children if value == best)
    return [move for move, utility, value in children if value == best and utility == top]


def ordered_entry(board: Board, color: Player, limit: int) -> Optional[dict[str, Any]]:
    """An answer entry for select_move_alphabeta with ordering at ``limit`` on a position where
    the order searched shows in the root's choice; None where it does not.

    A root with the full window chooses the first move, in the order searched, that reaches the
    best value (a later one with the same value returns only a bound). Searched highest
    ``compute_utility`` for ``color`` first, that is one of :func:`_handout_choices`:
    ``moves``. The position is used only when the first best move in column order is not among
    them (so ordering shows), nor (0, 0) (so a stub earns nothing), nor what the other known
    ordering mistakes choose (each fails).
    """
    children = _child_values(board, color, limit)
    best = max(value for _, _, value in children)
    accepted = _handout_choices(children)
    mistakes = ordering_mistakes(board, color, children)
    if set(mistakes.values()) & set(accepted) or (0, 0) in accepted:
        return None
    return {"shape": "ordered", "value": best, "moves": [list(m) for m in accepted],
            "best": [list(m) for m, _, value in children if value == best],
            "unordered": list(mistakes["ignored"]), "color": color}


def one_ply_less(board: Board, color: Player, limit: int,
                 ordered: dict[str, Any]) -> dict[str, list[list[int]]]:
    """What a root searching ``limit - 1`` in the handout's order chooses (the depth limit off
    by one at the root, charged in the depth-limit cases): ``shallower``, those moves, so a
    message can say the case cannot tell that from an ordering mistake; and ``one_ply_less``,
    those that show the ordering as well as ``ordered`` does (no known ordering mistake at
    either depth chooses them), which the case accepts, saying why."""
    children = _child_values(board, color, limit - 1) if limit > 1 else []
    if not children:
        return {"shallower": [], "one_ply_less": []}
    moves = set(_handout_choices(children))
    shallower = [list(move) for move in sorted(moves)]
    telling = ordered_entry(board, color, limit - 1) is not None and not moves & set(
        ordering_mistakes(board, color, _child_values(board, color, limit)).values())
    credited = moves - {tuple(m) for m in ordered["moves"]} if telling else set()
    return {"shallower": shallower, "one_ply_less": [list(move) for move in sorted(credited)]}


def unresolved_short_roots(ordered: dict[str, Any]) -> list[list[int]]:
    """The moves a root one ply short in the handout's order chooses that ``ordered`` (with
    :func:`one_ply_less`'s keys) neither accepts nor credits: an ordering mistake chooses them
    too, so the root's choice alone cannot tell which mistake was made."""
    return [move for move in ordered["shallower"]
            if move not in ordered["moves"] and move not in ordered["one_ply_less"]]


def one_ply_deeper(board: Board, color: Player, limit: int,
                   ordered: dict[str, Any]) -> Optional[dict[str, Any]]:
    """The entry of an extra, ungraded ``select_move_alphabeta`` with ordering at ``limit + 1``
    that tells a root one ply short in the handout's order from an ordering mistake where the
    root's choice at ``limit`` cannot (:func:`unresolved_short_roots`); None where it cannot
    tell either.

    At ``limit + 1`` such a root chooses one of ``ordered["moves"]`` (the handout's order one
    ply less), which no known ordering mistake chooses (:func:`ordered_entry`); a root that
    searches to the limit chooses a best move at ``limit + 1``, whatever its order. So it tells
    where none of ``moves`` is a best move at ``limit + 1`` (``best``). The call is the case's
    last example, shown without an answer (how the comparator finds it).
    """
    best = node_answers(board, color, limit + 1, True)[1]
    moves = [tuple(move) for move in ordered["moves"]]
    if set(moves) & set(best):
        return None
    return {"limit": limit + 1, "moves": [list(m) for m in moves],
            "best": [list(m) for m in best]}


def cutoff_entry(board: Board, color: Player, depth: int) -> Optional[dict[str, Any]]:
    """An answer entry for a max node searched with ordering in the window (-inf, beta), with a
    ``beta`` below the node's best value at which the handout's order stops before any best
    move; None if there is none.

    A max node stops at the first successor, in the order searched, whose value reaches beta.
    Searched highest utility first that is one of ``moves`` (the highest-utility successors
    reaching beta; ties in utility may be searched in any order), none of them a best move (at
    depth 2), nor the first in column order. So a node that returns one of ``best`` did not stop
    where the handout's order stops (it did not prune, or searched in another order), while
    what a node returns when it stops (its move, None, a bound) is not judged.
    """
    children = _child_values(board, color, depth)
    best = {move for move in search.best_moves([(m, v) for m, _, v in children])}
    for beta in sorted({v for _, _, v in children}, reverse=True):
        beta_text = beta - 0.5
        reaching = [(move, utility) for move, utility, value in children if value >= beta_text]
        top = max(utility for _, utility in reaching)
        accepted = [move for move, utility in reaching if utility == top]
        unordered = reaching[0][0]
        if unordered in accepted or (depth > 1 and best & set(accepted)):
            continue
        value = next(v for m, _, v in children if m == accepted[0])
        return {"shape": "cutoff", "beta": beta_text, "value": value,
                "moves": [list(m) for m in accepted], "unordered": list(unordered),
                "best": [list(m) for m, _, v in children if m in best], "color": color}
    return None


Entry = dict[str, Any]
"""An answer entry of :mod:`assignments.othello.checkers`."""


def _ordering_answers(board: Board, color: Player, limit: int
                      ) -> Optional[tuple[Entry, Entry, Optional[Entry]]]:
    """The cut-off entry, the ordered entry (with :func:`one_ply_less`'s keys) and, where its
    root's choice cannot tell a root one ply short from an ordering mistake, the
    :func:`one_ply_deeper` entry of an ordering case on this position; None where the position
    does not tell: no cut-off, no ordered choice, or a root one ply short in the handout's
    order that even one ply deeper could not be told from an ordering mistake (the depth limit
    is charged in its own group, and that case would charge it again)."""
    cutoff, ordered = cutoff_entry(board, color, 2), ordered_entry(board, color, limit)
    if cutoff is None or ordered is None:
        return None
    ordered.update(one_ply_less(board, color, limit, ordered))
    if not unresolved_short_roots(ordered):
        return cutoff, ordered, None
    deeper = one_ply_deeper(board, color, limit, ordered)
    return None if deeper is None else (cutoff, ordered, deeper)


def ordering_cases(rng: random.Random, count: int, size: int = 6, limit: int = 5,
                   plies: Sequence[int] = (4, 14), value_fn: str = "") -> Iterator[dict[str, Any]]:
    """Move ordering seen in what the handout fixes: the order successors are searched in.

    Two calls on one position, graded together. ``select_move_alphabeta(board, color, limit, 0,
    1)`` where the order searched decides which best move the root returns (see
    :func:`ordered_entry`). And a max node at depth 2 called with ordering and the window
    ``(-inf, beta)`` (see :func:`cutoff_entry`): it must stop before reaching any best move, so
    a search that does not prune, or searches in another order and so reaches a best move,
    fails; what a node returns when it stops is not fixed by the handout and is not judged.
    Where a root one ply short in the handout's order chooses what an ordering mistake chooses
    too, the same select_move follows one ply deeper, ungraded (:func:`one_ply_deeper`); only
    positions where that tells are used. Nothing is counted, so nothing in the student's
    process can be patched to fake it.
    """
    seen: set[Board] = set()
    for _index in range(count):
        board, color, played = _position(
            rng, size, plies, seen,
            lambda board, color: _ordering_answers(board, color, limit) is not None)
        yield ordering_case(board, color, played, limit, value_fn)


DEEPER_NOTE = "not graded: one ply deeper, to tell a root one ply short from an ordering mistake"
"""The comment on the ungraded select_move one ply deeper (:func:`one_ply_deeper`), so a
reader of the transcript knows why it shows no answer."""


def ordering_case(board: Board, color: Player, played: int, limit: int,
                  value_fn: str = "") -> dict[str, Any]:
    """The case :func:`ordering_cases` makes of one position (which must tell, see there)."""
    answers = _ordering_answers(board, color, limit)
    assert answers is not None
    cutoff, ordered, deeper = answers
    calls: list[Call] = [
        ([f"board = {board!r}"], call("alphabeta_max_node", f"board, {color}, float('-inf'), "
                                      f"{cutoff['beta']}, 2, 0, 1", value_fn), cutoff),
        ([], call("select_move_alphabeta", f"board, {color}, {limit}, 0, 1", value_fn),
         ordered)]
    for _, _, answer in calls:
        answer["unit"] = "ordering"
    case = _case(_title(board, played, color, limit) + ", ordering on", calls)
    if deeper is not None:
        probe = call("select_move_alphabeta", f"board, {color}, {limit + 1}, 0, 1", value_fn)
        case["doctest"] += f">>> {probe}  # {DEEPER_NOTE}\n"
        case["options"]["deeper"] = deeper
    return case


__all__ = ["CONSTANT_ANSWERS", "answer_entry", "caching_cases", "caching_turn_cases", "call",
           "colour_images", "colour_node_cases", "constant_earns", "cutoff_entry", "node_cases",
           "one_ply_deeper", "one_ply_less_tells", "ordered_entry", "ordering_case",
           "ordering_cases", "ordering_mistakes", "position_id", "unresolved_short_roots",
           "utility_cases"]
