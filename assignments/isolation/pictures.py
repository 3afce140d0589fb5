"""Isolation positions drawn for feedback, with the handout's coordinates.

The handout numbers squares ``(row, col)`` from ``(1, 1)`` at the top left, so rows and columns
are labelled from 1 and a move ``(r, c)`` is marked on ``board[r - 1][c - 1]``. The board's own
characters are kept (``-`` empty, ``*`` filled, ``x`` and ``o`` the players), so marks use others.
:func:`draw_text` is the painter a game kit can call; :func:`case_picture` is the ``picture:``
of the ``choose_move`` cases.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence, TypeGuard

from reference.core import pictures as core

YOURS, RIGHT, BOTH = "@", "+", "#"


def draw_text(position: Sequence[Sequence[str]],
              marks: Mapping[tuple[int, int], str] | None = None,
              legend: Sequence[str] = ()) -> str:
    """The board as text; ``marks`` maps a 1-indexed ``(row, col)`` to the character drawn there.

    >>> print(draw_text([["x", "-"], ["*", "o"]], {(1, 2): "@"}))
            col
            1 2
    row 1   x @
        2   * o
    - empty, * filled, x and o the players; a move is (row, col) from (1, 1) top left
    """
    cells = [[str(cell)[:1] or "?" for cell in row] for row in position]
    return core.draw_grid(cells, first=1, columns="col",
                     marks={(row - 1, col - 1): mark for (row, col), mark in (marks or {}).items()},
                     legend=["- empty, * filled, x and o the players; a move is (row, col) from "
                             "(1, 1) top left", *legend])


def _is_board(value: Any) -> TypeGuard[list[list[str]]]:
    return (isinstance(value, list) and 0 < len(value) <= 16
            and all(isinstance(row, list) and len(row) == len(value[0]) for row in value))


def case_picture(case: Any, observations: Sequence[Any], reveal: bool) -> str:
    """The board of the first failed call, the student's move (``@``) and, when ``reveal``, the
    moves the case accepts (``+``; ``#`` where they meet). "" when there is nothing to draw."""
    from assignments.isolation.checkers import check_move
    from assignments.isolation.replies import ReplyError, parse_move
    calls = case.options.get("calls")
    judged = [i for i, example in enumerate(case.examples) if example.want.strip()]

    def options_at(index: int) -> Mapping[str, Any]:
        if calls is not None and len(calls) == len(judged):
            return {"legal": calls[judged.index(index)]}
        return case.options

    def failed(index: int, observation: Any) -> bool:
        return check_move(case.examples[index].want, observation, options_at(index),
                          reveal).fraction < 1.0

    index = core.first_failed(case, observations, failed)
    if index is None:
        return ""
    _, arguments = core.call_arguments(case.examples[index].source)
    board = core.bindings_before(case, index).get(arguments[0]) if arguments and isinstance(
        arguments[0], str) else None
    if not _is_board(board):
        return ""
    try:
        shown = observations[index] if index < len(observations) else None
        yours = parse_move(core.answer_of(shown))
    except ReplyError:
        yours = None
    options = options_at(index)
    accepted = options.get("wins") or options.get("safe") or options.get("legal") or []
    right = [(int(r), int(c)) for r, c in accepted] if reveal else []
    marks = {move: RIGHT for move in right}
    legend = []
    if yours is not None and 1 <= yours[0] <= len(board) and 1 <= yours[1] <= len(board[0]):
        marks[yours] = BOTH if yours in right else YOURS
        legend.append(f"{YOURS} your move {yours}")
    if right:
        what = "wins" if options.get("wins") else "safe" if options.get("safe") else "legal"
        legend.append(f"{RIGHT} a {what} move" + (f", {BOTH} your move, a {what} move"
                                                  if yours in right else ""))
    player = arguments[1] if len(arguments) > 1 and arguments[1] in ("x", "o") else "?"
    call = case.examples[index].source.strip().splitlines()[0]
    return f"The board of >>> {call} ({player} to move)\n" + draw_text(board, marks, legend)


def game_picture(title: str, record: Any, side: str, replay: Any = None) -> str:
    """A game the student's player lost: its last moves, the final board with a refused move
    (``!``) marked, and its replay page if one was kept."""
    from assignments.isolation.rules import Isolation, format_board
    game = Isolation()
    state = game.initial_state()
    moves = []
    for ply in record.plies:
        moves.append(f"{ply.player} {tuple(ply.move)}")
        state = game.result(state, tuple(ply.move))
    board = format_board(state)
    marks, legend = {}, []
    mine = [tuple(ply.move) for ply in record.plies if ply.player == side]
    if mine:
        legend.append(f"you played {side}; your last move: {mine[-1]}")
    bad = core.square_of(record.bad_move)
    if bad is not None and 1 <= bad[0] <= len(board) and 1 <= bad[1] <= len(board):
        marks[bad] = "!"
        legend.append(f"! the move you answered, refused {bad}")
    return core.game_text(title, moves, draw_text(board, marks, legend), replay)
