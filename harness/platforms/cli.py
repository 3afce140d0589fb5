"""``--format`` and ``--submitted-at`` of ``gamegrader grade``: the grading's results written
as another platform's file."""
from __future__ import annotations

import argparse
from typing import Any

from harness.platforms import DEFAULT_FORMAT, FORMAT_NAMES
from harness.platforms.submitted import SUBMITTED_AT_ENV


def add_format_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=FORMAT_NAMES, default=DEFAULT_FORMAT,
                        help="the platform whose file --output gets (default: gradescope's "
                        "results.json; see docs/platforms.md)")
    parser.add_argument("--submitted-at", metavar="ISO_TIME", help="when the work was "
                        f"submitted, for the formats that show it (default: ${SUBMITTED_AT_ENV}, "
                        "the pushed commit's time on GitHub Actions, else the newest file's "
                        "modification time)")


def write_format(args: argparse.Namespace, document: dict[str, Any]) -> int:
    """Write ``document`` as ``args.format``'s file to ``args.output``; the exit status: 1
    for a grader failure on a platform that reads the status (Classroom 50), else 0.
    CodeGrade's Capture Points reads the fraction printed last."""
    from harness.platforms.formats import FORMATS, capture_points_line, write
    from harness.platforms.outcome import from_document
    from harness.platforms.submitted import submission_time
    outcome = from_document(document, args.assignment,
                            submission_time(args.submission, args.submitted_at))
    write(args.format, outcome, args.output)
    if args.format == "codegrade":
        print(capture_points_line(outcome))
    return 1 if outcome.fault and FORMATS[args.format].fault_exit else 0
