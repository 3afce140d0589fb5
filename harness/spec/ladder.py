"""The staff ladder as a case: ``ladder:`` in assignment.yaml becomes one graded case.

The ladder (played by ``harness.games.ladder``) is graded like any other case - on Gradescope,
by ``grade`` and in batches, inside the assignment's time budget - after the case files' cases.
Its points are the rungs' points; its time limit is the ladder's ``timeout`` (default: every
game at both full clocks plus 5 s, at most the case limit), scaled to the host's speed like a
limit relative to the reference.
"""
from __future__ import annotations

from typing import Any

from harness.records.spec import Assignment, Case, RelativeTimeout, Visibility
from harness.spec.schema import MAX_TIMEOUT

RUNNER = "harness.games.ladder:climb"
GROUP = "ladder"
DEFAULT_VISIBILITY = "after_due_date"
"""Shown once the due date has passed; ``hidden`` would hide the student's total on Gradescope
(docs/contract/gradescope.md), so it is never the default."""
GAME_OVERHEAD = 5.0
"""Seconds allowed per game beyond both clocks: a process to start, the referee's own work."""


def ladder_timeout(ladder: dict[str, Any]) -> float:
    """The ladder's time limit on the nominal machine (see the module docstring)."""
    if "timeout" in ladder:
        return float(ladder["timeout"])
    games = int(ladder["games"]) * len(ladder["rungs"])
    return min(float(MAX_TIMEOUT), games * (2 * float(ladder["clock"]) + GAME_OVERHEAD))


def ladder_case(assignment: Assignment, file_number: int) -> Case:
    """The assignment's ladder as a case numbered after its ``file_number - 1`` case files.

    The options are the ladder as given, with ``kit``, the assignment's game kit factory.
    """
    ladder = {**assignment.ladder, "kit": assignment.kit}
    bots = ", ".join(str(rung["bot"]) for rung in ladder["rungs"])
    name = f"staff ladder ({bots}; {ladder['games']} games each)"
    seconds = ladder_timeout(ladder)
    return Case(
        id=f"{GROUP}::{name}", number=f"{file_number}.1", group=GROUP, name=name,
        points=float(sum(float(rung["points"]) for rung in ladder["rungs"])),
        visibility=Visibility(ladder.get("visibility", DEFAULT_VISIBILITY)), timeout=seconds,
        relative_timeout=RelativeTimeout(0.0, seconds, 0.0),  # the floor alone, scaled
        file=assignment.folder / "assignment.yaml", examples=(), runner=RUNNER,
        options=ladder, alone=True)


__all__ = ["DEFAULT_VISIBILITY", "GAME_OVERHEAD", "GROUP", "RUNNER", "ladder_case",
           "ladder_timeout"]
