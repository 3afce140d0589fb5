"""A case's feedback as Markdown when it carries a picture, and back to text for a terminal.

Gradescope renders a test's ``output`` as Markdown when its ``output_format`` is ``md``. Only a
failed case with a picture (a drawn board, a game's last moves) uses it; every other case stays
plain text. The Markdown is a fixed, small subset this module writes and reads back: a bold
first line (the verdict and points, our own words) and fenced blocks, one per part (the
message, the picture, what the code printed). Every text from a case, the student's included,
sits inside a fence longer than any run of backticks in it, so nothing in it is read as
Markdown or HTML, and a terminal gets the same lines with the fences taken away.
"""
from __future__ import annotations

import re
from typing import Any, Mapping

from harness.records.verdicts import CaseResult
from harness.wire.safe_text import safe_text

MARKDOWN = "md"
PICTURE_LIMIT = 3000
"""Characters of a picture kept (a 8x8 board with its coordinates and legend takes ~400)."""
MESSAGE_LIMIT = 2500
_BACKTICKS = re.compile(r"`+")
_FENCE = re.compile(r"^(`{3,})(?:text)?$")
_HEADER = re.compile(r"^\*\*(.*)\*\*(.*)$")


def fenced(text: str) -> str:
    """``text`` as a fenced code block whose fence no line of it can close."""
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text.rstrip()}\n{fence}"


def points_text(points: Any) -> str:
    """Points as people read them: at most two decimals, no trailing zeros (results.json keeps
    the exact value).

    >>> points_text(0.333333), points_text(33.1667), points_text(40.0), points_text(0.5)
    ('0.33', '33.17', '40', '0.5')
    """
    return f"{round(float(points), 2):g}"


def markdown(result: CaseResult, output_limit: int = 2000) -> str:
    """The test output of ``result`` in Markdown: verdict line, message, picture, printed text
    (each part bounded, so that the whole stays within ``results.OUTPUT_LIMIT``)."""
    points = f"({points_text(result.score)}/{points_text(result.case.points)} points)"
    parts = [f"**{result.verdict.value.capitalize()}** {points}"]
    if result.message.strip():
        parts.append(fenced(safe_text(result.message, MESSAGE_LIMIT)))
    parts.append(fenced(safe_text(result.picture, PICTURE_LIMIT)))
    shown = result.output.strip()
    if shown:
        if len(shown) > output_limit:
            shown = shown[:output_limit] + "\n[... output cut]"
        parts.append("Your code printed:")
        parts.append(fenced(safe_text(shown)))
    return "\n\n".join(parts) + "\n"


def as_text(output: str, output_format: str) -> str:
    """A test's output as a terminal shows it: Markdown written by :func:`markdown` without its
    fences, blank separator lines and bold marks; any other format as it is."""
    if output_format != MARKDOWN:
        return output
    lines: list[str] = []
    fence = ""
    for line in output.rstrip("\n").split("\n"):
        if fence:
            if line == fence:
                fence = ""
            else:
                lines.append(line)
            continue
        opening = _FENCE.match(line)
        if opening:
            fence = opening.group(1)
        elif line:
            header = _HEADER.match(line)
            lines.append("".join(header.groups()) if header and not lines else line)
    return "\n".join(lines)


def output_text(test: Mapping[str, Any]) -> str:
    """A results.json test's output as text, whatever its format: what a terminal prints and
    what a batch groups failures by."""
    return as_text(str(test.get("output", "")), str(test.get("output_format", "text")))
