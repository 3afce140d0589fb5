"""``python -m harness`` is the ``gamegrader`` command (so is the installed ``gamegrader``)."""
from __future__ import annotations

import sys

# Commands that grade: they start probing the sandbox before importing the grader, and skip
# the interpreter's teardown once their results are written.
_GRADING_COMMANDS = {"grade", "check", "gradescope"}


def run() -> int:
    """The command's entry point: the probe first, then the command line (``harness.cli.main``)."""
    grading = len(sys.argv) > 1 and sys.argv[1] in _GRADING_COMMANDS
    if grading:
        from harness.sandbox.levels import prefetch
        prefetch()
    from harness.cli.main import main
    status = main()
    if grading:  # every sandbox is closed and results.json written: no teardown needed
        from harness.quick_exit import exit_at_once
        exit_at_once(status, exit_handlers=True)
    return status


if __name__ == "__main__":
    sys.exit(run())
