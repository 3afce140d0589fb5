"""Boards drawn as text in a case's feedback, given again as tables a screen reader reads square
by square.

A failed case's feedback may draw the position in the layout of ``reference.core.pictures
.draw_grid``: a line naming the columns, their numbers, then one line per row (the rows' name on
the first, each row's number, three spaces, the cells), then legend lines saying what the marks
mean. Read as text, a screen reader gives that line by line; the table found here has the same
numbers as row and column headers, each cell's mark, and the legend as its caption. Text that is
not such a board gives nothing.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape

_ROW = re.compile(r"^(?P<name>[A-Za-z]+)? +(?P<number>-?\d+) {3,}(?P<cells>\S.*)$")
_NUMBERS = re.compile(r"^ +-?\d+( +-?\d+)*$")
_LABEL = re.compile(r"^ +[A-Za-z]+$")


@dataclass(frozen=True)
class Board:
    """One board found in text: its row and column names and numbers, cells, and legend."""

    columns: str
    column_numbers: tuple[str, ...]
    rows: str
    row_numbers: tuple[str, ...]
    cells: tuple[tuple[str, ...], ...]
    legend: tuple[str, ...]


def _board_at(lines: list[str], start: int) -> tuple[Board, int] | None:
    """The board whose column label is ``lines[start]``, and the index after its legend."""
    if start + 2 >= len(lines) or not _LABEL.match(lines[start]) \
            or not _NUMBERS.match(lines[start + 1]):
        return None
    numbers = tuple(lines[start + 1].split())
    first = _ROW.match(lines[start + 2])
    if first is None or not first.group("name"):
        return None
    row_numbers, cells = [], []
    index = start + 2
    while index < len(lines):
        row = _ROW.match(lines[index])
        if row is None or (index > start + 2 and row.group("name")):
            break
        marks = tuple(row.group("cells").split())
        if len(marks) != len(numbers):
            break
        row_numbers.append(row.group("number"))
        cells.append(marks)
        index += 1
    legend = []
    while index < len(lines) and lines[index].strip() and not lines[index].startswith("```"):
        legend.append(lines[index].strip())
        index += 1
    return Board(lines[start].strip(), numbers, str(first.group("name")), tuple(row_numbers),
                 tuple(cells), tuple(legend)), index


def boards_in(text: str) -> list[Board]:
    """Every board drawn in ``text``, in order."""
    lines = text.splitlines()
    found = []
    index = 0
    while index < len(lines):
        board = _board_at(lines, index)
        if board is None:
            index += 1
            continue
        found.append(board[0])
        index = board[1]
    return found


def board_table(board: Board) -> str:
    """``board`` as an HTML table: a header per column and per row in the drawing's numbers,
    each cell its mark, the legend as the caption."""
    caption = "The board drawn above, square by square" + (
        ": " + " ".join(board.legend) if board.legend else "")
    head = "<tr><td></td>" + "".join(
        f'<th scope="col">{escape(board.columns)} {escape(n)}</th>'
        for n in board.column_numbers) + "</tr>"
    body = "".join(
        f'<tr><th scope="row">{escape(board.rows)} {escape(number)}</th>'
        + "".join(f"<td>{escape(mark)}</td>" for mark in row) + "</tr>"
        for number, row in zip(board.row_numbers, board.cells))
    return (f'<table class="board"><caption>{escape(caption)}</caption><thead>{head}</thead>'
            f"<tbody>{body}</tbody></table>")


def board_tables(text: str) -> str:
    """The boards drawn in ``text`` as tables for screen readers only (the drawing shows them
    to the eye), or "" when it draws none."""
    tables = "".join(board_table(board) for board in boards_in(text))
    return f'<div class="visually-hidden">{tables}</div>' if tables else ""


__all__ = ["Board", "board_table", "board_tables", "boards_in"]
