"""TAP 14 (CI) from an outcome: a version line, the plan, one test point per visible case and
one for the hidden cases together, each not passed with a YAML block (2-space indented,
between ``---`` and ``...``) holding its verdict, points and feedback."""
from __future__ import annotations

from typing import Any

import yaml

from harness.platforms.outcome import HIDDEN_NAME, GradingOutcome


def description(text: str) -> str:
    """A test point's description: one line, with ``\\`` and ``#`` escaped as TAP 14 asks."""
    line = " ".join(text.split())
    return line.replace("\\", "\\\\").replace("#", "\\#")


def _block(fields: dict[str, Any]) -> list[str]:
    dumped = yaml.safe_dump(fields, allow_unicode=True, sort_keys=False, width=100)
    return ["  ---", *(f"  {line}" for line in dumped.rstrip("\n").split("\n")), "  ..."]


def render(outcome: GradingOutcome) -> bytes:
    points: list[tuple[bool, str, dict[str, Any]]] = []
    for case in outcome.shown:
        points.append((case.passed, f"{case.number} {case.name}".strip(), {
            "message": case.headline, "severity": "fail", "verdict": case.verdict,
            "points": case.points, "max_points": case.max_points, "feedback": case.feedback}))
    hidden = outcome.hidden
    if hidden is not None:
        points.append((hidden.passed == hidden.count, HIDDEN_NAME, {
            "message": hidden.text, "severity": "fail", "points": hidden.points,
            "max_points": hidden.max_points}))
    lines = ["TAP version 14", f"1..{len(points)}"]
    if outcome.fault or outcome.ungradable:
        lines.insert(1, f"# {description(outcome.fault or outcome.ungradable)}")
    for number, (passed, title, fields) in enumerate(points, 1):
        lines.append(f"{'ok' if passed else 'not ok'} {number} - {description(title)}")
        if not passed:
            lines.extend(_block(fields))
    lines.append(f"# score {outcome.score:g}/{outcome.max_score:g}")
    return ("\n".join(lines) + "\n").encode("utf-8")
