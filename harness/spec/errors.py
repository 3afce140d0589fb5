"""The instructor-facing error family: a spec or configuration problem."""
from __future__ import annotations

from pathlib import Path
from typing import Any


class SpecError(ValueError):
    """A spec file is malformed. The message names the file, the case and the field at fault."""

    def __init__(self, file: Path | str, problem: str, *, case: str | None = None,
                 field: str | None = None) -> None:
        self.file = str(file)
        self.case = case
        self.field = field
        self.problem = problem
        where = self.file
        if case is not None:
            where += f", case {case!r}"
        if field is not None:
            where += f", field {field!r}"
        super().__init__(f"{where}: {problem}")

    def __reduce__(self) -> tuple[Any, ...]:
        """Rebuilt with its keywords, so one raised in a worker process reaches the caller."""
        return _rebuild, (self.file, self.problem, self.case, self.field)


def _rebuild(file: str, problem: str, case: str | None, field: str | None) -> SpecError:
    return SpecError(file, problem, case=case, field=field)
