"""PrairieLearn's external grader results (``/grade/results/results.json``) from an outcome.

PrairieLearn shows text with ANSI colour (no Markdown or HTML), has no per-test visibility and
refuses results over 1 MB. So: the visible cases each as a test, with the board of a failed case
drawn in text and as a PNG image; the hidden cases as one test with their count and points
only; a submission nothing could run of (a syntax error, a missing file, a refused import) as
``gradable: false`` with ``format_errors``, which uses no attempt; a document that would pass
1 MB trimmed (feedback shortened, then images dropped) with a note, never left invalid. At
most ``MAX_IMAGES`` boards are drawn as images (every board stays in the text).
"""
from __future__ import annotations

import json
from typing import Any

from harness.platforms.board_png import available, data_url
from harness.platforms.outcome import HIDDEN_NAME, CaseOutcome, GradingOutcome
from harness.wire.safe_text import safe_text

MAX_BYTES = 1_000_000
"""PrairieLearn refuses a larger results file (1 MB)."""
MAX_IMAGES = 25
"""Boards drawn as images, at most (the first failed cases'; each keeps its text board)."""
GREEN, RED, RESET = "\033[32m", "\033[31m", "\033[0m"
_TRIMS = (None, 4000, 1000, 200, 0)
"""Characters kept of each output and message, in turn, until the document fits."""
TRIMMED_NOTE = ("Some feedback was shortened to fit PrairieLearn's 1 MB limit on results "
                "(the score is complete).")


def _coloured(case: CaseOutcome) -> str:
    colour = GREEN if case.passed else RED
    return f"{colour}{case.headline}{RESET}"


def _test(case: CaseOutcome, draw: bool) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "name": f"{case.number} {case.name}".strip(),
        "description": case.case_id,
        "points": round(case.points, 6), "max_points": case.max_points,
        "message": _coloured(case), "output": case.detail,
    }
    if draw and case.picture and not case.passed:
        try:
            entry["images"] = [{"label": "The board", "url": data_url(case.picture)}]
        except Exception:  # an image is a bonus (the board is in the text): never the results
            pass
    return entry


def not_gradable(why: str, output: str = "", details: tuple[str, ...] = ()) -> dict[str, Any]:
    """Results PrairieLearn counts as no attempt: ``why`` first in ``format_errors``."""
    return {"gradable": False, "score": 0.0, "message": why, "output": output,
            "format_errors": [why, *details], "tests": []}


def grader_failed(fault: str, output: str = "") -> dict[str, Any]:
    """The results of a job the grader itself failed (an infrastructure fault)."""
    return not_gradable(f"The grader itself failed ({fault}); this submission was not graded "
                        "and used no attempt. Please tell your instructor.", output)


def _ungradable(outcome: GradingOutcome) -> dict[str, Any]:
    if outcome.fault:
        return grader_failed(outcome.fault, outcome.summary)
    details = (outcome.summary,) if outcome.summary.strip() else ()
    return not_gradable(f"Your submission could not be graded: {outcome.ungradable}.",
                        outcome.summary, details)


def document(outcome: GradingOutcome) -> dict[str, Any]:
    """PrairieLearn's results for ``outcome`` (before the 1 MB cap, see ``serialize``)."""
    if outcome.fault or outcome.ungradable:
        return _ungradable(outcome)
    drawn = [case.case_id for case in outcome.shown
             if case.picture and not case.passed and available()]
    tests = [_test(case, case.case_id in drawn[:MAX_IMAGES]) for case in outcome.shown]
    hidden = outcome.hidden
    if hidden is not None:
        tests.append({"name": HIDDEN_NAME, "description": "hidden cases",
                      "points": hidden.points, "max_points": hidden.max_points,
                      "message": hidden.text, "output": ""})
    return {"gradable": True, "score": round(outcome.fraction, 6),
            "message": f"{outcome.score:g}/{outcome.max_score:g} points",
            "output": outcome.summary, "tests": tests}


def _trimmed(results: dict[str, Any], limit: int | None, images: bool) -> dict[str, Any]:
    if limit is None and images:
        return results
    cut = (lambda text: safe_text(text, limit)) if limit is not None else (lambda text: text)
    tests = []
    for test in results.get("tests", []):
        test = dict(test, output=cut(test["output"]), message=cut(test["message"]))
        if not images:
            test.pop("images", None)
        tests.append(test)
    note = f"{results['message']}\n{TRIMMED_NOTE}"
    return dict(results, output=cut(results["output"]), message=note, tests=tests)


def serialize(results: dict[str, Any]) -> bytes:
    """The results as UTF-8 JSON of at most ``MAX_BYTES``: feedback shortened, then images
    dropped, then every text cut, until it fits (a note says so)."""
    for images in (True, False):
        for limit in _TRIMS:
            data = json.dumps(_trimmed(results, limit, images), ensure_ascii=False,
                              indent=1).encode("utf-8")
            if len(data) <= MAX_BYTES:
                return data
    # Only the test list itself can still be too large (thousands of cases): keep the score.
    bare = dict(_trimmed(results, 0, False), tests=[])
    return json.dumps(bare, ensure_ascii=False).encode("utf-8")


def render(outcome: GradingOutcome) -> bytes:
    return serialize(document(outcome))
