"""``python -m harness`` is the ``gamegrader`` command (so is the installed ``gamegrader``)."""
from __future__ import annotations

import sys

# Commands that grade: they start probing the sandbox before importing the grader.
_GRADING_COMMANDS = {"grade", "check", "gradescope"}


def run() -> int:
    """The command's entry point: the probe first, then the command line (``harness.cli``)."""
    if sys.argv[1:2] and sys.argv[1] in _GRADING_COMMANDS:
        from harness.sandbox.levels import prefetch
        prefetch()
    from harness.cli import main
    return main()


if __name__ == "__main__":
    sys.exit(run())
