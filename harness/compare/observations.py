"""Observations: what the worker saw for each example, decoded into trusted plain data."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harness.codec import decode_value


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
    """One example's outcome: its value (if it showed one), printed text and error."""

    value: Any = None
    has_value: bool = False
    stdout: str = ""
    error: ErrorInfo | None = None


def _error(data: Any) -> ErrorInfo:
    if not isinstance(data, dict):
        return ErrorInfo("UnknownError", "the worker sent a malformed error")
    return ErrorInfo(str(data.get("type", "Error"))[:200], str(data.get("message", ""))[:2000],
                     str(data.get("where", ""))[:2000])


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
            stdout=item["stdout"][:20000] if isinstance(item.get("stdout"), str) else "",
            error=_error(item["error"]) if "error" in item else None))
    return observations
