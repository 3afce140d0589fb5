"""Grading under the assignment's policy: what the Gradescope entry and batch jobs call."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from harness.grading import results as results_file
from harness.grading.api import GradingOptions, grade_to_file
from harness.policy.apply import after_grading, before_grading
from harness.policy.metadata import read_facts
from harness.spec import SpecError
from harness.spec.run import RunContext


def grade_under_policy(run: RunContext, submission: Path, output: Path, options: GradingOptions,
                       metadata: Any) -> dict[str, Any]:
    """Grade into ``output`` as ``grade_to_file`` does, with the assignment's policy decided
    from ``metadata`` (parsed submission_metadata.json; anything, {} when there is none).

    A submission over the rate limit is not graded: the last graded results are written again.
    The policy never fails a grading: if it raises, the grade stands as graded, with a note.
    """
    try:
        policy = run.policy
    except SpecError:
        policy = None  # grade_to_file reports it
    if policy is None or not policy.active:
        return grade_to_file(run, submission, output, options)
    facts = read_facts(metadata)
    refused = before_grading(policy, facts)
    if refused is not None:
        results_file.write(output, refused)
        return refused
    document = grade_to_file(run, submission, output, options)
    extra = document.get("extra_data", {})
    if not extra.get("final") or "harness_error" in extra:
        return document  # the grader failed: nothing to decide from
    try:
        decided = after_grading(policy, facts, document)
        results_file.write(output, decided)
        return decided
    except Exception as exc:  # the grade written above stands
        print(f"gamegrader: the policy failed ({type(exc).__name__}: {exc}); the grade stands",
              file=sys.stderr)
        return document
