"""Comparators the stonehenge case files name (``assignments.stonehenge.checkers:NAME``).

Each is ``compare(case, observations, reveal) -> Judgement`` and looks only at decoded plain
data: printed text, and values type-checked with ``strict_equal``. Every example with expected
output is one check; a case earns the mean of its checks (or, for the all-or-nothing ones, full
credit only if every check is right), and its message explains the first failed check with the
lines that led to it. A check may pass with a remark (a board spaced differently from the
handout's layout), which the message then carries. With ``reveal`` False (every non-visible case) no
message quotes an expected board, value or move.

- :func:`board`: a printed board's cells and ley-line markers must be right, line by line, as the
  course's tests compared them; spacing that differs from the handout's layout earns full credit
  and a remark that shows the first such line.
- :func:`states`: a game played step by step; boards are compared by content (up to the symbols
  chosen for claimed cells and markers, which are the board group's business), values exactly,
  yes/no answers by their truth (``None`` is a no, as ``if`` and the course's ``assertFalse``
  read it).
- :func:`side_read`: the side read from ``stdin``, by the cells a new board shows.
- :func:`game`: the same, all or nothing: one wrong step means the rule under test is wrong, which
  a share of the checks would hide.
- :func:`rough_outcome`: ``1`` and ``-1`` must be returned as such; ``0`` in the transcript
  stands for "any number strictly between -1 and 1, or the position's true value"; credit per
  position.
- :func:`optimal_move`: a strategy's move must be one of the reference's optimal moves for the
  position in ``options``, found by ``gamegrader generate`` (the case's ``precompute``, see
  :mod:`assignments.stonehenge.positions`), so no comparator here solves anything and the module
  ships in the student package; with ``options.recursion``
  the value is ``find_recursion``'s ``(move, recursed)`` pair and recursion is checked too.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from assignments.stonehenge.board_text import (
    board_tokens,
    cell_labels,
    first_difference,
    framed,
    line_contents,
    same_content,
    spacing_note,
)
from harness import show, strict_equal
from harness.compare.builtin import parse_expected
from harness.records.observations import Observation
from harness.records.spec import Case, prompt
from harness.records.verdicts import Judgement
from harness.wire.codec import Opaque

Check = Callable[[str, Observation, bool], "tuple[float, str]"]
"""A check of one example: (expected output, observation, reveal) -> (credit 0..1, problem).
With credit 1 the text, if any, is a remark that costs nothing."""

_NOT_A_LITERAL = parse_expected("<")
"""What ``parse_expected`` returns for expected output that is not a Python literal."""
_CONTEXT_LINES = 2
_RIGHT = (1.0, "")


QUOTED_CHARS = 120
"""A quoted example line is cut to this many characters (a tree-game's encoded tree runs to
thousands), so the problem found is never buried under it."""


def _quoted(source: str) -> str:
    """An example's source for feedback in doctest form (``>>>``, then ``...`` lines), each
    line cut to ``QUOTED_CHARS``."""
    return "\n".join(line if len(line) <= QUOTED_CHARS else
                     f"{line[:QUOTED_CHARS]}... [{len(line) - QUOTED_CHARS} more characters]"
                     for line in prompt(source).split("\n"))


def _got(observation: Observation) -> str:
    if observation.has_value:
        return show(observation.value)
    return "nothing (the expression showed no value)"


def _wrong(problem: str) -> tuple[float, str]:
    return 0.0, problem


def _walk(case: Case, observations: Sequence[Observation], reveal: bool,
          check: Check, all_or_nothing: bool = False) -> Judgement:
    """Run ``check`` on every example with expected output; explain the first failure.

    Lines without expected output are context: the ones just before a failed check are quoted
    after it (the call and its problem come first; long lines are cut by ``_quoted``), and if
    one of them raised, that is what the message reports. With
    ``all_or_nothing`` the case earns 1 only if every check is fully right, else 0. The first
    remark of a passed check follows the failure (or stands alone when nothing failed).
    """
    credits: list[float] = []
    first_failure = ""
    first_remark = ""
    context: list[str] = []
    for index, example in enumerate(case.examples):
        source = _quoted(example.source)
        observation = observations[index] if index < len(observations) else None
        error = observation.error if observation is not None else None
        if not example.want.strip():
            if error is not None and not first_failure:
                first_failure = f"{source}\n  raised {error.describe()}"
            context.append(source)
            continue
        if observation is None:
            credit, problem = _wrong("was not reached")
        elif error is not None:
            credit, problem = _wrong(f"raised {error.describe()}")
        else:
            credit, problem = check(example.want, observation, reveal)
        credits.append(credit)
        if problem and credit >= 1.0:
            first_remark = first_remark or f"{source}\n  {problem}"
        elif problem and not first_failure:
            setup = context[-_CONTEXT_LINES:]
            first_failure = f"{source}\n  {problem}" + (
                "\n  after: " + "\n         ".join(setup) if setup else "")
        context = []
    fraction = sum(credits) / len(credits) if credits else 1.0
    if all_or_nothing and fraction < 1.0:
        fraction = 0.0
    if fraction == 1.0 and not first_failure:
        return Judgement(1.0, first_remark)
    right = sum(1 for credit in credits if credit >= 1.0)
    count = ""
    if len(credits) > 1:
        count = f"{right if all_or_nothing else sum(credits):g} of {len(credits)} checks right"
        count += " (all must be right: one wrong step means a wrong rule). " if all_or_nothing \
            else ". "
    message = f"{count}{'First problem:' if count else ''}\n{first_failure}".strip()
    return Judgement(fraction, f"{message}\n{first_remark}" if first_remark else message)


def _board_difference(want: str, printed: str, reveal: bool) -> str:
    """Explain a board whose content differs, quoting the expected board only if revealed."""
    index = first_difference(line_contents(want), line_contents(printed))
    where = f" (first on line {index + 1})" if index is not None else ""
    yours = framed(printed.rstrip("\n")) if printed.strip() else "(nothing printed)"
    head = f"the board's cells or ley-line markers differ{where} (spacing does not matter)"
    if reveal:
        return f"{head}\n  expected:\n{framed(want.rstrip(chr(10)))}\n  yours:\n{yours}"
    return f"{head}; yours:\n{yours}"


def _check_board(want: str, observation: Observation, reveal: bool) -> tuple[float, str]:
    """A printed board: right cells and markers line by line earn 1; other spacing is remarked."""
    printed = observation.printed()
    if board_tokens(printed) == board_tokens(want):
        return 1.0, spacing_note(want, printed)
    return _wrong(_board_difference(want, printed, reveal))


def _truths(value: Any) -> tuple[bool, ...] | None:
    """The truth of a yes/no answer, or of each of a tuple of them, as ``if answer:`` reads it;
    None for what has no plain truth (an object of the student's may define its own)."""
    items = value if type(value) in (tuple, list) else (value,)
    if any(isinstance(item, Opaque) for item in items):
        return None
    return tuple(bool(item) for item in items)


def _same_truth(expected: Any, observation: Observation) -> bool:
    """Whether a yes/no answer (``is_over``, ``is_winner``, ``is_valid_move``; bools or a tuple
    of them expected) has the expected truth. The course's tests read them with
    ``assertTrue``/``assertFalse`` and the interface with ``if``, so ``None`` or ``0`` for no
    and ``1`` for yes are right answers."""
    items = expected if type(expected) is tuple else (expected,)
    if not items or not all(type(item) is bool for item in items) or not observation.has_value:
        return False
    if (type(observation.value) in (tuple, list)) != (type(expected) is tuple):
        return False
    if type(expected) is tuple and len(observation.value) != len(expected):
        return False
    return _truths(observation.value) == items


def _check_value(want: str, observation: Observation, reveal: bool) -> tuple[float, str]:
    """A value, type-strictly equal to the literal expected output; yes/no answers by truth."""
    expected = parse_expected(want)
    if observation.has_value and strict_equal(expected, observation.value):
        return _RIGHT
    if _same_truth(expected, observation):
        return 1.0, (f"Full credit: {_got(observation)} has the truth of {show(expected)}, "
                     "which is how `if` and the course's tests read it.")
    if reveal:
        return _wrong(f"expected {show(expected)}, got {_got(observation)}")
    return _wrong(f"got {_got(observation)}, which is not the expected value")


def _check_state(want: str, observation: Observation, reveal: bool) -> tuple[float, str]:
    """A value (literal expected output) or a printed board compared by content."""
    if parse_expected(want) is not _NOT_A_LITERAL:
        return _check_value(want, observation, reveal)
    printed = observation.printed()
    if board_tokens(printed) == board_tokens(want):
        return _RIGHT
    if same_content(want, printed):
        return 1.0, ("Full credit here: your board shows the same cells and ley-lines with other "
                     "symbols; the board group judges the symbols.")
    return _wrong(_board_difference(want, printed, reveal))


_ROUGH_MEANING = {1: "1: a move wins at once",
                  -1: "-1: the game is over, or every move lets the opponent win at once",
                  0: "a number strictly between -1 and 1: no result is in sight"}


def _rough_check(case: Case, observations: Sequence[Observation]) -> Check:
    """The check of each ``rough_outcome`` example of ``case``, in order.

    Expected 1 or -1 (a result within two moves) must be that number. Expected 0 (none in
    sight) accepts any number strictly between, and also the position's true game value, which
    ``options.game_values`` holds per example where the generator could prove it (None where
    it could not: any number from -1 to 1 is then accepted, as nothing tells it wrong). The
    starter asks for "an estimate in [LOSE, WIN]", so a deeper look that finds the true result
    is right, and a 1 where the player to move loses is not.
    """
    checked = [observation for example, observation in zip(case.examples, observations)
               if example.want.strip()]
    truths = {id(observation): truth for observation, truth
              in zip(checked, case.options.get("game_values") or ())}

    def check(want: str, observation: Observation, reveal: bool) -> tuple[float, str]:
        expected = parse_expected(want)
        truth = truths.get(id(observation))
        value = observation.value
        if not observation.has_value or type(value) not in (int, float):
            return _wrong(f"got {_got(observation)}; rough_outcome must return a number")
        if expected != 0:
            right = value == expected
        elif truth is None:
            right = -1 <= value <= 1
        else:
            right = -1 < value < 1 or value == truth
        if right:
            return _RIGHT
        if reveal:
            meaning = _ROUGH_MEANING[expected]
            if expected == 0 and truth is not None:
                meaning += f" (or {truth:g}, the position's true value)"
            return _wrong(f"got {show(value)}; expected {meaning}")
        return _wrong(f"got {show(value)}, which is not right for this position")

    return check


def _check_side(want: str, observation: Observation, reveal: bool) -> tuple[float, str]:
    """A new game's board by the cells it shows (the side read), other values as states do."""
    if parse_expected(want) is not _NOT_A_LITERAL:
        return _check_value(want, observation, reveal)
    printed = observation.printed()
    if cell_labels(printed) == cell_labels(want):
        return _RIGHT
    shown = " ".join(cell_labels(printed)[:40]) or "none"
    return _wrong(f"the new board shows the cells {shown}, which is not the side given on the "
                  "input line" + (f" (expected {' '.join(cell_labels(want))})" if reveal else ""))


def side_read(case: Case, observations: Sequence[Observation], reveal: bool) -> Judgement:
    """The side length read from ``stdin``, seen in the cells a new board shows: its markers,
    strokes and symbols are the board group's business, so a bug there is not charged again."""
    return _walk(case, observations, reveal, _check_side)


def board(case: Case, observations: Sequence[Observation], reveal: bool) -> Judgement:
    """Printed boards by content, line by line; a spacing difference is only remarked."""
    return _walk(case, observations, reveal, _check_board)


def states(case: Case, observations: Sequence[Observation], reveal: bool) -> Judgement:
    """A game step by step: boards by content, other values type-strictly."""
    return _walk(case, observations, reveal, _check_state)


def game(case: Case, observations: Sequence[Observation], reveal: bool) -> Judgement:
    """A whole game step by step, like :func:`states`, scored all or nothing."""
    return _walk(case, observations, reveal, _check_state, all_or_nothing=True)


def rough_outcome(case: Case, observations: Sequence[Observation], reveal: bool) -> Judgement:
    """``rough_outcome`` values through a game, credit per position (see :func:`_rough_check`)."""
    return _walk(case, observations, reveal, _rough_check(case, observations))


def _move_problem(move: Any, accepted: tuple[Any, ...], reveal: bool) -> str:
    """Why ``move`` is not acceptable ("" when it is one of ``accepted``)."""
    if any(strict_equal(option, move) for option in accepted):
        return ""
    if type(move) is not type(accepted[0]):
        return f"returned {show(move)}; a move of this game is a {type(accepted[0]).__name__}"
    if reveal:
        return (f"returned {show(move)}, which does not guarantee the best score; "
                f"moves that do: {show(list(accepted))}")
    return f"returned {show(move)}, which does not guarantee the best score"


def _recursion_problem(recursed: Any, required: bool) -> str:
    """Why the probe's list of recursing functions breaks the rule ("" when it does not)."""
    if type(recursed) is not list or not all(type(name) is str for name in recursed):
        return "the recursion probe's report is malformed"
    if required and not recursed:
        return ("recursive_minimax_strategy must be recursive, but none of your functions "
                "called itself")
    if not required and recursed:
        names = ", ".join(name[:60] for name in recursed[:10])
        return ("iterative_minimax_strategy must not recurse (use an explicit stack), but "
                f"these functions of yours called themselves: {names}")
    return ""


def _strategy_check(options: Mapping[str, Any]) -> Check:
    """The check of one strategy-case example, for the position ``options`` name: its optimal
    moves were found by ``gamegrader generate`` (the case's ``precompute``), so this module
    solves nothing and can be given to students."""
    answer = options.get("precomputed")
    if not isinstance(answer, Mapping) or not answer.get("accepted"):
        raise ValueError("a strategy case needs 'precompute: assignments.stonehenge.positions:"
                         "precomputed' and its answer (run 'gamegrader generate')")
    accepted = tuple(answer["accepted"])

    def check(want: str, observation: Observation, reveal: bool) -> tuple[float, str]:
        expected = parse_expected(want)
        if type(expected) is bool:  # e.g. "same_position(g.current_state, before)"
            if observation.has_value and strict_equal(expected, observation.value):
                return _RIGHT
            return _wrong("game.current_state must be the position it was when the strategy "
                          "was called (the same object, or a copy of it put back)")
        if not observation.has_value:
            return _wrong("returned None instead of a move")
        if "recursion" not in options:
            problem = _move_problem(observation.value, accepted, reveal)
        elif type(observation.value) is not tuple or len(observation.value) != 2:
            problem = f"the recursion probe returned {show(observation.value)}"
        else:
            move, recursed = observation.value
            problem = (_recursion_problem(recursed, options["recursion"] == "required")
                       or _move_problem(move, accepted, reveal))
        return (0.0, problem) if problem else _RIGHT

    return check


_ERROR_HINTS = (
    ("RecursionError", "", "This game is deeper than Python's recursion limit: the iterative "
                           "strategy must keep its own stack instead of recursing."),
    ("ModuleNotFoundError", "'strategy'", "strategy.py was not found: submit it together with "
                                          "stonehenge.py."),
)
"""(exception type, text in its message, hint added to the feedback) for strategy cases."""


def optimal_move(case: Case, observations: Sequence[Observation], reveal: bool) -> Judgement:
    """A strategy's move must guarantee the best score in the position ``options`` name.

    Examples expecting ``True``/``False`` check that ``game.current_state`` is unchanged; every
    other example with expected output is a strategy call (its shown move is the reference's
    first optimal move, for readers; any optimal move passes).

    Raises:
        ValueError: ``options`` do not name a position (a broken case file).
    """
    judgement = _walk(case, observations, reveal, _strategy_check(case.options))
    errors = [o.error for o in observations if o.error is not None]
    hints = [hint for kind, text, hint in _ERROR_HINTS
             if any(e.type == kind and text in e.message for e in errors)]
    if not hints:
        return judgement
    return Judgement(judgement.fraction, "\n  ".join([judgement.message, *hints]))


__all__ = ["board", "game", "optimal_move", "rough_outcome", "side_read", "states"]
