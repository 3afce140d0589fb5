"""Othello positions drawn for feedback: the board with the handout's coordinates.

The handout writes a board as ``board[row][column]`` (0 empty, 1 dark, 2 light) and a move as a
``(column, row)`` tuple, so the columns are numbered along the top and a move ``(c, r)`` is marked
in column ``c`` of row ``r``. :func:`draw_text` is the painter a game kit can call;
:func:`case_picture` is the ``picture:`` of the Othello case files: the position of the first
example that failed, the student's move marked, and the best moves only when the case may show
its expected answer.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence, TypeGuard

from reference.core.pictures import (
    answer_of,
    bindings_before,
    call_arguments,
    draw_grid,
    first_failed,
    game_text,
    square_of,
)

PIECES = {0: ".", 1: "X", 2: "O"}
YOURS, BEST, BOTH = "*", "+", "#"


def draw_text(position: Sequence[Sequence[int]],
              marks: Mapping[tuple[int, int], str] | None = None,
              legend: Sequence[str] = ()) -> str:
    """The board as text; ``marks`` maps a ``(column, row)`` move to the character drawn there.

    >>> print(draw_text(((0, 0), (2, 1)), {(0, 0): "*"}))
           column
            0 1
    row 0   * .
        1   O X
    X dark (1), O light (2); a move is (column, row)
    """
    cells = [[PIECES.get(cell, "?") for cell in row] for row in position]
    return draw_grid(cells, marks={(row, col): mark for (col, row), mark in (marks or {}).items()},
                     legend=["X dark (1), O light (2); a move is (column, row)", *legend])


def _move_in(value: Any) -> tuple[int, int] | None:
    """The move in what a node or select_move returned: a ``(column, row)``, or a pair
    holding one first."""
    move = square_of(value)
    if move is not None:
        return move
    if type(value) in (tuple, list) and len(value) == 2:
        return square_of(value[0])
    return None


def _is_board(value: Any) -> TypeGuard[Sequence[Sequence[int]]]:
    return (type(value) in (tuple, list) and 0 < len(value) <= 16
            and all(type(row) in (tuple, list) and len(row) == len(value) for row in value))


def case_picture(case: Any, observations: Sequence[Any], reveal: bool) -> str:
    """The board of the first failed example, with the move the student returned (``*``) and,
    when ``reveal``, the case's best moves (``+``; ``#`` where they meet). "" when the example
    has no board the transcript sets as a literal."""
    answers = case.options.get("answers")
    judged = [i for i, example in enumerate(case.examples) if example.want.strip()]

    def failed(index: int, observation: Any) -> bool:
        if not isinstance(answers, list) or len(answers) != len(judged):
            return True
        from assignments.othello.checkers import judge_answer
        return judge_answer(observation, answers[judged.index(index)], reveal)[0] < 1.0

    index = first_failed(case, observations, failed)
    if index is None:
        return ""
    _, arguments = call_arguments(case.examples[index].source)
    bound = bindings_before(case, index)
    board = next((bound.get(a) if isinstance(a, str) else a for a in arguments[:1]), None)
    if not _is_board(board):
        return ""
    yours = _move_in(answer_of(observations[index])) if index < len(observations) else None
    best: list[tuple[int, int]] = []
    if reveal and isinstance(answers, list) and len(answers) == len(judged):
        best = [(int(c), int(r)) for c, r in answers[judged.index(index)].get("moves", [])]
    marks = {move: BEST for move in best}
    legend = []
    size = len(board)
    if yours is not None and all(0 <= part < size for part in yours):
        marks[yours] = BOTH if yours in best else YOURS
        legend.append(f"{YOURS} your move {yours}")
    if best:
        legend.append(f"{BEST} a best move" + (f", {BOTH} your move, a best move"
                                               if yours in best else ""))
    color = arguments[1] if len(arguments) > 1 and arguments[1] in (1, 2) else None
    call = case.examples[index].source.strip().splitlines()[0]
    title = f"The board of >>> {call}" + (f" (color {color}: "
                                          f"{'dark' if color == 1 else 'light'})" if color else "")
    return title + "\n" + draw_text(board, marks, legend)


def game_picture(title: str, record: Any, color: int, size: int, replay: Any = None) -> str:
    """A game the student's agent did not win: its last moves, the final board with a refused
    move (``!``) marked, and its replay page if one was kept."""
    from assignments.othello.referee import COLOR_NAMES, final_board
    moves = [f"{COLOR_NAMES[ply.player]} {tuple(ply.move)}" for ply in record.plies]
    mine = [tuple(ply.move) for ply in record.plies if ply.player == color]
    marks: dict[tuple[int, int], str] = {}
    legend = []
    if mine:  # named, not drawn: its square shows who holds it now
        legend.append(f"your last move: {mine[-1]}")
    bad = square_of(record.bad_move)
    if bad is not None and all(0 <= part < size for part in bad):
        marks[bad] = "!"
        legend.append(f"! the move you answered, refused {bad}")
    return game_text(title, moves, draw_text(final_board(record, size), marks, legend), replay)
