"""Terminal rendering of a results document, for students running ``gamegrader check`` (and
``grade --show``): a test written in Markdown is shown as the text it holds."""
from __future__ import annotations

import textwrap
from typing import Any

from harness.grading.feedback import output_text, points_text
from harness.intake.python_version import NEWER_PYTHON
from harness.wire.safe_text import safe_text


def total_line(earned: Any, possible: Any, document: dict[str, Any], label: str) -> str:
    """``label: earned/possible points``, flagged when the code needs a newer Python than
    Gradescope's (``python_version.NEWER_PYTHON``): a score it would not keep there."""
    note = document.get("extra_data", {}).get(NEWER_PYTHON)
    flag = f" ({note})" if note else ""
    return f"{label}: {points_text(earned)}/{points_text(possible)} points{flag}"


def render(document: dict[str, Any], *, color: bool = False) -> str:
    """A readable table of cases, the feedback of each failure, and the total."""
    green, red, reset = ("\033[32m", "\033[31m", "\033[0m") if color else ("", "", "")
    lines = [safe_text(document.get("output", "")).rstrip(), ""]
    earned = possible = 0.0
    for test in document.get("tests", []):
        passed = test.get("status") == "passed"
        mark = f"{green}PASS{reset}" if passed else f"{red}FAIL{reset}"
        score, maximum = test.get("score", 0), test.get("max_score", 0)
        earned += score
        possible += maximum
        lines.append(f"{mark} {test.get('number', ''):>6} {safe_text(test.get('name', ''))}  "
                     f"[{points_text(score)}/{points_text(maximum)}]")
        if not passed:
            body = safe_text(output_text(test)).split("\n", 1)
            detail = body[1] if len(body) > 1 else body[0]
            lines.append(textwrap.indent(detail.rstrip(), " " * 12))
    lines.append("")
    lines.append(total_line(earned, possible, document, "Total on the cases run here"))
    return "\n".join(lines)
