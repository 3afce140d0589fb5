"""Comparators for the othello cases: optimal answers, move ordering, and caching.

They read the expected answers from ``case.options`` (written by the generators from the
reference), one entry per example that has expected output, in transcript order. They compare
decoded plain data only and never show expected values when ``reveal`` is False.

An answer entry is ``{"shape": "node" | "move" | "value" | "cutoff", "value": int, "moves": [[col, row], ...],
"color": 1 | 2}``, optionally with a ``"unit"`` label: the node's exact value for ``color`` and
every move reaching it (empty at a leaf, where there is no move to report). Examples sharing a
unit are graded together (each earns the lowest fraction of its unit): a generator pairs an
answer a constant could give (value 0, the corner (0, 0)) with one it cannot, so that a stub
earns nothing. Which forms each shape accepts, and why, is in ``docs/assignments/othello.md``.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any, Mapping, NamedTuple, Optional, Sequence

from harness import Case, Judgement, Observation, show, strict_equal
from harness.compare.builtin import check_doctest

NO_MOVE_FORMS: tuple[Any, ...] = (None, (), [])
"""What a node may return as its move where there is no move to report (the handout fixes none)."""

INSTRUMENTATION_DISABLED = "instrumentation disabled"
"""Prefix of the probe's report when student code tampered with the work counters."""


class _Graded(NamedTuple):
    """An example with expected output: its first source line, its expected text, and what it
    showed (None when execution stopped before it)."""

    source: str
    want: str
    observation: Optional[Observation]


def _graded(case: Case, observations: Sequence[Observation]) -> list[_Graded]:
    """The examples that have expected output, in transcript order."""
    graded = []
    for index, example in enumerate(case.examples):
        if example.want.strip():
            graded.append(_Graded(example.source.strip().splitlines()[0], example.want,
                                  observations[index] if index < len(observations) else None))
    return graded


def _is_square(value: Any, sequence_types: tuple[type, ...]) -> bool:
    return (type(value) in sequence_types and len(value) == 2
            and all(type(index) is int for index in value))


def _is_number(value: Any) -> bool:
    return type(value) in (int, float)


def _moves(answer: Mapping[str, Any]) -> list[tuple[int, int]]:
    return [(int(col), int(row)) for col, row in answer["moves"]]


def _check_move(move: Any, answer: Mapping[str, Any], reveal: bool,
                in_node: bool) -> Optional[str]:
    """None when ``move`` is one of the answer's moves (or a no-move form at a leaf), else why.

    ``select_move`` must return a ``(column, row)`` tuple, as the handout says; inside a node's
    pair a ``[column, row]`` list is accepted too.
    """
    best = _moves(answer)
    if not best:
        if any(move == form and type(move) is type(form) for form in NO_MOVE_FORMS):
            return None
        return f"the move should be None here (no move is searched), got {show(move)}"
    if not _is_square(move, (tuple, list) if in_node else (tuple,)):
        return f"the move should be a (column, row) tuple of ints, got {show(move)}"
    if tuple(move) in best:
        return None
    if reveal:
        return (f"move {show(move)} is not a best move; best: "
                + ", ".join(show(m) for m in best) + f" (value {answer['value']})")
    return f"move {show(move)} is not a best move"


def _check_cutoff(move: Any, answer: Mapping[str, Any], reveal: bool) -> Optional[str]:
    """None when a node that prunes returned a move showing the handout's search order.

    The generator chose ``beta`` (``answer["value"]``) so that the move a max node stops at
    differs between column-major order and highest-utility-first order.
    """
    if _check_move(move, answer, reveal=False, in_node=True) is None:
        return None
    if _is_square(move, (tuple, list)) and list(move) == list(answer["unordered"]):
        return (f"the search stopped at {show(move)}, the first move in column order whose "
                "value reaches beta: with ordering=1 the successors with the highest "
                "compute_utility for color must be searched first")
    if reveal:
        return (f"the search stopped at {show(move)}; searched highest utility first it stops at "
                + " or ".join(show(tuple(m)) for m in answer["moves"]))
    return f"the search stopped at {show(move)}, which is not where ordered alpha-beta stops"


def _check_value(value: Any, answer: Mapping[str, Any], reveal: bool) -> Optional[str]:
    if not _is_number(value):
        return f"the utility should be a number, got {show(value)}"
    if value == answer["value"]:
        return None
    if reveal:
        return f"utility {show(value)} should be {answer['value']}"
    side = "high" if value > answer["value"] else "low"
    return f"utility {show(value)} is not the node's value (yours is too {side})"


