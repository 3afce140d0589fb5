"""A failed case's position drawn for the student, by the game's own painter.

A case file names a trusted ``picture: "package.module:function"`` (as it names ``diagnose``);
for a failed case the grader calls ``function(case, observations, reveal)``, which returns the
position as plain text (a board with the handout's coordinates, the student's move marked) or
"" when it has nothing to draw. The harness knows no game: it only puts the text beside the
message (``harness.grading.feedback`` chooses the format). Like a message, a picture marks an
expected answer only when ``reveal`` is True.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Sequence

from harness.dotted import resolve_callable
from harness.records.observations import Observation
from harness.records.verdicts import Judgement


def with_picture(judgement: Judgement, case: Any, observations: Sequence[Observation],
                 reveal: bool) -> Judgement:
    """``judgement`` with the picture ``case.picture`` draws. Never raises: a painter that is
    missing (a student package without it) or fails leaves the judgement as it was."""
    try:
        picture = resolve_callable(case.picture)(case, observations, reveal)
    except Exception:  # a picture is a bonus; it must never cost the case
        return judgement
    if not isinstance(picture, str) or not picture.strip():
        return judgement
    return replace(judgement, picture=picture)
