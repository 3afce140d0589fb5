"""Dominoes positions drawn for feedback, with the handout's coordinates.

The handout numbers squares ``(row, column)`` from 0 at the top left; a vertical domino at
``(r, c)`` covers ``(r, c)`` and ``(r + 1, c)``, a horizontal one ``(r, c)`` and ``(r, c + 1)``.
:func:`draw_text` is the painter a game kit can call; :func:`case_picture` is the ``picture:`` of
the ``get_best_move`` cases: the board the transcript set up before the first failed call, the
student's domino marked, and the expected one only when the case may show it.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from reference.core.pictures import answer_of, draw_grid, first_failed, square_of

FILLED, EMPTY, YOURS, BEST, BOTH = "X", ".", "*", "+", "#"


def draw_text(position: Sequence[Sequence[bool]],
              marks: Mapping[tuple[int, int], str] | None = None,
              legend: Sequence[str] = ()) -> str:
    """The board as text; ``marks`` maps a ``(row, column)`` square to the character drawn there.

    >>> print(draw_text([[True, False], [False, False]], {(1, 0): "*", (1, 1): "*"}))
            column
            0 1
    row 0   X .
        1   * *
    X filled, . empty; a move is (row, column), its domino covering (row + 1, column) if
    vertical, (row, column + 1) if horizontal
    """
    cells = [[FILLED if cell else EMPTY for cell in row] for row in position]
    return draw_grid(cells, marks=marks, legend=[
        "X filled, . empty; a move is (row, column), its domino covering (row + 1, column) if",
        "vertical, (row, column + 1) if horizontal", *legend])


class _Board:
    """What a transcript's setup lines do to a game, enough to draw it: the board, kept as
    given, and ``perform_move`` filling a domino's two squares (as the handout says)."""

    def __init__(self, board: list[list[bool]]) -> None:
        self.board = [list(row) for row in board]

    def perform_move(self, row: int, col: int, vertical: bool) -> None:
        self.board[row][col] = True
        self.board[row + 1 if vertical else row][col if vertical else col + 1] = True


def _setup(case: Any, before: int) -> dict[str, Any]:
    """The names the transcript's setup lines (those expecting no output) bind before example
    ``before``, run over :class:`_Board`: trusted spec code, as a diagnosis replays it."""
    namespace: dict[str, Any] = {
        "DominoesGame": _Board,
        "create_dominoes_game": lambda rows, cols: _Board([[False] * cols
                                                           for _ in range(rows)])}
    for example in case.examples[:before]:
        if not example.want.strip():
            exec(compile(example.source, "<picture>", "exec"), namespace)  # spec
    return namespace


def _domino(move: tuple[int, int], vertical: bool) -> list[tuple[int, int]]:
    row, col = move
    return [(row, col), (row + 1, col) if vertical else (row, col + 1)]


def case_picture(case: Any, observations: Sequence[Any], reveal: bool) -> str:
    """The board before the first call whose answer is not the expected one, the student's
    domino (``*``) and, when ``reveal``, the expected one (``+``; ``#`` where they overlap)."""
    from harness.compare.builtin import parse_expected
    from harness.compare.equality import strict_equal

    def expected(index: int) -> Any:
        return parse_expected(case.examples[index].want)

    def failed(index: int, observation: Any) -> bool:
        answer = answer_of(observation)
        return answer is None or not strict_equal(expected(index), answer)

    index = first_failed(case, observations, failed)
    if index is None:
        return ""
    source = case.examples[index].source.strip()
    target, _, call = source.partition(".get_best_move(")
    game = _setup(case, index).get(target)
    if not isinstance(game, _Board) or not call.startswith(("True", "False")):
        return ""
    vertical = call.startswith("True")
    rows, cols = len(game.board), len(game.board[0]) if game.board else 0
    answer = answer_of(observations[index]) if index < len(observations) else None
    yours = square_of(answer[0]) if type(answer) in (tuple, list) and answer else None
    want = expected(index)
    best = square_of(want[0]) if reveal and isinstance(want, tuple) and want else None
    marks: dict[tuple[int, int], str] = {}
    legend = [f"{'vertical' if vertical else 'horizontal'} player to move"]
    if best is not None:
        marks.update((square, BEST) for square in _domino(best, vertical))
        legend.append(f"{BEST} the expected move {best}")
    if yours is not None:
        squares = [s for s in _domino(yours, vertical) if 0 <= s[0] < rows and 0 <= s[1] < cols]
        marks.update((s, BOTH if marks.get(s) == BEST else YOURS) for s in squares)
        legend.append(f"{YOURS} your move {yours}" + (f" ({BOTH} where the two overlap)"
                                                      if best is not None else ""))
    return f"The board of >>> {source.splitlines()[0]}\n" + draw_text(game.board, marks, legend)