def judge_value(value: Any, answer: Mapping[str, Any], reveal: bool) -> tuple[float, str]:
    """Score one returned value against one answer entry: (fraction, problem or "").

    A value answer (node functions of the colour-only lineage) is the node's number, or the
    utility of a ``(move, utility)`` pair, all or nothing.
    A node answer (a ``(move, utility)`` tuple or ``[move, utility]`` list: the course's tests
    unpack the pair) earns half for the utility and half for the move, but nothing when it gives
    no move where there is one; a move answer is all or nothing.
    """
    if answer["shape"] == "move":
        problem = _check_move(value, answer, reveal, in_node=False)
        return (0.0, problem) if problem else (1.0, "")
    if answer["shape"] == "value":
        if type(value) in (tuple, list) and len(value) == 2:
            value = value[1]  # a (move, utility) pair: the colour-only lineage fixes no form
        problem = _check_value(value, answer, reveal)
        return (0.0, problem) if problem else (1.0, "")
    if type(value) not in (tuple, list) or len(value) != 2:
        return 0.0, f"expected a (move, utility) pair, got {show(value)}"
    if answer["shape"] == "cutoff":
        problem = _check_cutoff(value[0], answer, reveal)
        return (0.0, problem) if problem else (1.0, "")
    if value[0] is None and answer["moves"]:
        # no credit for the value alone: a stub's (None, 0) must not earn points
        return 0.0, "the move is None, but the player to move has legal moves"
    problems = [p for p in (_check_move(value[0], answer, reveal, in_node=True),
                            _check_value(value[1], answer, reveal)) if p]
    return 1.0 - 0.5 * len(problems), "; ".join(problems)


def judge_answer(observation: Optional[Observation], answer: Mapping[str, Any],
                 reveal: bool) -> tuple[float, str]:
    """:func:`judge_value` of what an example showed; an error or a missing example earns 0."""
    if observation is None:
        return 0.0, "not reached (an earlier example failed)"
    if observation.error is not None:
        return 0.0, f"raised {observation.error.describe()}"
    return judge_value(observation.value if observation.has_value else None, answer, reveal)


def unit_fractions(fractions: Sequence[float], answers: Sequence[Mapping[str, Any]]) -> list[float]:
    """Each fraction lowered to the lowest of its unit (answers without a unit stand alone)."""
    lowest: dict[Any, float] = defaultdict(lambda: 1.0)
    for fraction, answer in zip(fractions, answers):
        if "unit" in answer:
            lowest[answer["unit"]] = min(lowest[answer["unit"]], fraction)
    return [min(fraction, lowest[answer["unit"]]) if "unit" in answer else fraction
            for fraction, answer in zip(fractions, answers)]


def best_answers(case: Case, observations: Sequence[Observation], reveal: bool) -> Judgement:
    """Every graded example must show a best move / the exact node value (see module doc)."""
    answers = case.options["answers"]
    graded = _graded(case, observations)
    if len(answers) != len(graded):
        raise ValueError(f"case {case.id}: {len(graded)} graded examples but "
                         f"{len(answers)} answers in options")
    fractions, messages = [], []
    for (source, _, observation), answer in zip(graded, answers):
        fraction, problem = judge_answer(observation, answer, reveal)
        fractions.append(fraction)
        if problem:
            messages.append(f">>> {source}\n  {problem}")
    scored = unit_fractions(fractions, answers)
    if scored != fractions:
        messages.append("examples graded together earn only what the weakest of them earns")
    return Judgement(sum(scored) / len(scored), "\n".join(messages))


def every_example(case: Case, observations: Sequence[Observation], reveal: bool) -> Judgement:
    """Doctest comparison, all or nothing: one wrong example is a wrong rule for the case."""
    fractions, messages = [], []
    for source, want, observation in _graded(case, observations):
        if observation is None:
            fractions.append(0.0)
            messages.append(f">>> {source}\n  was not reached")
            continue
        verdict = check_doctest(want, observation, case.options, reveal)
        fractions.append(verdict.fraction)
        if verdict.message:
            messages.append(f">>> {source}\n  {verdict.message}")
    return Judgement(min(fractions, default=1.0), "\n".join(messages))


def _shown(observation: Optional[Observation]) -> Any:
    """The value an example showed (None when it raised, showed nothing or was not reached)."""
    if observation is None or observation.error is not None or not observation.has_value:
        return None
    return observation.value


def _as_tuples(value: Any) -> Any:
    """``value`` with every list made a tuple: a pair is the same answer in either form."""
    if type(value) in (list, tuple):
        return tuple(_as_tuples(item) for item in value)
    return value


def _move_of(node: Any) -> Any:
    """The move of a node's pair as a tuple, or None."""
    if type(node) in (tuple, list) and len(node) == 2 and _is_square(node[0], (tuple, list)):
        return tuple(node[0])
    return None


