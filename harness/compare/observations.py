"""Observations: what the worker saw for each example, decoded into trusted plain data."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harness.codec import decode_value

MAX_STDOUT = 20000


@dataclass(frozen=True)
class ErrorInfo:
    """An exception raised by student code (type name, message, where in the student file)."""

    type: str
    message: str
    where: str = ""

    def describe(self) -> str:
        text = f"{self.type}: {self.message}" if self.message else self.type
        return f"{text}\n  at {self.where}" if self.where else text


@dataclass(frozen=True)
class Observation:
    """One example's outcome: its value (if it showed one), printed text and error.

    ``stdout`` is everything printed; ``transcript_stdout`` the part the transcript's own code
    printed (e.g. ``print(f(x))``), without the student's debug lines; None when unknown.
    """

    value: Any = None
    has_value: bool = False
    stdout: str = ""
    error: ErrorInfo | None = None
    transcript_stdout: str | None = None

    def printed(self, about_printing: bool = False) -> str:
        """The printed text that answers the example: the transcript's own output, or all of
        it for cases about printing (where the student's prints are the answer)."""
        if about_printing or self.transcript_stdout is None:
            return self.stdout
        return self.transcript_stdout


def _error(data: Any) -> ErrorInfo:
    if not isinstance(data, dict):
        return ErrorInfo("UnknownError", "the worker sent a malformed error")
    return ErrorInfo(str(data.get("type", "Error"))[:200], str(data.get("message", ""))[:2000],
                     str(data.get("where", ""))[:2000])


def _text(data: Any) -> str | None:
    return data[:MAX_STDOUT] if isinstance(data, str) else None


def error_from_reply(data: Any) -> ErrorInfo:
    """Build an ErrorInfo from an untrusted reply field."""
    return _error(data)


def observations_from_reply(items: Any) -> list[Observation]:
    """Decode the worker's ``observations`` list.

    Raises:
        ValueError: the list is not in the documented shape.
    """
    if not isinstance(items, list):
        raise ValueError("observations is not a list")
    observations = []
    for item in items:
        if not isinstance(item, dict):
            raise ValueError("an observation is not an object")
        has_value = item.get("has_value") is True
        observations.append(Observation(
            value=decode_value(item.get("value")) if has_value else None,
            has_value=has_value,
            stdout=_text(item.get("stdout")) or "",
            transcript_stdout=_text(item.get("transcript_stdout")),
            error=_error(item["error"]) if "error" in item else None))
    return observations
