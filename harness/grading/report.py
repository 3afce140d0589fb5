"""Terminal rendering of a results document, for students running ``gamegrader check`` (and
``grade --show``): a test written in Markdown is shown as the text it holds."""
from __future__ import annotations

import textwrap
from typing import Any

from harness.grading.feedback import output_text
from harness.wire.safe_text import safe_text


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
                     f"[{score:g}/{maximum:g}]")
        if not passed:
            body = safe_text(output_text(test)).split("\n", 1)
            detail = body[1] if len(body) > 1 else body[0]
            lines.append(textwrap.indent(detail.rstrip(), " " * 12))
    lines.append("")
    lines.append(f"Total on the cases run here: {earned:g}/{possible:g} points")
    return "\n".join(lines)
