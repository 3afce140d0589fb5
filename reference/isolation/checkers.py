"""Comparator for the generated ``choose_move`` cases: is the answer a legal move?

The legal moves come from ``case.options["legal"]`` (written by the generators from the
reference rules), as ``[[row, col], ...]``; an empty list means the player is stuck and must answer
``(None, None)``. The student's value is read with the referee's strict reader
(:func:`reference.games.isolation.parse_move`), so a case passes exactly when the same answer
would be accepted in a game. Legal moves are listed only when ``reveal`` is True.
"""
from __future__ import annotations

from typing import Any, Mapping

from harness import Judgement, Observation, per_example, show
from reference.games.isolation import ReplyError, parse_move


def check_move(want: str, observation: Observation, options: Mapping[str, Any],
               reveal: bool) -> Judgement:
    """Judge one ``choose_move`` answer against the position's legal moves."""
    if observation.error is not None:
        return Judgement(0.0, f"raised {observation.error.describe()}")
    legal = [(int(row), int(col)) for row, col in options["legal"]]
    try:
        move = parse_move(observation.value if observation.has_value else None)
    except ReplyError as error:
        return Judgement(0.0, f"not a move: {error}")
    if not legal:
        if move is None:
            return Judgement(1.0)
        return Judgement(0.0, f"returned {show(move)}, but the player has no legal move here: "
                              "the answer must be (None, None)")
    if move is None:
        return Judgement(0.0, f"returned (None, None), but the player has {len(legal)} legal "
                              f"move{'' if len(legal) == 1 else 's'}")
    if move in legal:
        return Judgement(1.0)
    hint = ("; legal moves: " + ", ".join(show(m) for m in legal)) if reveal else ""
    return Judgement(0.0, f"returned {show(move)}, which is not a legal move{hint}")


legal_move = per_example(check_move)
"""The comparator named in the spec: ``reference.isolation.checkers:legal_move``."""

__all__ = ["check_move", "legal_move"]
