"""The fast Othello rules give exactly what the plain rules gave, for every input.

``assignments.othello.rules`` (trusted) and the students' ``othello_shared.py`` were rewritten for
speed (ray tables, capture tests that build no lines, a memo of legal moves, copying only the rows
that change). The plain implementations they replaced are kept, verbatim, as the oracle
(``plain_othello_rules.py``, which ``bench/bench_othello_rules.py`` times against): on many seeded
random positions of sizes 4, 6 and 8, for both players, every function must return the same values
with the same types (list or tuple, all the way down) in the same order, or raise the same kind of
error. ``othello_shared`` is also fed the odd inputs students pass: lists of lists, tuples of
lists, values other than 0/1/2, other players, boards that are not square, squares off the board.
"""
from __future__ import annotations

import random
from typing import Any, Callable

import pytest
from othello_support import TEMPLATE_DIR, load_module
from plain_othello_rules import (
    old_shared_find_lines,
    old_shared_get_possible_moves,
    old_shared_get_score,
    old_shared_play_move,
    old_trusted_find_lines,
    old_trusted_get_possible_moves,
    old_trusted_is_terminal,
    old_trusted_play_move,
)

from assignments.othello import rules
from harness.spec import find_assignment

SIZES = (4, 6, 8)


# --- Comparing ----------------------------------------------------------------------------------

def shape(value: Any) -> Any:
    """The value with the exact type of every container and element, for ``==`` to compare."""
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [shape(item) for item in value])
    return (type(value).__name__, value)


def outcome(function: Callable[..., Any], *args: Any) -> Any:
    """What a call gives: the shape of its value, or the type of the error it raises."""
    try:
        return ("value", shape(function(*args)))
    except Exception as error:  # the kind of error is what is compared
        return ("raises", type(error).__name__)


def random_positions(size: int, count: int, seed: int) -> list[tuple[tuple[int, ...], ...]]:
    """Boards met in seeded random playouts (the old rules drive them), the last one included."""
    rng = random.Random(seed)
    boards: list[tuple[tuple[int, ...], ...]] = []
    while len(boards) < count:
        board, player = rules.Othello(size).initial_state().board, 1
        while len(boards) < count:
            boards.append(board)
            moves = old_trusted_get_possible_moves(board, player) or \
                old_trusted_get_possible_moves(board, 3 - player)
            if not moves:
                break
            if not old_trusted_get_possible_moves(board, player):
                player = 3 - player
            board = old_trusted_play_move(board, player, *rng.choice(moves))
            player = 3 - player
    return boards


@pytest.fixture(scope="module")
def shared():
    """The template's othello_shared, freshly loaded (every variant's copy is this file)."""
    return load_module(TEMPLATE_DIR / "othello_shared.py", "othello_shared_fast_rules_test")


def test_every_variant_ships_the_same_othello_shared():
    texts = {name: next(path for path in find_assignment(name).support_files
                        if path.name == "othello_shared.py").read_bytes()
             for name in ("othello", "othello_2025", "othello_colour", "othello_valuefn")}
    assert {"othello", "othello_2025", "othello_colour", "othello_valuefn"} <= set(texts)
    assert len(set(texts.values())) == 1


@pytest.mark.parametrize("size", SIZES)
def test_trusted_rules_match_the_plain_rules(size):
    for index, board in enumerate(random_positions(size, 120, seed=size)):
        for player in (1, 2):
            state = rules.OthelloState(board, player)
            assert outcome(rules.get_possible_moves, board, player) == \
                outcome(old_trusted_get_possible_moves, board, player)
            assert rules.Othello(size).is_terminal(state) == old_trusted_is_terminal(board, player)
            assert rules.get_score(board) == old_shared_get_score(board)
            squares = [(c, r) for c in range(-1, size + 1) for r in range(-1, size + 1)]
            if index % 4:
                squares = random.Random(index).sample(squares, 12)
            for col, row in squares:
                assert outcome(rules.find_lines, board, col, row, player) == \
                    outcome(old_trusted_find_lines, board, col, row, player), (board, col, row)
                assert outcome(rules.play_move, board, player, col, row) == \
                    outcome(old_trusted_play_move, board, player, col, row), (board, col, row)


def test_trusted_legal_moves_are_a_new_list_every_call():
    board = rules.Othello(6).initial_state().board
    first = rules.get_possible_moves(board, 1)
    first.append((9, 9))
    first.sort(reverse=True)
    assert rules.get_possible_moves(board, 1) == old_trusted_get_possible_moves(board, 1)
    assert rules.get_possible_moves(board, 1) is not rules.get_possible_moves(board, 1)


