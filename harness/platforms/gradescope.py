"""The Gradescope entry point: grade /autograder/submission into /autograder/results/results.json.

``AUTOGRADER_ROOT`` (or ``--root``) replaces ``/autograder`` so the whole flow can run in a
temporary folder laid out the same way. The assignment comes from ``--assignment``, the
``GAMEGRADER_ASSIGNMENT`` variable, or the file ``source/ASSIGNMENT`` (written by the build).
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from harness.grading import results as results_file
from harness.spec.run import RunContext

ASSIGNMENT_ENV = "GAMEGRADER_ASSIGNMENT"


def read_metadata(root: Path) -> dict[str, Any]:
    """submission_metadata.json, parsed defensively (absent in local runs: empty dict)."""
    try:
        data = json.loads((root / "submission_metadata.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def assignment_name(root: Path, given: str | None) -> str | None:
    if given:
        return given
    if os.environ.get(ASSIGNMENT_ENV):
        return os.environ[ASSIGNMENT_ENV]
    try:
        return (root / "source" / "ASSIGNMENT").read_text(encoding="utf-8").strip() or None
    except OSError:
        return None


def warn_if_packages_missing(run: RunContext) -> None:
    """Tell the instructor (Gradescope shows this log to instructors only) when the packages
    students may import are not installed for the sandbox, before a student finds out."""
    from harness.release.packages_install import missing
    from harness.spec import SpecError
    try:
        requirements = run.assignment.requirements
    except SpecError:
        return  # grading reports it
    if missing(requirements):
        print(f"warning: the allowed packages ({', '.join(requirements)}) are not installed for "
              "the sandbox; files importing them will not run. Run 'gamegrader packages "
              "install' in setup.sh (see the README, 'Allowed packages').", file=sys.stderr)


def run(root: Path, given: str | None = None, budget: float | None = None) -> int:
    """Grade the submission under ``root``; always leaves a valid results.json. Returns 0, or 2
    when no assignment is configured.

    Raises:
        SpecError: the assignment's spec is broken (results.json says the autograder is
            misconfigured and the submission was not graded).
    """
    from harness.grading.api import GRADING_HOST, GradingOptions
    from harness.policy.entry import grade_under_policy
    output = root / "results" / "results.json"
    name = assignment_name(root, given)
    if name is None:
        results_file.write(output, results_file.misconfigured(
            "no assignment name is configured (see docs/workflows.md)"))
        return 2
    run = RunContext(name, output=output)
    warn_if_packages_missing(run)
    # The container is stopped at Gradescope's cap: the budget is a wall-clock cap here.
    options = GradingOptions(budget=budget, capped=True)
    document = grade_under_policy(run, root / "submission", output, options,
                                  read_metadata(root))
    print(f"Graded {name}: score {document['score']:g}", file=sys.stderr)
    for line in document.get("extra_data", {}).get(GRADING_HOST, []):
        print(line, file=sys.stderr)  # run_autograder's log, which Gradescope shows instructors
    return 0
