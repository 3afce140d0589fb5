"""Text from a student made safe to store in results.json and to print on a terminal.

Student text (printed output, exception messages, type and file names) may hold lone surrogates
(which no UTF-8 file can store: writing results.json would fail), terminal control sequences
(which would recolour, retitle or rewrite an instructor's terminal), and any length. ``safe_text``
fixes all three; everything the trusted side stores or shows passes through it.
"""
from __future__ import annotations

import re

# ESC [ ... final byte (CSI), ESC ] ... BEL or ESC \ (OSC), the other ESC-introduced strings
# (DCS, SOS, PM, APC: ESC P/X/^/_ ... ESC \), then any other ESC + one character.
_ESCAPE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]?"
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"
    r"|\x1b.?",
    re.DOTALL)
# C0 controls except tab and newline, DEL, C1 controls (0x9b alone is a CSI on some terminals).
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
REPLACEMENT = "\ufffd"


def safe_text(text: str, limit: int | None = None) -> str:
    """``text`` without lone surrogates (replaced by U+FFFD), terminal escape sequences or
    control characters (except tab and newline), cut to ``limit``
    characters with a visible marker.

    Every pattern is linear (no nested quantifiers), so hostile text costs time in proportion
    to its length. A ``str`` subclass is read as plain ``str`` (its methods are never called).
    """
    text = str.__str__(text) if isinstance(text, str) else ""
    text = _SURROGATE.sub(REPLACEMENT, text)
    text = _CONTROL.sub("", _ESCAPE.sub("", text))
    if limit is not None and len(text) > limit:
        text = text[:limit] + f"\n[... {len(text) - limit} more characters cut by the grader]"
    return text


def safe_bytes(data: bytes, limit: int | None = None) -> str:
    """Untrusted bytes (a process's output) as safe text; invalid UTF-8 is replaced."""
    return safe_text(data.decode("utf-8", errors="replace"), limit)


def student_relative(text: str, folder: str) -> str:
    """``text`` with the sandbox's case ``folder`` (``/var/lib/gamegrader/scratch/...``) taken
    out of every path in it, so that a traceback names the student's own files (``agent.py``)
    as they know them and never the grading host's scratch layout. "" ``folder``: unchanged."""
    folder = folder.rstrip("/")
    if not folder:
        return text
    return text.replace(folder + "/", "").replace(folder, ".")


# A spreadsheet (Excel, LibreOffice, Google Sheets) opening a CSV file runs a cell that starts
# with one of these as a formula: ``=HYPERLINK("http://...?"&A2, "details")`` sends other cells
# away when clicked, ``=cmd|...`` asks to start a program. A quote in front makes it text. The
# quote itself is in the set, so that ``from_spreadsheet_cell`` can undo the prefix exactly.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n", "'")


def spreadsheet_cell(value: object) -> object:
    """A CSV cell that no spreadsheet runs as a formula: text starting with ``= + - @``, a tab,
    a line break or a quote gets a leading ``'``; numbers (also as text, such as ``-1.5``) and
    other values are unchanged. Every CSV file the grader writes passes its cells through this,
    since names (a student's chosen name, a submitted file's name) reach them."""
    if not isinstance(value, str) or not value.startswith(_FORMULA_STARTS):
        return value
    try:
        float(value)
        return value
    except ValueError:
        return "'" + value


def from_spreadsheet_cell(text: str) -> str:
    """A cell read back from a CSV file the grader wrote, without ``spreadsheet_cell``'s quote."""
    if text.startswith("'") and text[1:].startswith(_FORMULA_STARTS):
        return text[1:]
    return text
