"""The run context: what one run of a command is about, made once at the command's door and
passed down whole, so no layer looks the assignment up again or reads a parameter from the
environment.

The assignment is found by name the first time it is asked for (``find_assignment``) and kept:
a door that cannot read the spec still hands the context to the grading API, whose own rule
turns a broken spec into a "misconfigured" results file.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from harness.records.limits import Limits
from harness.records.policy import Policy
from harness.records.spec import Assignment
from harness.spec.assignments import find_assignment


@dataclass
class RunContext:
    """One run: the assignment (by name, found once), where results go, where games are kept.

    Attributes:
        name: the assignment's name as the door was given it.
        output: the results file (or output folder) the run writes; None where the caller
            decides per submission (batch).
        games: the folder where game runners keep every game they play (``grade --games``,
            ``play --out``); None: no game is kept.
    """

    name: str
    output: Path | None = None
    games: Path | None = None
    _assignment: Assignment | None = field(default=None, repr=False, compare=False)

    @classmethod
    def of(cls, assignment: Assignment, *, output: Path | None = None,
           games: Path | None = None) -> RunContext:
        """The context of an assignment the door has already loaded."""
        return cls(assignment.name, output, games, assignment)

    @property
    def assignment(self) -> Assignment:
        """The assignment, looked up on first use only.

        Raises:
            SpecError: the assignment is unknown or its assignment.yaml is broken.
        """
        if self._assignment is None:
            self._assignment = find_assignment(self.name)
        return self._assignment

    @property
    def limits(self) -> Limits:
        return self.assignment.limits

    @property
    def policy(self) -> Policy:
        return self.assignment.policy


def as_run(run: RunContext | str) -> RunContext:
    """A library caller's assignment name as a context (the project's doors pass contexts)."""
    return run if isinstance(run, RunContext) else RunContext(run)
