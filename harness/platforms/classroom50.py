"""Classroom 50's result (``classroom50/result/v1``): ``./result.json`` with the score, the
maximum, one test per visible case and one for the hidden cases together, and the submission
time, which stays the same across regrades (it is the work's, not the grading's)."""
from __future__ import annotations

import json
from typing import Any

from harness.platforms.outcome import HIDDEN_NAME, GradingOutcome

SUBMITTED_AT = "submitted-at"


def document(outcome: GradingOutcome) -> dict[str, Any]:
    tests: list[dict[str, Any]] = [
        {"test-name": f"{case.number} {case.name}".strip(), "passed": case.passed,
         "score": round(case.points, 6), "max-score": case.max_points}
        for case in outcome.shown]
    hidden = outcome.hidden
    if hidden is not None:
        tests.append({"test-name": HIDDEN_NAME, "passed": hidden.passed == hidden.count,
                      "score": hidden.points, "max-score": hidden.max_points})
    return {"score": round(outcome.score, 4), "max-score": outcome.max_score,
            SUBMITTED_AT: outcome.submitted_at, "tests": tests}


def render(outcome: GradingOutcome) -> bytes:
    return (json.dumps(document(outcome), indent=2, ensure_ascii=False) + "\n").encode("utf-8")
