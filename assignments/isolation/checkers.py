"""Comparator for the ``choose_move`` cases: is each answer a legal move?

The legal moves come from the case's options, written by the generators from the reference rules,
as ``[[row, col], ...]``; an empty list means the player is stuck and must answer
``(None, None)``. A one-call case gives them as ``legal``; a case of several calls gives
``calls``, one such list per call, and passes only when every call is right (all or nothing: a
stuck position is always paired with one where the player can move, so that a constant
``(None, None)`` earns nothing). The student's value is read with the referee's strict reader
(:func:`assignments.isolation.replies.parse_move`), so a call passes exactly when the
same answer would be accepted in a game. A case may also list ``wins``: the moves after which the
opponent cannot move, where every other move lets the opponent win at once; then only those pass. Or
``safe``: the moves after which the opponent cannot win at once, where one of them wins by force
within three plies; then only those pass. Or ``forcing``: the moves that win by force (within
nine plies), where every other move lets the opponent force a win; then only those pass. Legal,
winning, safe and forcing moves are listed only when ``reveal`` is True.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from assignments.isolation.replies import ReplyError, parse_move
from harness import per_example, show
from harness.records.observations import Observation
from harness.records.spec import Case
from harness.records.verdicts import Judgement


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
    if move not in legal:
        hint = ("; legal moves: " + ", ".join(show(m) for m in legal)) if reveal else ""
        return Judgement(0.0, f"returned {show(move)}, which is not a legal move{hint}")
    for key, what in _REQUIRED.items():
        accepted = options.get(key)
        if accepted is not None and move not in [(int(row), int(col)) for row, col in accepted]:
            hint = (f"; {key}: " + ", ".join(show(tuple(m)) for m in accepted)) if reveal else ""
            return Judgement(0.0, f"returned {show(move)}, a legal move, but {what}{hint}")
    return Judgement(1.0)


_REQUIRED = {
    "wins": "here a move leaves the opponent without a move (an immediate win), and after any "
            "other move the opponent can do the same to you",
    "safe": "after it the opponent can leave you without a move at once, and another move wins "
            "by force within three plies",
    "forcing": "after it the opponent can force a win, and another move wins by force: a "
               "deeper search (five to nine plies) tells them apart",
}
"""Options naming the only right answers among the legal moves, with what a wrong one misses."""


_one_call = per_example(check_move)


def legal_move(case: Case, observations: Sequence[Observation], reveal: bool) -> Judgement:
    """The comparator named in the spec: ``assignments.isolation.checkers:legal_move``."""
    calls = case.options.get("calls")
    if calls is None:
        return _one_call(case, observations, reveal)
    judged = [i for i, example in enumerate(case.examples) if example.want.strip()]
    if len(judged) != len(calls):
        raise ValueError(f"options.calls lists {len(calls)} positions for {len(judged)} calls")
    for number, (index, legal) in enumerate(zip(judged, calls), start=1):
        source = case.examples[index].prompt
        if index >= len(observations):
            return Judgement(0.0, f"call {number}: {source}\n  was not reached")
        verdict = check_move(case.examples[index].want, observations[index], {"legal": legal},
                             reveal)
        if verdict.fraction < 1.0:
            return Judgement(0.0, f"call {number} of {len(calls)} (all must be right):\n"
                                  f"{source}\n  {verdict.message}")
    return Judgement(1.0)


__all__ = ["check_move", "legal_move"]
