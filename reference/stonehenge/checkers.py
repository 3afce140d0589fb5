"""Comparators the stonehenge case files name (``reference.stonehenge.checkers:NAME``).

Each is ``compare(case, observations, reveal) -> Judgement`` and looks only at decoded plain
data: printed text, and values type-checked with ``strict_equal``. With ``reveal`` False (every
non-visible case) no message quotes an expected board, value or move.

- :func:`board`: a printed board must match exactly; right content with wrong spacing earns half.
- :func:`states`: a game played step by step; boards are compared by content, other values
  exactly; the case earns the share of checks passed, and the first failure is explained.
- :func:`rough_outcome`: ``1`` and ``-1`` must be returned as such; ``0`` in the transcript
  stands for "any number strictly between -1 and 1".
- :func:`optimal_move`: a strategy's move must be one of the reference's optimal moves for the
  position in ``options`` (see :mod:`reference.stonehenge.positions`); with ``options.recursion``
  the value is ``find_recursion``'s ``(move, recursed)`` pair and recursion is checked too.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from harness import Case, Judgement, Observation, per_example, show, strict_equal
from harness.compare.builtin import parse_expected
from reference.stonehenge.board_text import board_tokens, framed, layout_hint
from reference.stonehenge.positions import accepted_moves

_NO_VALUE = "nothing (the expression showed no value)"
_NOT_A_LITERAL = parse_expected("<")
"""What ``parse_expected`` returns for expected output that is not a Python literal."""


def _got(observation: Observation) -> str:
    return show(observation.value) if observation.has_value else _NO_VALUE


def _is_literal(want: str) -> bool:
    return parse_expected(want) is not _NOT_A_LITERAL


def _check_board(want: str, observation: Observation, options: Mapping[str, Any],
                 reveal: bool) -> Judgement:
    """One printed board: exact text 1, same content with other spacing 0.5, else 0."""
    if observation.error is not None:
        return Judgement(0.0, f"raised {observation.error.describe()}")
    printed = observation.stdout
    if printed == want:
        return Judgement(1.0)
    if board_tokens(printed) == board_tokens(want):
        return Judgement(0.5, "the cells and ley-line markers are right, but the layout is "
                              f"not exact (half credit): {layout_hint(want, printed)}")
    if reveal:
        return Judgement(0.0, f"expected board ($ marks line ends):\n{framed(want.rstrip())}\n"
                              f"  your board:\n{framed(printed.rstrip()) if printed else '(nothing printed)'}")
    return Judgement(0.0, "the cells or ley-line markers differ from the expected board; "
                          f"your board:\n{framed(printed.rstrip()) if printed else '(nothing printed)'}")


def _stop_note(case: Case, observations: Sequence[Observation]) -> str:
    """Which line without expected output stopped the transcript, and what it raised ("" if
    none did). The per-example checks only see lines with expected output."""
    if not observations or observations[-1].error is None:
        return ""
    example = case.examples[len(observations) - 1]
    if example.want.strip():
        return ""
    return f">>> {example.source.strip()}\n  raised {observations[-1].error.describe()}"


def _noting_stops(compare: Any) -> Any:
    """Wrap a comparator so that its message starts with :func:`_stop_note`."""

    def wrapped(case: Case, observations: Sequence[Observation], reveal: bool) -> Judgement:
        judgement = compare(case, observations, reveal)
        note = _stop_note(case, observations)
        if not note:
            return judgement
        return Judgement(judgement.fraction, "\n".join(filter(None, [note, judgement.message])))

    wrapped.__doc__ = compare.__doc__
    return wrapped


board = _noting_stops(per_example(_check_board))


def _check_state_example(want: str, observation: Observation, reveal: bool) -> str:
    """Why one step-by-step example fails ("" when it passes)."""
    if observation.error is not None:
        return f"raised {observation.error.describe()}"
    if _is_literal(want):
        expected = parse_expected(want)
        if observation.has_value and strict_equal(expected, observation.value):
            return ""
        if reveal:
            return f"expected {show(expected)}, got {_got(observation)}"
        return f"got {_got(observation)}, which is not the expected value"
    if board_tokens(observation.stdout) == board_tokens(want):
        return ""
    yours = framed(observation.stdout.rstrip()) if observation.stdout else "(nothing printed)"
    if reveal:
        return (f"the board's cells or ley-line markers differ (spacing is ignored here)\n"
                f"  expected:\n{framed(want.rstrip())}\n  yours:\n{yours}")
    return f"the board's cells or ley-line markers differ (spacing is ignored here); yours:\n{yours}"


@_noting_stops
def states(case: Case, observations: Sequence[Observation], reveal: bool) -> Judgement:
    """A game step by step: each example with expected output is one check.

    Printed boards are compared by content (:func:`board_tokens`), other values type-strictly.
    The case earns the share of checks passed; checks after an exception were not reached.
    """
    judged = passed = 0
    first_failure = ""
    for index, example in enumerate(case.examples):
        if not example.want.strip():
            continue
        judged += 1
        if index >= len(observations):
            problem = "was not reached"
        else:
            problem = _check_state_example(example.want, observations[index], reveal)
        if not problem:
            passed += 1
        elif not first_failure:
            first_failure = f">>> {example.source.strip()}\n  {problem}"
    if passed == judged:
        return Judgement(1.0)
    return Judgement(passed / judged, f"{passed} of {judged} checks right. First failure:\n"
                                      f"{first_failure}")


_ROUGH_MEANING = {1: "a move wins at once", -1: "every move lets the opponent win at once "
                  "(or the game is over)", 0: "neither: a value strictly between -1 and 1"}


def _check_rough(want: str, observation: Observation, options: Mapping[str, Any],
                 reveal: bool) -> Judgement:
    """``rough_outcome``: exactly 1 or -1 where the reference sees a result, else in (-1, 1)."""
    if observation.error is not None:
        return Judgement(0.0, f"raised {observation.error.describe()}")
    expected = parse_expected(want)
    value = observation.value
    if not observation.has_value or type(value) not in (int, float):
        return Judgement(0.0, f"got {_got(observation)}; rough_outcome must return a number")
    right = -1 < value < 1 if expected == 0 else value == expected
    if right:
        return Judgement(1.0)
    if reveal:
        return Judgement(0.0, f"got {show(value)}; expected {_ROUGH_MEANING[expected]}"
                              f"{'' if expected == 0 else f' ({expected})'}")
    return Judgement(0.0, f"got {show(value)}, which is not right for this position")


rough_outcome = _noting_stops(per_example(_check_rough))


def _check_move(move: Any, accepted: tuple[Any, ...], reveal: bool) -> str:
    """Why ``move`` is not acceptable ("" when it is one of ``accepted``)."""
    if any(strict_equal(option, move) for option in accepted):
        return ""
    kind = type(accepted[0]).__name__
    if type(move) is not type(accepted[0]):
        return f"returned {show(move)}; a move of this game is a {kind}"
    if reveal:
        return (f"returned {show(move)}, which does not guarantee the best score; "
                f"moves that do: {show(list(accepted))}")
    return f"returned {show(move)}, which does not guarantee the best score"


def _check_recursion(recursed: Any, required: bool) -> str:
    """Why the recursion report breaks the rule ("" when it does not)."""
    if type(recursed) is not list or not all(type(name) is str for name in recursed):
        return "the recursion report is malformed"
    if required and not recursed:
        return ("recursive_minimax_strategy must be recursive, but none of your functions "
                "called itself")
    if not required and recursed:
        return ("iterative_minimax_strategy must not recurse (use an explicit stack), but "
                f"these functions of yours called themselves: {', '.join(recursed)}")
    return ""


def _judge_strategy_call(observation: Observation, options: Mapping[str, Any],
                         accepted: tuple[Any, ...], reveal: bool) -> str:
    if observation.error is not None:
        problem = f"raised {observation.error.describe()}"
        if observation.error.type == "RecursionError":
            problem += ("\n  This game is deeper than Python's recursion limit: the iterative "
                        "strategy must keep its own stack instead of recursing.")
        return problem
    if not observation.has_value:
        return "returned None instead of a move"
    if "recursion" not in options:
        return _check_move(observation.value, accepted, reveal)
    value = observation.value
    if type(value) is not tuple or len(value) != 2:
        return f"the recursion probe returned {show(value)}"
    return (_check_recursion(value[1], options["recursion"] == "required")
            or _check_move(value[0], accepted, reveal))


@_noting_stops
def optimal_move(case: Case, observations: Sequence[Observation], reveal: bool) -> Judgement:
    """A strategy's move: it must guarantee the best score in ``options``' position.

    Examples whose expected output is ``True``/``False`` (e.g. "``game.current_state`` is
    unchanged") are compared exactly; every other example with expected output is a strategy
    call. The case earns the share of examples passed.

    Raises:
        ValueError: ``options`` do not name a position (a broken case file).
    """
    accepted = accepted_moves(case.options)
    judged, problems = 0, []
    for index, example in enumerate(case.examples):
        if not example.want.strip():
            continue
        judged += 1
        if index >= len(observations):
            problems.append(f">>> {example.source.strip()}\n  was not reached")
            continue
        observation = observations[index]
        expected = parse_expected(example.want)
        if type(expected) is bool:
            problem = "" if observation.error is None and observation.has_value and \
                strict_equal(expected, observation.value) else (
                "game.current_state must be the same object after the strategy returns"
                if "current_state" in example.source else f"got {_got(observation)}")
        else:
            problem = _judge_strategy_call(observation, case.options, accepted, reveal)
        if problem:
            problems.append(f">>> {example.source.strip()}\n  {problem}")
    return Judgement((judged - len(problems)) / judged if judged else 1.0, "\n".join(problems))


__all__ = ["board", "optimal_move", "rough_outcome", "states"]
