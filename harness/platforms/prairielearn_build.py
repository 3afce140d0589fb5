"""What a PrairieLearn course copies into its repository for one assignment
(``gamegrader build --platform prairielearn``).

- ``questions/NAME/``: ``info.json`` (external grading: the image, its entry point and
  timeout), ``question.html`` (the file upload element and the grader's results) and
  ``tests/`` (``gamegrader.json``: the assignment and its budget, which PrairieLearn mounts at
  ``/grade/tests``; ``visible_cases.json``: the cases students see, by number, name and points).
- ``image/``: the build context of the grader image: the autograder's files (hidden cases
  included: keep the image private), a Dockerfile from a Python base image, and the entry
  point ``run_prairielearn``.
"""
from __future__ import annotations

import json
import uuid
from html import escape
from pathlib import Path

from harness.records.spec import Assignment, Visibility
from harness.release.build import Built, autograder_files, write_folder
from harness.spec import find_assignment
from harness.spec.loader import load_all_cases

INSTALL_ROOT = "/opt/gamegrader"
ENTRY_POINT = f"{INSTALL_ROOT}/run_prairielearn"
MAX_TIMEOUT = 600
"""PrairieLearn stops a grading job after at most 600 s."""
TIMEOUT_MARGIN = 30
"""Seconds of the job's timeout kept for starting and writing the results."""
BASE_IMAGE = "python:3.10-slim"

DOCKERFILE = f"""\
# PrairieLearn external grader image for one assignment (gamegrader build --platform
# prairielearn):  docker build -t IMAGE .   then push IMAGE where the course's PrairieLearn
# pulls images from. Keep it private: it contains the hidden cases.
FROM {BASE_IMAGE}
ENV AUTOGRADER_ROOT={INSTALL_ROOT}
COPY . {INSTALL_ROOT}/source
RUN bash {INSTALL_ROOT}/source/setup.sh \\
    && {INSTALL_ROOT}/gamegrader-venv/bin/python -m pip install --quiet "pillow>=10.1" \\
    && cp {INSTALL_ROOT}/source/run_prairielearn {ENTRY_POINT} \\
    && chown root:root {ENTRY_POINT} && chmod 755 {ENTRY_POINT}
"""
RUN_PRAIRIELEARN = f"""\
#!/usr/bin/env bash
# PrairieLearn's entry point: grade /grade/student into /grade/results/results.json.
exec {INSTALL_ROOT}/gamegrader-venv/bin/python -m harness prairielearn --root /grade
"""


def timeout_and_budget(assignment: Assignment) -> tuple[int, float]:
    """PrairieLearn's job timeout (at most 600 s) and the grading's budget inside it."""
    timeout = min(MAX_TIMEOUT, int(assignment.budget) + TIMEOUT_MARGIN)
    return timeout, float(min(assignment.budget, timeout - TIMEOUT_MARGIN))


def question_html(assignment: Assignment) -> str:
    files = ", ".join(f"<code>{escape(name)}</code>" for name in assignment.submission_files)
    return (f"<pl-question-panel>\n  <p>{escape(assignment.title)}: upload {files}. It is "
            "graded by gamegrader on the visible and hidden cases.</p>\n"
            "</pl-question-panel>\n\n"
            f'<pl-file-upload file-names="{escape(",".join(assignment.submission_files))}">'
            "</pl-file-upload>\n\n<pl-submission-panel>\n"
            "  <pl-external-grader-results></pl-external-grader-results>\n"
            "</pl-submission-panel>\n")


def question_entries(assignment: Assignment, image: str) -> dict[str, bytes | Path]:
    timeout, budget = timeout_and_budget(assignment)
    info = {"uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"gamegrader:{assignment.name}")),
            "title": assignment.title, "topic": "Autograded", "tags": ["gamegrader"],
            "type": "v3", "singleVariant": True, "gradingMethod": "External",
            "externalGradingOptions": {"enabled": True, "image": image,
                                       "entrypoint": ENTRY_POINT, "timeout": timeout}}
    visible = [{"number": case.number, "name": case.title, "points": case.points}
               for case in load_all_cases(assignment) if case.visibility is Visibility.VISIBLE]
    base = f"questions/{assignment.name}"
    return {
        f"{base}/info.json": _json(info),
        f"{base}/question.html": question_html(assignment).encode(),
        f"{base}/tests/gamegrader.json": _json({"assignment": assignment.name,
                                                "budget": budget}),
        f"{base}/tests/visible_cases.json": _json(visible),
    }


def _json(data: object) -> bytes:
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def build_prairielearn(name: str, out: Path, image: str | None = None) -> Built:
    """Write the question folder and the image's build context for ``name`` into ``out``
    (replaced).

    Raises:
        SpecError: the assignment is unknown or its specs are broken.
    """
    assignment = find_assignment(name)
    image = image or f"gamegrader-{name.replace('_', '-')}"
    entries: dict[str, bytes | Path] = question_entries(assignment, image)
    for entry, path in autograder_files(assignment).items():
        entries[f"image/{entry}"] = path
    entries["image/ASSIGNMENT"] = f"{name}\n".encode()
    entries["image/Dockerfile"] = DOCKERFILE.encode()
    entries["image/run_prairielearn"] = RUN_PRAIRIELEARN.encode()
    built = Built(out, write_folder(out, entries))
    (out / "image" / "run_prairielearn").chmod(0o755)
    built.notes.append(f"next: docker build -t {image} {out / 'image'}, push it where your "
                       f"PrairieLearn pulls images, and copy {out / 'questions' / name} into "
                       "the course's questions/ (keep the image private: it contains the "
                       "hidden cases)")
    return built