def test_trusted_memos_stay_bounded_and_right_after_emptying(monkeypatch):
    monkeypatch.setattr(rules, "_MEMO_SQUARES", 100 * 8 * 8)  # 100 positions of 8 x 8
    rules._MOVES_MEMO.clear()
    rules._PLAYS_MEMO.clear()
    boards = random_positions(8, 350, seed=3)
    for _ in range(2):
        for board in boards:
            assert rules.get_possible_moves(board, 2) == old_trusted_get_possible_moves(board, 2)
            assert rules.play_move(board, 1, 3, 3) == old_trusted_play_move(board, 1, 3, 3)
            assert len(rules._MOVES_MEMO) <= 100 and len(rules._PLAYS_MEMO) <= 100


def test_shared_memos_of_small_boards_answer_exactly_what_the_plain_helpers_do(shared):
    """On boards of up to 4 x 4 the students' helpers remember answers (a full-depth search
    meets each position many times): asked again, about the same board object or an equal one,
    a board of another type or a board of lists changed in between, they still answer exactly
    as the plain helpers do."""
    def walk(board, player, depth):
        moves = shared.get_possible_moves(board, player)
        assert outcome(lambda: moves) == outcome(old_shared_get_possible_moves, board, player)
        assert outcome(shared.get_score, board) == outcome(old_shared_get_score, board)
        moves.append((9, 9))  # the caller's list is its own: the next answer must not show it
        for i, j in moves[:-1][:3]:
            after = shared.play_move(board, player, i, j)
            assert outcome(lambda: after) == outcome(old_shared_play_move, board, player, i, j)
            if depth:
                walk(after, 3 - player, depth - 1)

    start = rules.Othello(4).initial_state().board
    for _ in range(2):  # the second walk is answered from the memos
        walk(start, 1, 6)
        walk(tuple(tuple(row) for row in start), 1, 3)  # equal, but another object
    assert shared._MOVES_SEEN and shared._PLAYS_SEEN and shared._SCORES_SEEN
    odd = tuple(tuple(True if square == 1 else float(square) for square in row) for row in start)
    rows = tuple(list(row) for row in start)
    for board in (odd, rows):
        for player in (1, 2, 1.0, True):
            check_shared(shared, board, player, full=True, seed=0)
    rows[0][0] = 2  # a board of lists changed between two calls: answered afresh
    check_shared(shared, rows, 1, full=True, seed=0)


def test_shared_memos_stay_bounded_and_right_once_full(shared, monkeypatch):
    monkeypatch.setattr(shared, "_REMEMBERED_POSITIONS", 40)
    for memo in ("_MOVES_SEEN", "_PLAYS_SEEN", "_SCORES_SEEN", "_BOARDS"):
        monkeypatch.setattr(shared, memo, {})
    boards = random_positions(4, 150, seed=5)
    for _ in range(2):
        for board in boards:
            check_shared(shared, board, 1, full=False, seed=1)
    assert max(len(shared._MOVES_SEEN), len(shared._PLAYS_SEEN), len(shared._SCORES_SEEN)) == 40


@pytest.mark.parametrize("size", SIZES)
def test_shared_helpers_match_the_plain_helpers(shared, size):
    for index, board in enumerate(random_positions(size, 100, seed=10 + size)):
        for player in (1, 2):
            check_shared(shared, board, player, full=index % 5 == 0, seed=index)


def agrees(new: Any, old: Any, *, ragged: bool = False) -> bool:
    """Whether the new outcome is the old one. On ragged rows the old helpers raise IndexError
    on squares the new ones never look at (a short ray, a scan stopped at the first capture);
    there, a call the old code refused may give a value: only what the old code accepted
    must stay the same."""
    return new == old or (ragged and old == ("raises", "IndexError"))


