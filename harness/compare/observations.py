"""Observations: what the worker saw for each example, decoded into trusted plain data."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harness.wire.protocol import ErrorReport, ObservationReport, value_of
from harness.wire.safe_text import safe_text

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


def error_from_reply(report: ErrorReport) -> ErrorInfo:
    """An ErrorInfo from a decoded error report, its texts made safe to store and show."""
    return ErrorInfo(safe_text(report.type, 200), safe_text(report.message, 2000),
                     safe_text(report.where, 2000))


def observations_from_reply(items: list[ObservationReport] | None) -> list[Observation]:
    """Observations from a decoded ``run`` reply: values rebuilt, texts made safe.

    Raises:
        harness.wire.protocol.ProtocolError (a ValueError): a value breaks the wire format's bounds,
            or the reply holds no observations.
    """
    if items is None:
        raise ValueError("the reply holds no observations")
    return [Observation(value=value_of(item.value) if item.has_value else None,
                        has_value=item.has_value, stdout=safe_text(item.stdout, 20000),
                        transcript_stdout=None if item.transcript_stdout is None
                        else safe_text(item.transcript_stdout, 20000),
                        error=None if item.error is None else error_from_reply(item.error))
            for item in items]
