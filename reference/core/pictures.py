"""Pieces every game's painter shares: a square grid drawn as text with coordinates and marks,
and the position a case's transcript sets up.

A painter (``reference/<game>/pictures.py``) turns its game's position into cell characters and
says how the handout numbers rows and columns; this module lays them out. Marks replace a cell's
character (a move is an empty square, so nothing is hidden) and are explained under the board.
Reading a transcript uses ``ast.literal_eval`` only: the trusted side never runs spec code to
draw, and a position it cannot read is simply not drawn.
"""
from __future__ import annotations

import ast
from typing import Any, Mapping, Sequence

Square = tuple[int, int]
"""(row index, column index) into the drawn grid, from 0."""


def draw_grid(cells: Sequence[Sequence[str]], *, first: int = 0, columns: str = "column",
              rows: str = "row", marks: Mapping[Square, str] | None = None,
              legend: Sequence[str] = ()) -> str:
    """The grid as text: column numbers on top, row numbers on the left (both counted from
    ``first``, as the handout counts them), each mark drawn instead of its cell, then the
    ``legend`` lines.

    >>> print(draw_grid([[".", "X"], ["O", "."]], marks={(1, 1): "*"}, legend=["* yours"]))
            column
            0 1
    row 0   . X
        1   O *
    * yours
    """
    marks = marks or {}
    count = max((len(row) for row in cells), default=0)
    width = max(len(str(first + count - 1)), 1)
    label = max(len(str(first + len(cells) - 1)), 1)
    margin = len(rows) + 1 + label + 3
    lines = [" " * margin + columns,
             " " * margin + " ".join(str(first + c).rjust(width) for c in range(count))]
    for r, row in enumerate(cells):
        shown = [marks.get((r, c), cell).rjust(width) for c, cell in enumerate(row)]
        name = rows if r == 0 else " " * len(rows)
        lines.append(f"{name} {str(first + r).rjust(label)}   " + " ".join(shown))
    lines.extend(legend)
    return "\n".join(line.rstrip() for line in lines)


def assigned_literals(source: str) -> dict[str, Any]:
    """The names a transcript line binds to Python literals (``board = ((0, 1), ...)``);
    nothing for any other line."""
    try:
        tree = ast.parse(source.strip())
    except SyntaxError:
        return {}
    found: dict[str, Any] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            try:
                found[node.targets[0].id] = ast.literal_eval(node.value)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                continue
    return found


def call_arguments(source: str) -> tuple[str, list[Any]]:
    """The function or method a transcript line calls and its literal positional arguments
    (a name such as ``board`` is given as the string ``"board"``); ("", []) for another line.

    >>> call_arguments("minimax_max_node(board, 1, -1, 0)")
    ('minimax_max_node', ['board', 1, -1, 0])
    """
    try:
        node = ast.parse(source.strip(), mode="eval").body
    except SyntaxError:
        return "", []
    if not isinstance(node, ast.Call):
        return "", []
    function = node.func
    name = function.attr if isinstance(function, ast.Attribute) else \
        function.id if isinstance(function, ast.Name) else ""
    arguments: list[Any] = []
    for argument in node.args:
        if isinstance(argument, ast.Name):
            arguments.append(argument.id)
            continue
        try:
            arguments.append(ast.literal_eval(argument))
        except (ValueError, TypeError, SyntaxError):
            arguments.append(None)
    return name, arguments


def first_failed(case: Any, observations: Sequence[Any], failed: Any) -> int | None:
    """The index of the first judged example (one with expected output) for which
    ``failed(index, observation)`` holds, or that was not reached; None when none."""
    for index, example in enumerate(case.examples):
        if not example.want.strip():
            continue
        if index >= len(observations) or failed(index, observations[index]):
            return index
    return None


def bindings_before(case: Any, index: int) -> dict[str, Any]:
    """The literals the transcript binds before example ``index`` (later bindings win)."""
    bound: dict[str, Any] = {}
    for example in case.examples[:index]:
        bound.update(assigned_literals(example.source))
    return bound


def answer_of(observation: Any) -> Any:
    """What an example returned, or None when it raised, returned nothing or was not reached."""
    if observation is None or observation.error is not None or not observation.has_value:
        return None
    return observation.value


def square_of(value: Any) -> tuple[int, int] | None:
    """``value`` as a pair of ints (a tuple or a list of two ints), else None."""
    if type(value) in (tuple, list) and len(value) == 2 \
            and all(type(item) is int for item in value):
        return int(value[0]), int(value[1])
    return None


LAST_MOVES = 8
"""How many of a game's last moves a picture of a lost game lists."""


def game_text(title: str, moves: Sequence[str], board: str, replay: Any = None) -> str:
    """A lost game for feedback: ``title``, its last moves (numbered from the first, four to a
    line), the final board drawn by the game's painter, and where its replay page was kept
    (``grade --games``).

    >>> print(game_text("game 1", ["x (1, 1)", "o (8, 8)", "x (2, 2)"], "<board>"))
    game 1, last moves:
      1. x (1, 1)   2. o (8, 8)   3. x (2, 2)
    <board>
    >>> print(game_text("game 2", [], "<board>"))  # lost before its first move: no move list
    game 2:
    <board>
    """
    first = max(len(moves) - LAST_MOVES, 0)
    shown = [f"{first + i + 1}. {move}" for i, move in enumerate(moves[first:])]
    lines = [f"{title}, last moves:" if shown else f"{title}:"]  # no move: nothing to say
    for start in range(0, len(shown), 4):
        lead = "  ... " if first and not start else "  "
        lines.append(lead + "   ".join(shown[start:start + 4]))
    lines.append(board)
    if replay is not None:
        lines.append(f"replay (a page stepping through the game): {replay}")
    return "\n".join(lines)
