"""Boards drawn as text in feedback are given again as tables (harness/pages/boards.py): each
game's own drawing, read back with the drawing's numbers as headers and its legend as caption."""
from __future__ import annotations

import re

from assignments.adversarial_search.pictures import draw_text as dominoes
from assignments.isolation.pictures import draw_text as isolation
from assignments.othello.pictures import draw_text as othello
from harness.pages.boards import board_tables, boards_in
from reference.core.pictures import draw_grid


def test_every_game_s_drawing_is_read_back_square_by_square():
    found, = boards_in("The board of >>> g.get_best_move(True, 1)\n"
                       + dominoes([[True, False], [False, False]], {(1, 0): "+"},
                                  ["+ the expected move (1, 0)"]) + "\n```\nmore text")
    assert (found.columns, found.column_numbers, found.rows, found.row_numbers) == (
        "column", ("0", "1"), "row", ("0", "1"))
    assert found.cells == (("X", "."), ("+", "."))
    assert found.legend[0].startswith("X filled, . empty") and found.legend[-1].startswith("+ ")
    board, = boards_in(isolation([["x", "-"], ["*", "o"]], {(1, 2): "@"}))
    assert board.column_numbers == ("1", "2") and board.columns == "col"  # Isolation counts from 1
    assert board.cells == (("x", "@"), ("*", "o"))
    board, = boards_in(othello(((0, 0), (2, 1)), {(0, 0): "*"}))
    assert board.cells == (("*", "."), ("O", "X"))
    wide, = boards_in(draw_grid([["."] * 12 for _ in range(11)]))  # two-digit numbers
    assert len(wide.cells) == 11 and wide.column_numbers[-1] == "11"
    assert boards_in("row 0   a b\nnot a board") == [] and board_tables("no board") == ""


def test_the_table_has_a_header_for_every_row_and_column_and_escapes_every_mark():
    html = board_tables(draw_grid([["<", "."], [".", "&"]], legend=["< a mark & another"]))
    assert html.startswith('<div class="visually-hidden"><table class="board">')
    assert re.findall(r'<th scope="col">(.*?)</th>', html) == ["column 0", "column 1"]
    assert re.findall(r'<th scope="row">(.*?)</th>', html) == ["row 0", "row 1"]
    assert "<td>&lt;</td>" in html and "<td>&amp;</td>" in html
    assert "<caption>The board drawn above, square by square: &lt; a mark &amp; another" in html
