"""Comparators for the othello cases: optimal answers, and work counted with and without ordering.

Both read the expected answers from ``case.options`` (written by the generators from the
reference), one entry per example that has expected output, in transcript order. They compare
decoded plain data only and never show expected values when ``reveal`` is False.

An answer entry is ``{"shape": "node" | "move", "value": int, "moves": [[col, row], ...],
"color": 1 | 2}``: the node's exact value for ``color`` and every move reaching it (empty at a
leaf, where a node must return the move None). A ``node`` example must show ``(move, value)``;
a ``move`` example a ``(col, row)`` tuple. ``value`` for a ``move`` entry is the root's value.
"""
from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

from harness import Case, Judgement, Observation, show


def _graded(case: Case,
            observations: Sequence[Observation]) -> list[tuple[str, Optional[Observation]]]:
    """(first source line, observation or None if not reached) for examples with output."""
    graded = []
    for index, example in enumerate(case.examples):
        if example.want.strip():
            source = example.source.strip().splitlines()[0]
            graded.append((source, observations[index] if index < len(observations) else None))
    return graded


def _is_move(value: Any) -> bool:
    return (type(value) is tuple and len(value) == 2
            and all(type(index) is int for index in value))


def _is_number(value: Any) -> bool:
    return type(value) in (int, float)


def _moves(answer: Mapping[str, Any]) -> list[tuple[int, int]]:
    return [(int(col), int(row)) for col, row in answer["moves"]]


def _check_move(move: Any, answer: Mapping[str, Any], reveal: bool) -> Optional[str]:
    """None when ``move`` is one of the answer's moves (or None at a leaf), else why not."""
    best = _moves(answer)
    if not best:
        if move is None:
            return None
        return f"the move should be None here (no move is searched), got {show(move)}"
    if not _is_move(move):
        return f"the move should be a (column, row) tuple of ints, got {show(move)}"
    if move in best:
        return None
    if reveal:
        return (f"move {show(move)} is not a best move; best: "
                + ", ".join(show(m) for m in best) + f" (value {answer['value']})")
    return f"move {show(move)} is not a best move"


def _check_value(value: Any, answer: Mapping[str, Any], reveal: bool) -> Optional[str]:
    if not _is_number(value):
        return f"the utility should be a number, got {show(value)}"
    if value == answer["value"]:
        return None
    if reveal:
        return f"utility {show(value)} should be {answer['value']}"
    side = "high" if value > answer["value"] else "low"
    return f"utility {show(value)} is not the node's value (yours is too {side})"


def judge_answer(observation: Optional[Observation], answer: Mapping[str, Any],
                 reveal: bool) -> tuple[float, str]:
    """Score one observed answer against one answer entry: (fraction, problem or "").

    A node answer earns half for the value and half for the move, but nothing when it gives no
    move where there is one; a move answer is all or nothing.
    """
    if observation is None:
        return 0.0, "not reached (an earlier example failed)"
    if observation.error is not None:
        return 0.0, f"raised {observation.error.describe()}"
    value = observation.value if observation.has_value else None
    if answer["shape"] == "move":
        problem = _check_move(value, answer, reveal)
        return (0.0, problem) if problem else (1.0, "")
    if type(value) is not tuple or len(value) != 2:
        return 0.0, f"expected a (move, utility) tuple, got {show(value)}"
    if value[0] is None and answer["moves"]:
        # no credit for the value alone: a stub's (None, 0) must not earn points
        return 0.0, "the move is None, but the player to move has legal moves"
    problems = [p for p in (_check_move(value[0], answer, reveal),
                            _check_value(value[1], answer, reveal)) if p]
    fraction = 1.0 - 0.5 * len(problems)
    return fraction, "; ".join(problems)


def best_answers(case: Case, observations: Sequence[Observation], reveal: bool) -> Judgement:
    """Every graded example must show a best move / the exact node value (see module doc)."""
    answers = case.options["answers"]
    graded = _graded(case, observations)
    if len(answers) != len(graded):
        raise ValueError(f"case {case.id}: {len(graded)} graded examples but "
                         f"{len(answers)} answers in options")
    fractions, messages = [], []
    for (source, observation), answer in zip(graded, answers):
        fraction, problem = judge_answer(observation, answer, reveal)
        fractions.append(fraction)
        if problem:
            messages.append(f">>> {source}\n  {problem}")
    return Judgement(sum(fractions) / len(fractions), "\n".join(messages))


def _count(observation: Optional[Observation]) -> Optional[int]:
    """The call count an example showed, or None if it raised or showed no int."""
    if observation is None or observation.error is not None or not observation.has_value:
        return None
    return observation.value if type(observation.value) is int else None


def ordering_work(case: Case, observations: Sequence[Observation], reveal: bool) -> Judgement:
    """Ordering keeps a best move and expands fewer positions.

    The transcript's graded examples are, in order: the move with ordering off, the probe's
    count of calls to ``options.measure`` (the helper whose calls count as positions
    expanded), the move with ordering on, and the count again. ``options.answer`` is the
    answer entry for both moves.
    Half the credit is for the two moves, half for expanding strictly fewer positions.
    """
    graded = _graded(case, observations)
    if len(graded) != 4:
        raise ValueError(f"case {case.id}: an ordering case needs 4 graded examples")
    answer, measure = case.options["answer"], case.options["measure"]
    messages, earned = [], 0.0
    for source, observation in (graded[0], graded[2]):
        fraction, problem = judge_answer(observation, answer, reveal)
        earned += fraction / 4
        if problem:
            messages.append(f">>> {source}\n  {problem}")
    off, on = _count(graded[1][1]), _count(graded[3][1])
    if off is None or on is None:
        messages.append("could not read the probe's call counts (an earlier example failed)")
    elif off == 0:
        messages.append(f"no calls to othello_shared.{measure} were seen, so the work could "
                        "not be measured: search with the supplied helpers")
    else:
        summary = f"ordering on: {on} positions expanded, off: {off}"
        if on < off:
            earned += 0.5
            messages.append(summary)
        else:
            messages.append(f"{summary}; ordering should expand fewer positions")
    return Judgement(earned, "\n".join(messages))


__all__ = ["best_answers", "judge_answer", "ordering_work"]
