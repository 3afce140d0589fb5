"""``gamegrader calibrate NAME --record``: the reference solution's time per case, recorded once.

A limit written relative to the reference (``timeout: {reference: 10, at_least: 1}``) needs the
reference's time for that case. This grades ``reference/solutions/NAME/`` on the cases whose
limit is relative, the same way students are graded (so the sandbox's own cost per case is in
the number, as it is in a student's time), and writes their times in *nominal* seconds (the time
here times this host's speed factor) to ``test_specs/NAME/reference_times.yaml``. Each round
measures the host's speed right before it, so a busy machine slows both numbers alike; the
smallest of the rounds' products is kept.
"""
from __future__ import annotations

import datetime
from dataclasses import replace
from pathlib import Path

import yaml

from harness.grading.api import GradingOptions, GradingSession
from harness.paths import project_root
from harness.spec import SpecError, find_assignment
from harness.spec.assignments import REFERENCE_TIMES
from harness.spec.loader import load_all_cases
from harness.timing.calibration import measure

RECORDING_BUDGET = 3600.0
HEADER = ("# The reference solution's time per case, in nominal seconds "
          "(harness/timing/calibration.py),\n"
          "# for the cases whose timeout is relative to it. Written by\n"
          "# 'gamegrader calibrate {name} --record'; do not edit by hand.\n")


def record(name: str, rounds: int = 2) -> Path | None:
    """Grade the reference ``rounds`` times on the relative-limit cases and write their times
    (None: no case's limit is relative, nothing to record).

    Raises:
        SpecError: the assignment is unknown, its spec is broken, or its reference fails one of
            those cases (a limit cannot be relative to a reference that does not pass).
    """
    assignment = replace(find_assignment(name), reference_times=None)  # recording mode
    cases = [replace(case, relative_timeout=None)  # graded at the loader's RECORDING_TIMEOUT
             for case in load_all_cases(assignment) if case.relative_timeout is not None
             and case.relative_timeout.reference > 0]  # else only a floor: nothing to time
    if not cases:
        return None
    solution = project_root() / "reference" / "solutions" / name
    best: dict[str, float] = {}
    factors = []
    for _ in range(rounds):
        factor = measure()
        factors.append(factor)
        session = GradingSession(solution, GradingOptions(budget=RECORDING_BUDGET))
        session.plan(assignment, cases)
        try:
            for case in cases:
                result = session.grade(assignment, case)
                if not result.passed:
                    raise SpecError(case.file, f"the reference solution does not pass this case "
                                    f"({result.verdict.value}): {result.message[:300]}",
                                    case=case.name, field="timeout")
                nominal = result.seconds * factor
                best[case.id] = min(best.get(case.id, nominal), nominal)
        finally:
            session.finish(cases)
    document = {"recorded": datetime.date.today().isoformat(),
                "host_speed": round(min(factors), 3),
                "seconds": {case.id: round(max(best[case.id], 0.001), 4) for case in cases}}
    target = assignment.folder / REFERENCE_TIMES
    target.write_text(HEADER.format(name=name) + yaml.safe_dump(
        document, sort_keys=False, allow_unicode=True, width=100), encoding="utf-8")
    return target