def _work_problem(off: Optional[Observation], on: Optional[Observation],
                  everything: Sequence[Optional[Observation]]) -> tuple[bool, str]:
    """(caching saved work, what was seen) from the probe's two reports; ``everything`` is
    every graded observation, searched for the probe refusing a tampering attempt."""
    for observation in everything:
        if observation is not None and observation.error is not None \
                and INSTRUMENTATION_DISABLED in observation.error.message:
            return False, observation.error.message
    reports = [_shown(off), _shown(on)]
    for report in reports:
        if type(report) is str and report.startswith(INSTRUMENTATION_DISABLED):
            return False, report
    off_counts, on_counts = (_work_counts(report) for report in reports)
    if off_counts is None or on_counts is None:
        return False, "could not read the work counts (an earlier example failed)"
    (calls_off, again_off), (calls_on, again_on) = off_counts, on_counts
    if calls_off == 0:
        return False, ("no calls into othello_shared were seen, so the work could not be "
                       "measured: search with the supplied helpers")
    summary = f"calls into othello_shared: {calls_off} without caching, {calls_on} with caching"
    if again_off is not None and again_on is not None:
        summary += (f"; positions explored again: {again_off} without caching, {again_on} "
                    "with caching")
    # Either shows the cache at work: fewer calls, or positions found in the cache and not
    # explored again (an alpha-beta cache holding pruned bounds can cost a few calls elsewhere).
    if calls_on < calls_off or (again_off is not None and again_on is not None
                                and again_on < again_off):
        return True, summary
    return False, summary + ("; the cache should save work: a position found in the cache is "
                             "not explored again")


def _work_counts(report: Any) -> Optional[tuple[int, Optional[int]]]:
    """(helper calls, positions explored again) from a probe report: the probe's pair, or a
    bare count of calls (then the second is unknown); None when it is neither."""
    if type(report) is int:
        return report, None
    if type(report) in (list, tuple) and len(report) == 2 \
            and all(type(count) is int for count in report):
        return report[0], report[1]
    return None


def _same_or_best(cached: Optional[Observation], uncached: Any, answer: Mapping[str, Any],
                  reveal: bool) -> tuple[bool, str]:
    """Whether a cached answer is right, or at least what the same search gave uncached."""
    fraction, problem = judge_answer(cached, answer, reveal)
    if fraction == 1.0:
        return True, ""
    value = _shown(cached)
    if cached is not None and cached.error is None and strict_equal(_as_tuples(uncached),
                                                                    _as_tuples(value)):
        return True, ""
    if cached is not None and cached.error is None and uncached is not None:
        return False, (f"caching changed the answer: {show(uncached)} without caching, "
                       f"{show(value)} with caching")
    return False, problem


def caching(case: Case, observations: Sequence[Observation], reveal: bool) -> Judgement:
    """Caching keeps the answers and saves work: all or nothing.

    Two layouts (see :mod:`reference.othello.generators`). One search: the graded examples are
    a node without caching, the probe's work, the same node with caching, the work again, then
    select_move with the cache; ``options.answers`` holds the three answer entries. Turns of a
    game: a list of select_move answers without caching, the work, the list with caching, the
    work; ``options.turns`` holds one move entry per turn. A cached answer passes when it is
    right or equal to the uncached one (a wrong search is charged in its own group), and the
    search with caching must make fewer calls into ``othello_shared``.
    """
    graded = [item.observation for item in _graded(case, observations)]
    problems: list[str] = []
    if "turns" in case.options:
        if len(graded) != 4:
            raise ValueError(f"case {case.id}: a caching-turns case needs 4 graded examples")
        answers = case.options["turns"]
        uncached, cached = _shown(graded[0]), _shown(graded[2])
        if graded[2] is not None and graded[2].error is not None:
            problems.append(f"with caching: raised {graded[2].error.describe()}")
        elif type(cached) is not list or len(cached) != len(answers):
            problems.append(f"with caching: expected a list of {len(answers)} moves, got "
                            f"{show(cached)}")
        else:
            before = uncached if type(uncached) is list and len(uncached) == len(answers) \
                else [None] * len(answers)
            for turn, (move, old, answer) in enumerate(zip(cached, before, answers), start=1):
                ok, problem = _same_or_best(Observation(value=move, has_value=move is not None),
                                            old, answer, reveal)
                if not ok:
                    problems.append(f"turn {turn} with caching: {problem}")
        saved, seen = _work_problem(graded[1], graded[3], graded)
    else:
        if len(graded) != 5:
            raise ValueError(f"case {case.id}: a caching case needs 5 graded examples")
        node, again, select = case.options["answers"]
        uncached = _shown(graded[0])
        ok, problem = _same_or_best(graded[2], uncached, again, reveal)
        if not ok:
            problems.append(f"the search with caching: {problem}")
        ok, problem = _same_or_best(graded[4], _move_of(uncached), select, reveal)
        if not ok:
            problems.append(f"select_move with the root in the cache: {problem}")
        saved, seen = _work_problem(graded[1], graded[3], graded)
    messages = problems + [seen]
    return Judgement(1.0 if saved and not problems else 0.0, "\n".join(messages))


__all__ = ["INSTRUMENTATION_DISABLED", "NO_MOVE_FORMS", "best_answers", "caching",
           "every_example", "judge_answer", "judge_value", "unit_fractions"]
