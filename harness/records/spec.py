"""Records describing assignments and cases (immutable; built only by ``harness.spec.loader``)."""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from harness.records.limits import Limits
from harness.records.policy import Policy

DEFAULT_GRADING_PYTHON = "3.10"
"""The Python of Gradescope's image, unless an assignment names another (``grading_python``)."""


@dataclass(frozen=True)
class Example:
    """One ``>>>`` example: its source and the output the transcript expects ("" for none).

    ``line`` counts from 1 within the transcript.
    """

    source: str
    want: str
    line: int

    @property
    def prompt(self) -> str:
        """The source as a doctest shows it, so a student can paste it back: ``>>>`` before
        its first line and ``...`` before each other line (a loop's body included)."""
        return prompt(self.source)


def prompt(source: str) -> str:
    """``source`` in doctest form (:attr:`Example.prompt`), trailing blank lines dropped."""
    first, *rest = source.strip("\n").rstrip().split("\n")
    return "\n".join([f">>> {first}", *(f"... {line}" for line in rest)])


class Visibility(enum.Enum):
    """When students see a test (Gradescope's enum)."""

    VISIBLE = "visible"
    HIDDEN = "hidden"
    AFTER_DUE_DATE = "after_due_date"
    AFTER_PUBLISHED = "after_published"

    @property
    def reveals_expected(self) -> bool:
        """Only visible cases may show expected values in feedback."""
        return self is Visibility.VISIBLE


@dataclass(frozen=True)
class ApiEntry:
    """A name the handout fixes, with its parameter list, e.g. ``Game.get_best_move``.

    ``parameters`` holds the parameter names in order and ``required`` how many of them have
    no default.
    """

    name: str
    parameters: tuple[str, ...]
    required: int
    text: str
    returns: str = ""
    """The handout's class a function makes (``create_puzzle(rows, cols) -> LightsOutPuzzle``):
    a case calling it uses that class's methods, not same-named ones of another class."""
    optional: bool = False
    """The handout only suggests it ("you may wish to", "suggested infrastructure", "optional"):
    its absence is a note, and blocks no case (one that calls it fails on its own)."""

    @property
    def owner(self) -> str:
        """The class of a method entry ("" for a top-level function)."""
        return self.name.rpartition(".")[0]

    @property
    def short_names(self) -> frozenset[str]:
        """Identifiers that, seen in a case's source, mean the case uses this entry."""
        parts = self.name.split(".")
        return frozenset({parts[0]} if parts[-1] == "__init__" else {parts[-1]})


@dataclass(frozen=True)
class AllowedPackage:
    """A third-party package the course lets students import (``allowed_packages``).

    ``requirement`` is what pip installs (``numpy`` or ``numpy>=1.22``); ``module`` is the name
    students import (``numpy``; differs for e.g. ``scikit-learn``/``sklearn``).
    """

    requirement: str
    module: str


@dataclass(frozen=True)
class RelativeTimeout:
    """``timeout: {reference: K, at_least: S}``: K times the reference solution's time for the
    case, at least S seconds, both on the nominal machine; the grader scales the result by the
    host's speed (``harness.timing.calibration``). The floor is scaled too: it stands for the fixed
    costs (a process, an import) that a slow host also pays slowly."""

    reference: float
    at_least: float
    reference_seconds: float
    """The reference's time for this case on the nominal machine (``reference_times.yaml``)."""

    def seconds(self, host_factor: float, most: float) -> float:
        """The limit on a host ``host_factor`` times as fast as the nominal machine."""
        nominal = max(self.at_least, self.reference * self.reference_seconds)
        return min(most, nominal / host_factor)


@dataclass(frozen=True)
class Case:
    """One graded test: a transcript (or a runner), its points and how to judge it."""

    id: str
    number: str
    group: str
    name: str
    points: float
    visibility: Visibility
    timeout: float
    file: Path
    examples: tuple[Example, ...]
    compare: str = "doctest"
    runner: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    stdin: str | None = None
    tags: tuple[str, ...] = ()
    requires: tuple[str, ...] = ()
    generated: bool = False
    module: str | None = None
    diagnose: str | None = None
    picture: str | None = None
    """A trusted ``function(case, observations, reveal) -> str`` drawing a failed case's
    position (``harness.compare.pictures``)."""
    relative_timeout: RelativeTimeout | None = None
    """Set when the spec gives the limit relative to the reference; ``timeout`` then holds its
    value on the nominal machine until the grader scales it to the host."""
    mirror_of: str | None = None
    """The id of the visible case whose position this hidden case asks mirrored or rotated
    (``harness.compare.mirror_images``)."""
    alone: bool = False
    """The case never runs beside another case (see ``harness.timing.lanes``): what it answers may
    depend on how fast it runs, e.g. a player with a clock. Runner cases always run alone."""

    @property
    def title(self) -> str:
        return f"{self.group}: {self.name}"


@dataclass(frozen=True)
class Assignment:
    """An assignment: where its files are and what a submission must provide."""

    name: str
    title: str
    folder: Path
    module: str
    submission_files: tuple[str, ...]
    support_files: tuple[Path, ...]
    probe_files: tuple[Path, ...]
    api: tuple[ApiEntry, ...]
    limits: Limits
    budget: float
    total_points: float | None
    kit: str = ""
    """``package.module:function`` making the game's kit (``kit:`` in assignment.yaml; "" for
    no game): what the tournament seats, the staff ladder and house-game cases play."""
    ladder: Mapping[str, Any] = field(default_factory=dict)
    """The staff ladder (``harness.games.ladder``), as assignment.yaml gives it; {} for none."""
    name_resolver: str | None = None
    """A probe module whose ``resolve(module)`` may bind handout names a student module lacks
    (e.g. through a registry the starter lets students fill); see docs/architecture.md."""
    allowed_packages: tuple[AllowedPackage, ...] = ()
    student_package: tuple[str, ...] = ()
    cases_folder: Path | None = None
    """Where its case files are: ``folder/cases``, or a variant's varied assignment's."""
    variant_of: Path | None = None
    """The folder of the assignment this one varies (``variant_of`` in assignment.yaml)."""
    """The roles of plug-in code the student package holds (``harness.release.build``)."""
    grading_python: str = DEFAULT_GRADING_PYTHON
    """The Python of the grading image (Gradescope's): code needing a newer one is warned
    about at the top of the results (``harness.intake.python_version``)."""
    gradescope_only_because: str = ""
    """Why the visible cases the student package leaves out need code students do not get, in
    the students' words (it completes "graded on Gradescope only, because ..."); empty: the
    modules they need are named instead."""
    reference_times: Mapping[str, float] | None = field(default_factory=dict)
    """The reference's recorded time per case id, in nominal seconds (``reference_times.yaml``);
    None while recording them, when relative limits are left at ``RECORDING_TIMEOUT``."""
    policy: Policy = Policy()
    """The course's policy over submissions (``policy:``; harness/policy/): none by default."""

    @property
    def requirements(self) -> tuple[str, ...]:
        """What pip installs for this assignment's sandbox."""
        return tuple(package.requirement for package in self.allowed_packages)

    @property
    def case_files(self) -> tuple[Path, ...]:
        return tuple(sorted((self.cases_folder or self.folder / "cases").glob("*.yaml")))

    @property
    def main_file(self) -> str:
        return self.submission_files[0]
