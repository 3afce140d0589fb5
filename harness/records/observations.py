"""What the worker saw for each example, as trusted plain data (decoded from its reply by
``harness.compare.observations``)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


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
