"""Comparing printed Stonehenge boards the way the course's own tests did: by content.

The course's checks compared, line by line, the cells and ley-line markers (letters, digits and
``@``), not the spacing. So do we: a board with trailing spaces, a final newline, other
indentation or a decorative dash between cells is right. The exact layout of the notes is still
worth a remark, so the feedback names the first line whose spacing differs, with its spaces made
visible. Messages never quote an expected board unless the caller may reveal it; a spacing remark
may show the handout's layout of a line, whose content is then the student's own.
"""
from __future__ import annotations

import re
from typing import Sequence

_TOKEN = re.compile(r"[A-Za-z0-9@]+")
_VISIBLE_SPACE = "\u00b7"


def board_tokens(text: str) -> list[list[str]]:
    """The content of a board: for each line that has any, its cells and markers in order.

    Everything but letters, digits and ``@`` separates tokens and is dropped (spaces, ``-``,
    ``/``, ``\\``); lines left empty (the connector lines, blank lines) are skipped.

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


def visible_spaces(line: str) -> str:
    """``line`` with each space shown as a middle dot and its end marked by ``$``."""
    return line.replace(" ", _VISIBLE_SPACE) + "$"


def spacing_note(expected: str, actual: str) -> str:
    """Describe how a board whose content is right differs in spacing from the handout's layout.

    Both texts are as ``print`` wrote them (one final newline, which is not part of the board).
    Returns "" when the text is exactly the layout. Otherwise the note names the first line that
    differs and shows it, spaces made visible, next to the handout's layout of that line (whose
    cells and markers are the student's own, since the content matched).
    """
    want = expected[:-1] if expected.endswith("\n") else expected
    got = actual[:-1] if actual.endswith("\n") else actual
    if got == want:
        return ""
    head = ("Full credit: your cells and ley-line markers are right; only the spacing differs "
            "from the handout's layout (the course compares content)")
    if got.rstrip("\n") == want:
        return f"{head}: your board ends with a newline."
    got_lines, want_lines = got.split("\n"), want.split("\n")
    index = first_difference(want_lines, got_lines)
    assert index is not None
    yours = visible_spaces(got_lines[index]) if index < len(got_lines) else "(no such line)"
    layout = visible_spaces(want_lines[index]) if index < len(want_lines) else "(no such line)"
    return (f"{head}. First differing line {index + 1} (spaces shown as {_VISIBLE_SPACE}):\n"
            f"    yours:  {yours}\n    layout: {layout}")


__all__ = ["board_tokens", "first_difference", "framed", "line_contents", "spacing_note",
           "visible_spaces"]
