"""PrairieLearn's external grader entry point (``gamegrader prairielearn``).

PrairieLearn starts the course's image with the submission in ``/grade/student/``, the
question's ``tests/`` folder in ``/grade/tests/`` (the build puts ``gamegrader.json`` there: the
assignment and its time budget), ``serverFilesCourse`` in ``/grade/serverFilesCourse/`` and the
question's parameters in ``/grade/data/data.json``; it reads ``/grade/results/results.json``,
whose folder it does not create. The grading is the one every platform gets (a Gradescope
document written first, outside ``/grade/results``), written as PrairieLearn's results.
``--root`` replaces ``/grade`` so the whole flow runs in a temporary folder.
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any

from harness.platforms import prairielearn
from harness.platforms.formats import write
from harness.platforms.outcome import from_document

CONFIG = "gamegrader.json"
"""In the question's ``tests/`` folder: ``{"assignment": NAME, "budget": SECONDS}``."""
CONFIG_LIMIT = 65536


def _json_object(path: Path) -> dict[str, Any]:
    """A small JSON object file, or {} if it is missing, too large or not an object."""
    try:
        with open(path, "rb") as stream:
            data = json.loads(stream.read(CONFIG_LIMIT + 1)[:CONFIG_LIMIT])
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def job_settings(root: Path, given: str | None) -> tuple[str | None, float | None]:
    """The assignment (``--assignment``, else ``tests/gamegrader.json``, else the question's
    ``params.assignment`` in ``data/data.json``, else the image's own: ``$GAMEGRADER_ASSIGNMENT``
    or ``$AUTOGRADER_ROOT/source/ASSIGNMENT``) and the budget in seconds (None: the
    assignment's own)."""
    from harness.platforms.gradescope import assignment_name
    config = _json_object(root / "tests" / CONFIG)
    params = _json_object(root / "data" / "data.json").get("params")
    name = given or config.get("assignment") or (
        params.get("assignment") if isinstance(params, dict) else None) or assignment_name(
        Path(os.environ.get("AUTOGRADER_ROOT", "/autograder")), None)
    budget = config.get("budget")
    return (name if isinstance(name, str) and name else None,
            float(budget) if isinstance(budget, (int, float)) and budget > 0 else None)


def run(root: Path, given: str | None = None, budget: float | None = None) -> int:
    """Grade ``root/student`` into ``root/results/results.json``; always leaves valid results
    (``gradable: false`` when the grader is not configured or failed). Returns 0."""
    from harness.grading.api import GradingOptions, grade_to_file
    from harness.spec.run import RunContext
    output = root / "results" / "results.json"
    name, configured = job_settings(root, given)
    if name is None:
        _write(output, prairielearn.not_gradable(
            "The autograder is not configured (no assignment name in tests/gamegrader.json); "
            "please tell your instructor. No attempt was used."))
        return 0
    options = GradingOptions(budget=budget or configured, capped=True)
    with tempfile.TemporaryDirectory(prefix="gamegrader-pl-") as folder:
        run = RunContext(name, output=output)
        document = grade_to_file(run, root / "student", Path(folder) / "results.json", options)
    try:
        outcome = from_document(document, name)
        write("prairielearn", outcome, output)
    except Exception as exc:  # valid results whatever happens (grade_to_file's own rule)
        traceback.print_exc()
        _write(output, prairielearn.grader_failed(f"{type(exc).__name__}: {exc}"))
        return 0
    print(f"Graded {name}: score {outcome.score:g}/{outcome.max_score:g}", file=sys.stderr)
    return 0


def _write(output: Path, results: dict[str, Any]) -> None:
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_bytes(prairielearn.serialize(results))
