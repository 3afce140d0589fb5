"""Text helpers for comparison and for messages."""
from __future__ import annotations

import reprlib
from typing import Any

_SHORT = reprlib.Repr()
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxset = _SHORT.maxdict = 12
_SHORT.maxstring = _SHORT.maxother = 200
_SHORT.maxlevel = 6


def normalize_text(text: str) -> str:
    """Collapse every run of whitespace to one space and strip the ends."""
    return " ".join(text.split())


def show(value: Any, limit: int = 600) -> str:
    """A short repr of trusted plain data, for feedback messages."""
    text = repr(value) if len(repr(value)) <= limit else _SHORT.repr(value)
    return text if len(text) <= limit else text[:limit] + "..."
