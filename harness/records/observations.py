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
        """``Type: message``, then each frame of ``where`` on a line of its own, marked ``at``
        and indented under it (outermost first, as Python prints them): no frame reads as one
        of the verdict's own lines, which are indented by two."""
        text = f"{self.type}: {self.message}" if self.message else self.type
        return text + "".join(f"\n    at {frame}" for frame in self.where.splitlines()
                              if frame.strip())


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
