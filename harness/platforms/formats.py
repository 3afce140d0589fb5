"""Every platform's writer by name (``gamegrader grade --format NAME``), and writing one.

``gradescope`` writes the results document as it always has (``harness.grading.results``);
every other format renders the platform-neutral outcome (``harness.platforms.outcome``).
``codegrade`` is JUnit XML for CodeGrade's Unit Test step (written where
``$CG_JUNIT_XML_LOCATION`` says); its Capture Points step reads the 0-1 fraction the command
prints last (``capture_points_line``).
"""
from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from harness.grading import results as results_file
from harness.platforms import classroom50, junit, prairielearn, tap
from harness.platforms.outcome import GradingOutcome


@dataclass(frozen=True)
class Format:
    """A platform's file: how to render it, and its usual name (for a batch's files)."""

    render: Callable[[GradingOutcome], bytes] | None
    file_name: str
    fault_exit: bool = False
    """Whether the platform reads a non-zero exit status as an infrastructure error (and so
    the command exits 1 when the grader failed)."""


FORMATS: dict[str, Format] = {
    "gradescope": Format(None, "results.json"),
    "prairielearn": Format(prairielearn.render, "results.json"),
    "junit": Format(junit.render, "junit.xml"),
    "tap": Format(tap.render, "results.tap"),
    "classroom50": Format(classroom50.render, "result.json", fault_exit=True),
    "codegrade": Format(junit.render, "junit.xml"),
}
"""By name: every one of ``harness.platforms.FORMAT_NAMES``."""


def render(name: str, outcome: GradingOutcome) -> bytes:
    """The file of format ``name`` for ``outcome``, as bytes."""
    renderer = FORMATS[name].render
    if renderer is None:
        return results_file.serialize(results_file.checked(dict(outcome.document)))
    return renderer(outcome)


def write(name: str, outcome: GradingOutcome, path: Path) -> None:
    """Write the file of format ``name`` for ``outcome`` to ``path``, atomically."""
    if FORMATS[name].render is None:
        results_file.write(path, dict(outcome.document))
        return
    data = render(name, outcome)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def capture_points_line(outcome: GradingOutcome) -> str:
    """What CodeGrade's Capture Points step reads: the score as a 0-1 fraction, alone on the
    last line of the output."""
    return f"{outcome.fraction:.6f}"
