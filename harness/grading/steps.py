"""A case on its way through ``Grader``: ready to run with its limit, or its outcome."""
from __future__ import annotations

from dataclasses import dataclass

from harness.records.spec import Case
from harness.records.verdicts import CaseResult, Verdict
from harness.timing.hang_probes import Probe


@dataclass(frozen=True)
class Ready:
    """A case past its checks, with the seconds it may run."""

    case: Case
    timeout: float
    probe: Probe | None = None  # a short limit after a timeout of its functions (hang_probes)
    cut: bool = False  # the budget left it less than its full limit


@dataclass(frozen=True)
class Finished:
    """A case's result, the refused-import messages it met (noted as it settles), and how its
    limit was set."""

    result: CaseResult
    refused: tuple[str, ...] = ()
    probe: Probe | None = None
    cut: bool = False
    limit: float = 0.0  # the seconds it was given
    cpu: float | None = None  # the CPU seconds its process reported


def harness_error(case: Case, exc: Exception) -> CaseResult:
    return CaseResult(case, Verdict.HARNESS_ERROR, 0.0,
                      f"internal grader error ({type(exc).__name__}: {exc}); "
                      "please tell your instructor")