def check_shared(shared, board, player, *, full, seed, ragged=False):
    """Every helper of ``shared`` gives what the plain helper gives on this board."""
    n = len(board)
    assert agrees(outcome(shared.get_possible_moves, board, player),
                  outcome(old_shared_get_possible_moves, board, player), ragged=ragged)
    assert outcome(shared.get_score, board) == outcome(old_shared_get_score, board)
    squares = [(i, j) for i in range(-2, n + 2) for j in range(-2, n + 2)]
    if not full:
        squares = random.Random(seed).sample(squares, min(len(squares), 10))
    for i, j in squares:
        assert agrees(outcome(shared.find_lines, board, i, j, player),
                      outcome(old_shared_find_lines, board, i, j, player), ragged=ragged), \
            (board, i, j, player)
        assert agrees(outcome(shared.play_move, board, player, i, j),
                      outcome(old_shared_play_move, board, player, i, j), ragged=ragged), \
            (board, i, j, player)


ODD_VALUES = (3, -1, None, True, 1.0, 2.0, "x", 0.0, False)


def odd_board(board, rng):
    """``board`` as a student might hand it over: other containers and other values."""
    rows = [list(row) for row in board]
    for row in rows:
        for col in range(len(row)):
            if row[col] and rng.random() < 0.15:
                row[col] = rng.choice(ODD_VALUES)
    container = rng.choice(("lists", "tuples of lists", "list of tuples", "tuples"))
    if container == "lists":
        return rows
    if container == "tuples of lists":
        return tuple(rows)
    if container == "list of tuples":
        return [tuple(row) for row in rows]
    return tuple(tuple(row) for row in rows)


@pytest.mark.parametrize("size", SIZES)
def test_shared_helpers_match_on_odd_boards_and_players(shared, size):
    rng = random.Random(size)
    for index, board in enumerate(random_positions(size, 60, seed=20 + size)):
        odd = odd_board(board, rng)
        for player in (1, 2, 0, 3, rng.choice((True, 2.0, None))):
            check_shared(shared, odd, player, full=index % 10 == 0, seed=index)


@pytest.mark.parametrize("rows, width", [(3, 5), (4, 6), (5, 3), (1, 1), (2, 2), (0, 0),
                                         (3, 3), (5, 5), (34, 34)])
def test_shared_helpers_match_on_boards_of_other_shapes(shared, rows, width):
    rng = random.Random(rows * 100 + width)
    for trial in range(6 if rows < 30 else 1):
        board = tuple(tuple(rng.choice((0, 0, 1, 2, 2, 3)) for _ in range(width))
                      for _ in range(rows))
        for player in (1, 2):
            check_shared(shared, board, player, full=rows < 30, seed=trial)


def test_shared_helpers_match_on_ragged_rows_and_odd_squares(shared):
    board = rules.Othello(6).initial_state().board
    ragged = [list(row) for row in board]
    ragged[5] = ragged[5][:2]
    ragged[0] = ragged[0] + [1, 2]
    for player in (1, 2):
        check_shared(shared, ragged, player, full=True, seed=0, ragged=True)
        for i, j in ((True, 2), (2, False), (2.0, 2), (1, 2.0), (10**6, 3), (-10**6, -1)):
            assert outcome(shared.find_lines, board, i, j, player) == \
                outcome(old_shared_find_lines, board, i, j, player)
            assert outcome(shared.play_move, board, player, i, j) == \
                outcome(old_shared_play_move, board, player, i, j)


def test_shared_results_are_fresh_objects(shared):
    board = rules.Othello(4).initial_state().board
    moves = shared.get_possible_moves(board, 1)
    moves.clear()
    lines = shared.find_lines(board, 0, 1, 1)
    lines[0].append((3, 3))
    assert shared.get_possible_moves(board, 1) == [(0, 1), (1, 0), (2, 3), (3, 2)]
    assert shared.find_lines(board, 0, 1, 1) == [[(1, 1)]]
    mutable = [list(row) for row in board]
    after = shared.play_move(mutable, 1, 0, 1)
    assert mutable == [list(row) for row in board]
    assert after == ((0, 0, 0, 0), (1, 1, 1, 0), (0, 1, 2, 0), (0, 0, 0, 0))


def test_trusted_memos_never_answer_for_a_look_alike_input():
    board = rules.Othello(4).initial_state().board
    assert rules.play_move(board, 1, 0, 1) == old_trusted_play_move(board, 1, 0, 1)
    assert outcome(rules.play_move, board, True, 0, 1) == \
        outcome(old_trusted_play_move, board, True, 0, 1)
    as_lists = [list(row) for row in board]
    assert rules.play_move(as_lists, 1, 0, 1) == old_trusted_play_move(as_lists, 1, 0, 1)
    assert rules.get_possible_moves(as_lists, 2) == old_trusted_get_possible_moves(as_lists, 2)
