"""The shell of every page: one header, one stylesheet, tables that sort when clicked.

Every argument that is HTML is already escaped by the caller; titles and headings given as text
are escaped here. The only script a page may carry besides its own is the table sorter, which
reads nothing but the table it sorts.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape, unescape
from typing import Sequence, Union

from harness.pages.style import STYLE

_FOCUSABLE_PRE = re.compile(r"<pre(?=[ >])")

_SORTER = """
document.querySelectorAll('table.sortable').forEach((table) => {
  // The table's own column headers (not those of a table inside one of its cells).
  table.querySelectorAll(':scope > thead > tr > th').forEach((th, column) => {
    // A button in each header: a keyboard reaches and presses it as a mouse clicks it.
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'sort';
    button.title = 'sort by ' + th.textContent;
    while (th.firstChild) button.appendChild(th.firstChild);
    th.appendChild(button);
    button.addEventListener('click', () => {
      const body = table.tBodies[0];
      const up = th.getAttribute('aria-sort') !== 'ascending';
      table.querySelectorAll(':scope > thead th').forEach(
        (other) => other.removeAttribute('aria-sort'));
      th.setAttribute('aria-sort', up ? 'ascending' : 'descending');
      const key = (row) => {
        const cell = row.cells[column];
        const text = cell.dataset.sort !== undefined ? cell.dataset.sort : cell.textContent;
        const number = parseFloat(text);
        return isNaN(number) || !/^\\s*-?[\\d.]/.test(text) ? text.toLowerCase() : number;
      };
      const rows = Array.from(body.rows);
      rows.sort((a, b) => {
        const x = key(a), y = key(b);
        const order = typeof x === typeof y ? (x < y ? -1 : x > y ? 1 : 0)
                                            : (typeof x === 'number' ? -1 : 1);
        return up ? order : -order;
      });
      rows.forEach((row) => body.appendChild(row));
    });
  });
});
"""


@dataclass(frozen=True)
class Cell:
    """A table cell: its HTML and the value it sorts by (its text when ``sort`` is None)."""

    html: str
    sort: Union[str, float, None] = None


@dataclass(frozen=True)
class Row:
    """A table row: its cells and a CSS class (``failed`` marks a failed test or student)."""

    cells: Sequence[Union[str, Cell]]
    css: str = ""


_TAG = re.compile(r"<[^>]*>")


def _label(header_html: str) -> str:
    """A column header's text, escaped for an attribute: the label a narrow screen shows
    before each of the column's cells (``data-label``, drawn by the stylesheet)."""
    return escape(unescape(_TAG.sub("", header_html)).strip())


def _cell(cell: Union[str, Cell], numeric: bool, label: str) -> str:
    html, sort = (cell.html, cell.sort) if isinstance(cell, Cell) else (cell, None)
    attributes = f' role="cell" data-label="{label}"' + (' class="num"' if numeric else "")
    if sort is not None:
        attributes += f' data-sort="{escape(str(sort))}"'
    return f"<td{attributes}>{html}</td>"


def scrolling(table_html: str, label: str) -> str:
    """``table_html`` in a region of its own, named by ``label`` (text). Tables of
    :func:`table` fit the screen (they stack their rows on a narrow one); a table wider than the
    screen all the same scrolls in this region, never the page (WCAG 1.4.10, reflow), and the
    region takes the keyboard's focus so that it can be scrolled without a mouse."""
    return (f'<div class="wide" role="region" tabindex="0" aria-label="{escape(label)}">'
            f"{table_html}</div>")


def table(headers: Sequence[str], rows: Sequence[Union[Row, Sequence[Union[str, Cell]]]],
          table_id: str, numeric: frozenset[int] = frozenset(), sortable: bool = False,
          label: str = "") -> str:
    """An HTML table in its own region (:func:`scrolling`, named ``label`` or, by default,
    after ``table_id``); headers and cells are already-escaped HTML. Rows are ``Row`` or a
    plain sequence of cells; every body row has class ``row`` (and its own class, if any).

    On a narrow screen the stylesheet stacks each row's cells, each after its column's header
    (``data-label``), so every column shows and nothing scrolls sideways; the table's parts
    carry their ARIA roles because ``display: block`` takes a table's meaning away in some
    browsers, and a screen reader still reads it as a table."""
    head = "".join(f'<th scope="col" role="columnheader" class="num">{h}</th>' if i in numeric
                   else f'<th scope="col" role="columnheader">{h}</th>'
                   for i, h in enumerate(headers))
    labels = [_label(h) for h in headers]
    lines = []
    for row in rows:
        cells, css = (row.cells, row.css) if isinstance(row, Row) else (row, "")
        classes = f"row {css}".strip()
        lines.append(f'<tr role="row" class="{classes}">'
                     + "".join(_cell(c, i in numeric, labels[i] if i < len(labels) else "")
                               for i, c in enumerate(cells)) + "</tr>")
    kind = ' class="sortable"' if sortable else ""
    return scrolling(f'<table id="{table_id}" role="table"{kind}><thead role="rowgroup">'
                     f'<tr role="row">{head}</tr></thead><tbody role="rowgroup">\n'
                     + "\n".join(lines) + "\n</tbody></table>",
                     label or table_id.replace("-", " "))


def page(title: str, heading: str, subtitle: str, summary: str, body: str, *,
         kind: str, nav: Sequence[tuple[str, str]] = (), script: str = "",
         head: str = "") -> str:
    """A whole self-contained HTML document.

    Args:
        title, heading, subtitle: text (escaped here).
        summary: HTML of the summary chips (``<span>`` each), or "".
        body: the page's HTML.
        kind: what page this is, shown in the header ("batch report", "replay", ...).
        nav: (relative link, label) pairs shown at the header's right.
        script: the page's own script, if any; the table sorter is added when a table is
            sortable.
        head: extra elements for ``<head>`` (e.g. a JSON data block).
    """
    links = "".join(f'<a href="{escape(href)}">{escape(label)}</a>' for href, label in nav)
    # A block of text may scroll (a long output, a line of code): the keyboard reaches it.
    body = _FOCUSABLE_PRE.sub('<pre tabindex="0"', body)
    scripts = (_SORTER if 'class="sortable"' in body else "") + script
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            '<meta name="generator" content="gamegrader">\n'
            f"<title>{escape(title)}</title>\n<style>{STYLE}</style>\n{head}</head>\n<body>\n"
            f'<header class="site"><span class="brand">gamegrader</span>'
            f'<span class="kind">{escape(kind)}</span><nav>{links}</nav></header>\n'
            f'<main class="page">\n<h1>{escape(heading)}</h1>\n'
            f'<p class="muted subtitle">{escape(subtitle)}</p>\n'
            + (f'<p class="summary" id="summary">{summary}</p>\n' if summary else "")
            + f"{body}\n</main>\n"
            + (f"<script>{scripts}</script>\n" if scripts else "")
            + "</body>\n</html>\n")


__all__ = ["Cell", "Row", "page", "scrolling", "table"]
