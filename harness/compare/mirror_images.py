"""Answers checked beyond the asked position: a hidden case may ask a visible case's position
mirrored or rotated (``mirror_of``, a symmetry of the game's rules, its answer computed by the
reference on the image). A file right on the shown position and wrong on its image has likely
kept the shown answers rather than searched: the image case says so in words, and the grading is
flagged for the instructor (``RIGHT_ONLY_WHERE_SHOWN`` in results.json's ``extra_data``, a note
in the batch status). Points stay with each case: the flag charges nothing. Runs once the whole
grading is done (``GradingSession.finish``), like ``harness.compare.diagnosis_groups``.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from harness.records.verdicts import CaseResult

RIGHT_ONLY_WHERE_SHOWN = "right_only_where_shown"
"""``extra_data`` key: the ids of the image cases failed whose shown case passed."""

MIRROR_MESSAGE = "Right on the handout's position, wrong on its mirror image."


def shown_only(results: Sequence[CaseResult]) -> list[str]:
    """The ids of the image cases failed where the visible case they mirror passed."""
    passed = {result.case.id for result in results if result.passed}
    return [result.case.id for result in results
            if result.case.mirror_of in passed and not result.passed]


def mark_mirror_images(results: Sequence[CaseResult]) -> list[CaseResult]:
    """``results`` with each image case of :func:`shown_only` telling the student so."""
    flagged = set(shown_only(results))
    return [replace(result, message="\n".join(filter(None, [MIRROR_MESSAGE, result.message])))
            if result.case.id in flagged else result for result in results]
