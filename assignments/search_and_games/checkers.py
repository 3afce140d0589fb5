"""Comparators for Homework 2 answers that are right in more than one way.

Each is ``compare(case, observations, reveal) -> Judgement`` (docs/architecture.md) and judges
the value of the case's last example, which the worker decoded into plain data. Student values
are parsed strictly (a list of tuples of ints, a list of lists of bools) and then replayed; the
case's ``options``, written by ``generators.py``, hold the inputs and the reference's optimum,
and for Lights Out the rules of the board's size as data (``precomputed``: what each press
toggles and which boards can be solved, stored by ``gamegrader generate`` from
:func:`assignments.search_and_games.lights_out_algebra.precomputed`). So this module imports no
rules and no solver, and the student package holds it. Feedback names the first thing that is
wrong. The length difference from the optimum is named even in hidden cases (issue 3 asks for it);
the optimal answer never is.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Mapping, Sequence

from assignments.search_and_games.grid_geometry import (
    Point,
    Scene,
    grid_mask,
    is_on_scene,
    is_step,
    parse_scene,
    path_length,
)
from harness import per_example, show
from harness.compare.text import normalize_text
from harness.records.observations import Observation
from harness.records.spec import Case
from harness.records.verdicts import Judgement

Board = tuple[tuple[bool, ...], ...]
"""A Lights Out board, ``board[row][col]`` True for a light on."""
Move = tuple[int, int]

DEFAULT_TOLERANCE = 1e-6
REPLAY_LIMIT = 10_000
"""Longest answer replayed when any valid (not only optimal) answer is accepted."""
UNEXPECTED_SHOWN = 8
"""Unexpected printed lines quoted in the feedback of ``unordered_lines``."""
PROPERTIES = {
    "solvable": "every scrambled board can be solved",
    "changes": "scrambling changes the board",
    "seeds_differ": "different seeds give different boards",
}


class _Refusal(ValueError):
    """A student value is not of the shape the handout asks for (the message says why)."""


def _final_value(case: Case, observations: Sequence[Observation]) -> Observation:
    """The observation of the case's last example.

    Raises:
        _Refusal: the transcript stopped early or the last example raised.
    """
    if observations and observations[-1].error is not None:
        where = case.examples[len(observations) - 1].prompt
        raise _Refusal(f"{where}\n  raised {observations[-1].error.describe()}")
    if len(observations) < len(case.examples):
        raise _Refusal(f"{case.examples[-1].prompt}\n  was not reached")
    return observations[-1]


def _points(value: Any, what: str) -> list[tuple[int, int]]:
    """A student's list of (row, col) tuples of ints, checked.

    Raises:
        _Refusal: naming the first element that is not a tuple of two ints.
    """
    if type(value) is not list:
        raise _Refusal(f"expected a list of (row, col) tuples as {what}; got {show(value)}")
    for index, item in enumerate(value):
        if type(item) is not tuple or len(item) != 2 or any(type(x) is not int for x in item):
            raise _Refusal(f"element {index} of {what}, {show(item)}, is not a (row, col) tuple "
                           f"of two ints")
    return value


def _bool_grid(value: Any, rows: int, cols: int, what: str) -> Board:
    """A student's rows x cols list of lists of bools, checked, as a tuple of tuples.

    Raises:
        _Refusal: the value is not such a grid.
    """
    if type(value) is list and len(value) == rows and all(
            type(row) is list and len(row) == cols and all(type(x) is bool for x in row)
            for row in value):
        return tuple(tuple(row) for row in value)
    raise _Refusal(f"{what} is {show(value)}, not a {rows}x{cols} list of lists of True/False")


def _grid_option(options: Mapping[str, Any], key: str) -> tuple[tuple[bool, ...], ...]:
    """A board or scene stored in options as rows of ``.``/``X`` (X = on / obstacle).

    Raises:
        ValueError: the option is malformed (an instructor's error, reported by the harness).
    """
    return parse_scene("\n".join(options[key]))


def _facts(options: Mapping[str, Any]) -> Mapping[str, Any]:
    """The board's rules as data (``precomputed``: ``toggles``, ``null_basis``).

    Raises:
        ValueError: the case lacks them (an instructor's error: the case needs ``precompute:
            assignments.search_and_games.lights_out_algebra:precomputed`` and a generate run).
    """
    facts = options.get("precomputed")
    if not isinstance(facts, Mapping) or not {"toggles", "null_basis"} <= facts.keys():
        raise ValueError("a Lights Out case needs 'precompute: assignments.search_and_games."
                         "lights_out_algebra:precomputed' (run 'gamegrader generate')")
    return facts


def _point_option(options: Mapping[str, Any], key: str) -> Point:
    row, col = options[key]
    return int(row), int(col)


Judge = Callable[[Mapping[str, Any], Observation, bool, bool], Judgement]
"""``judge(options, observation, reveal, optimal)``; ``optimal=False`` accepts any valid answer."""


def _comparator(judge: Judge) -> Callable[[Case, Sequence[Observation], bool], Judgement]:
    """A comparator judging the case's last example with ``judge``; a _Refusal earns 0.

    If the options hold ``sanity`` (options of the same kind plus ``example``, the index of an
    earlier example of the transcript), that example must first get a valid answer, optimal or
    not. Cases whose answer is None carry one, so that a stub that always returns None does not
    earn their points.
    """

    def compare(case: Case, observations: Sequence[Observation], reveal: bool) -> Judgement:
        try:
            final = _final_value(case, observations)
            sanity = case.options.get("sanity")
            if sanity is not None:
                index = sanity["example"]
                if "precomputed" in case.options:  # the sanity board's own rules as data
                    sanity = {**sanity, "precomputed": case.options["precomputed"]["sanity"]}
                try:
                    gate = judge(sanity, observations[index], reveal, False)
                except _Refusal as refusal:
                    gate = Judgement(0.0, str(refusal))
                if gate.fraction < 1.0:
                    return Judgement(0.0, f"{case.examples[index].prompt}\n  {gate.message}"
                                          "\n  (this easy call must give a valid answer before "
                                          "None earns points)")
            return judge(case.options, final, reveal, True)
        except _Refusal as refusal:
            return Judgement(0.0, str(refusal))

    compare.__doc__ = judge.__doc__
    compare.__name__ = judge.__name__.lstrip("_")
    return compare


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _judge_solution(options: Mapping[str, Any], observation: Observation, reveal: bool,
                    optimal: bool) -> Judgement:
    """``find_solution``: any optimal list of moves, or None exactly for an unsolvable board.

    Options: ``board`` (rows of ``.``/``X``, X for a light on), ``length`` (the optimal number
    of moves, or None when the board cannot be solved) and ``sanity`` (see ``_comparator``).
    """
    board: Board = _grid_option(options, "board")
    rows, cols = len(board), len(board[0])
    toggles = _facts(options)["toggles"]
    optimum: int | None = options["length"]
    if not observation.has_value:
        if optimum is None:
            return Judgement(1.0)
        return Judgement(0.0, "returned None, but this board can be solved")
    moves: list[Move] = _points(observation.value, "the solution")
    cells = rows * cols
    if len(moves) > (cells if optimal else REPLAY_LIMIT):  # also bounds the replay's time
        return Judgement(0.0, f"your {_plural(len(moves), 'move')} are more than the board's "
                              f"{cells} lights: pressing a light twice undoes it")
    lights = grid_mask(board)
    for index, (row, col) in enumerate(moves):
        if not (0 <= row < rows and 0 <= col < cols):
            return Judgement(0.0, f"move {index}, {(row, col)}, is off the {rows}x{cols} board")
        lights ^= toggles[row * cols + col]
    if lights:
        lit = bin(lights).count("1")
        message = f"after your {_plural(len(moves), 'move')}, {_plural(lit, 'light')} still on"
        if optimum is None and reveal:
            message += "; this board cannot be solved, so the answer is None"
        return Judgement(0.0, message)
    if optimal and optimum is not None and len(moves) > optimum:
        return Judgement(0.0, f"your {_plural(len(moves), 'move')} solve the board, but an "
                              f"optimal solution has {len(moves) - optimum} fewer")
    return Judgement(1.0)


def _judge_path(options: Mapping[str, Any], observation: Observation, reveal: bool,
                optimal: bool) -> Judgement:
    """``find_path``: any optimal 8-connected path, or None exactly when there is none.

    Options: ``scene`` (rows of ``.``/``X``), ``start`` and ``goal`` ([row, col]), ``length``
    (the optimal Euclidean length, or None when no path exists), optionally ``tolerance``
    (default 1e-6) and ``sanity`` (see ``_comparator``).
    """
    scene: Scene = _grid_option(options, "scene")
    start, goal = _point_option(options, "start"), _point_option(options, "goal")
    optimum: float | None = options["length"]
    if not observation.has_value:
        if optimum is None:
            return Judgement(1.0)
        return Judgement(0.0, "returned None, but a path exists")
    path = _points(observation.value, "the path")
    cells = len(scene) * len(scene[0])
    if len(path) > (cells if optimal else REPLAY_LIMIT):  # also bounds the replay's time
        return Judgement(0.0, f"the path has {len(path)} points, more than the scene's {cells} "
                              "cells, so it visits some cell twice")
    problem = _path_problem(scene, start, goal, path)
    if problem:
        return Judgement(0.0, problem)
    if optimum is None:
        return Judgement(0.0, "returned a path, but the answer is None")
    tolerance = float(options.get("tolerance", DEFAULT_TOLERANCE))
    length = path_length(path)
    if optimal and length > optimum + tolerance:
        return Judgement(0.0, f"the path is valid, but its length {length:.6f} is "
                              f"{length - optimum:.6f} longer than the shortest")
    return Judgement(1.0)


find_solution = _comparator(_judge_solution)
find_path = _comparator(_judge_path)


def _path_problem(scene: Scene, start: Point, goal: Point, path: list[Point]) -> str:
    """What is wrong with ``path`` as a walk from ``start`` to ``goal``, or "" if nothing."""
    if not path:
        return "the path is empty; it must list the start and the goal"
    if path[0] != start:
        return f"the path starts at {path[0]}, not at the start {start}"
    if path[-1] != goal:
        return f"the path ends at {path[-1]}, not at the goal {goal}"
    size = f"{len(scene)}x{len(scene[0])}"
    # The handout's path "should explicitly include both the start point and the goal point":
    # when they are one point, [start, goal] lists it twice, a path of length 0 like [start].
    both_ends = start == goal and len(path) == 2
    for index, point in enumerate(path):
        if not is_on_scene(scene, point):
            return f"point {index} of the path, {point}, is outside the {size} scene"
        if scene[point[0]][point[1]]:
            return f"point {index} of the path, {point}, is on an obstacle"
        if index and not is_step(path[index - 1], point) and not both_ends:
            return (f"step {index} of the path, {path[index - 1]} -> {point}, is not one of the "
                    f"8 moves")
    return ""


def _judge_scramble(options: Mapping[str, Any], observation: Observation, reveal: bool,
                    optimal: bool) -> Judgement:
    """``scramble``: one property of the boards of many seeded runs.

    Options: ``check`` (a key of :data:`PROPERTIES`) and ``start`` (the solvable board each run
    starts from, as rows of ``.``/``X``). The value judged is the list of boards after each run.
    """
    check = options["check"]
    start: Board = _grid_option(options, "start")
    rows, cols = len(start), len(start[0])
    runs = observation.value if observation.has_value else None
    if type(runs) is not list:
        raise _Refusal(f"expected the list of scrambled boards; got {show(runs)}")
    boards = [_bool_grid(board, rows, cols, f"the board after run {i}")
              for i, board in enumerate(runs)]
    failure = _property_failure(check, start, boards, _facts(options)["null_basis"])
    if failure:
        return Judgement(0.0, f"property failed: {PROPERTIES[check]}\n  {failure}")
    return Judgement(1.0)


scramble = _comparator(_judge_scramble)


def _property_failure(check: str, start: Board, boards: list[Board],
                      null_basis: Sequence[int]) -> str:
    """Why ``boards`` (one per seeded run from ``start``) break property ``check``, or "".
    A board can be solved exactly when it has an even number of lights on in each press set
    of ``null_basis`` (press sets that change nothing; see ``lights_out_algebra``)."""
    runs = len(boards)
    if check == "solvable":
        bad = next((i for i, board in enumerate(boards)
                    if any(bin(grid_mask(board) & unseen).count("1") % 2 for unseen in null_basis)),
                   None)
        if bad is None:
            return ""
        return (f"run {bad} gave {show([list(row) for row in boards[bad]])}, which cannot be "
                "solved; scramble should only call perform_move")
    if check == "changes":
        changed = sum(board != start for board in boards)
        return "" if 2 * changed >= runs else f"only {changed} of {runs} runs changed the board"
    if check == "seeds_differ":
        counts = Counter(boards)
        pairs = runs * (runs - 1) // 2
        equal = sum(n * (n - 1) // 2 for n in counts.values())
        if 2 * (pairs - equal) > pairs:
            return ""
        return (f"{runs} runs with different seeds gave only "
                f"{_plural(len(counts), 'distinct board')}")
    raise ValueError(f"unknown scramble check {check!r} (known: {', '.join(PROPERTIES)})")


def _check_unordered_lines(want: str, observation: Observation, options: Mapping[str, Any],
                           reveal: bool) -> Judgement:
    """Lines the transcript printed equal the expected ones in any order (whitespace within a
    line ignored); what the student's own code prints is not part of the answer."""
    if observation.error is not None:
        return Judgement(0.0, f"raised {observation.error.describe()}")
    wanted = Counter(normalize_text(line) for line in want.splitlines() if line.strip())
    output = observation.printed(bool(options.get("printing", False)))  # not debug lines
    printed = Counter(normalize_text(line) for line in output.splitlines()
                      if line.strip())
    if printed == wanted:
        return Judgement(1.0)
    missing, extra = wanted - printed, printed - wanted
    message = (f"printed {_plural(sum(printed.values()), 'line')}: "
               f"{sum(missing.values())} expected ones missing, {sum(extra.values())} unexpected")
    if reveal and missing:
        message += "\n  missing: " + "; ".join(sorted(missing))
    if extra:  # the student's own lines: always safe to show, and they say what went wrong
        shown = sorted(extra)
        message += "\n  unexpected (yours): " + "; ".join(shown[:UNEXPECTED_SHOWN]) + (
            f"; ... {len(shown) - UNEXPECTED_SHOWN} more" if len(shown) > UNEXPECTED_SHOWN else "")
    return Judgement(0.0, message)


unordered_lines = per_example(_check_unordered_lines)
"""Compare what each example printed with its expected lines, in any order (the handout lets
``successors`` yield in any order, and its example prints them)."""

__all__ = ["PROPERTIES", "find_path", "find_solution", "scramble", "unordered_lines"]
