"""Comparing printed Stonehenge boards: exactly, or by content (line by line, spacing ignored).

The notes (section 6) let a test require either the exact layout or only the content: the cell
and marker tokens of each line, which the course's own checks compared. Content is what carries
the captures and claims, so the step-by-step cases compare content and only the board cases
require the exact layout. Messages never quote an expected board unless the caller may reveal it.
"""
from __future__ import annotations

import re
from typing import Sequence

_TOKEN = re.compile(r"[^\s/\\-]+")


def board_tokens(text: str) -> list[list[str]]:
    """The content of a board: for each line that has any, its cells and markers in order.

    Drawing characters (``-``, ``/``, ``\\``) and whitespace separate tokens and are dropped;
    lines left empty (the connector lines) are skipped.

    >>> board_tokens("  @ - A - B   @\\n     / \\\\ / \\\\ /\\n@ - C")
    [['@', 'A', 'B', '@'], ['@', 'C']]
    """
    lines = (_TOKEN.findall(line) for line in text.split("\n"))
    return [tokens for tokens in lines if tokens]


def line_contents(text: str) -> list[str]:
    """The tokens of every line of ``text`` (empty for connector lines), for locating the first
    line whose content differs."""
    return [" ".join(_TOKEN.findall(line)) for line in text.rstrip("\n").split("\n")]


def framed(text: str, limit: int = 40) -> str:
    """``text`` with numbered lines ending in ``$``, so that trailing spaces are visible."""
    lines = text.split("\n")
    shown = [f"{number:3d} |{line}$" for number, line in enumerate(lines[:limit], 1)]
    if len(lines) > limit:
        shown.append(f"    ... {len(lines) - limit} more lines")
    return "\n".join(shown)


def first_difference(expected: Sequence[str], actual: Sequence[str]) -> int | None:
    """The 0-based index of the first line that differs (or is missing), or None if equal."""
    for index in range(max(len(expected), len(actual))):
        if index >= len(expected) or index >= len(actual) or expected[index] != actual[index]:
            return index
    return None


def layout_hint(expected: str, actual: str) -> str:
    """Say what is wrong with a printed board whose content is right but whose text is not.

    Both texts are as ``print`` wrote them (one final newline, which is not part of the board).
    The hint names a line of the student's board and what is off with it, without quoting the
    expected text, so it is safe for hidden cases.
    """
    want = expected[:-1] if expected.endswith("\n") else expected
    got = actual[:-1] if actual.endswith("\n") else actual
    if got.endswith("\n"):
        return "your board ends with a newline: __str__ must not end with '\\n'"
    got_lines, want_lines = got.split("\n"), want.split("\n")
    for number, line in enumerate(got_lines, 1):
        if line != line.rstrip():
            return f"line {number} of your board ends with whitespace"
    if len(got_lines) != len(want_lines):
        return (f"your board has {len(got_lines)} lines; a board of side n has 2n + 5 lines "
                f"({len(want_lines)} here)")
    index = first_difference(want_lines, got_lines)
    if index is None:
        return ""
    return f"line {index + 1} of your board is spaced differently from the handout's layout"


__all__ = ["board_tokens", "first_difference", "framed", "layout_hint", "line_contents"]
