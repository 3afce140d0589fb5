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


def cell_labels(text: str) -> list[str]:
    """The unclaimed cells a board shows (its one-capital-letter tokens), in order: all the
    cells of a new board, whatever its markers, strokes or spacing.

    >>> cell_labels("  @ - A - B   @\\n@ - C - D - E")
    ['A', 'B', 'C', 'D', 'E']
    """
    return [token for line in board_tokens(text) for token in line
            if len(token) == 1 and token.isupper()]


def _roles(tokens: list[list[str]]) -> list[list[str]] | None:
    """``"cell"`` or ``"marker"`` for each token of a board in the handout's layout (a line of
    markers, the rows, a line of markers; row ``i`` of side ``n`` holds ``i + 2`` cells, the last
    ``n``, after its ley-line marker and before an optional one), or None for another shape."""
    side = len(tokens) - 3
    if side < 1:
        return None
    roles = [["marker"] * len(tokens[0])]
    for row, line in enumerate(tokens[1:-1]):
        cells = row + 2 if row < side else side
        if len(line) not in (cells + 1, cells + 2):
            return None
        roles.append(["marker"] + ["cell"] * cells + ["marker"] * (len(line) - cells - 1))
    return roles + [["marker"] * len(tokens[-1])]


def _names_owner(symbol: str, shown: str) -> bool:
    """Whether ``shown`` can stand for the handout's ``symbol``: an owner's digit must still be
    in it and the other owner's not (``p1`` for ``1``), ``@`` must name no owner; so a board
    that gives a cell to the wrong player never passes as renamed."""
    owners = {"1", "2"}
    named = {digit for digit in owners if digit in shown}
    return named == ({symbol} & owners)


def same_content(expected: str, printed: str) -> bool:
    """Whether ``printed`` shows what the handout-layout board ``expected`` shows, up to the
    symbols chosen: unclaimed cells by their own labels, and claimed cells and ley-line markers
    by symbols in one-to-one correspondence with the handout's that still name the owner
    (``p1`` for ``1``, say), each kind of place renamed alike. The groups that look at a board for
    a rule (captures, the side read, make_move) compare so, leaving the symbols to the board
    group."""
    want, got = board_tokens(expected), board_tokens(printed)
    roles = _roles(want)
    if roles is None or [len(line) for line in want] != [len(line) for line in got]:
        return want == got
    labels = {token for line in want for token in line if token.isalpha()}
    renamed: dict[tuple[str, str], str] = {}
    for role_line, want_line, got_line in zip(roles, want, got):
        for role, mine, yours in zip(role_line, want_line, got_line):
            if mine in labels:
                if yours != mine:
                    return False
                continue
            if (yours in labels or not _names_owner(mine, yours)
                    or renamed.setdefault((role, mine), yours) != yours):
                return False
    images = [(role, symbol) for (role, _), symbol in renamed.items()]
    return len(set(images)) == len(images)


__all__ = ["board_tokens", "cell_labels", "first_difference", "framed", "line_contents",
           "same_content", "spacing_note", "visible_spaces"]
