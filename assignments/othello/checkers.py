"""Comparators for the othello cases: optimal answers, move ordering, and caching.

They read the expected answers from ``case.options`` (written by the generators from the
reference), one entry per example that has expected output, in transcript order. They compare
decoded plain data only and never show expected values when ``reveal`` is False.

An answer entry is ``{"shape": "node" | "move" | "value" | "cutoff" | "ordered", "value": int,
"moves": [[col, row], ...], "color": 1 | 2}``, optionally with a ``"unit"`` label: the node's
exact value for ``color`` and every move reaching it (empty at a leaf, where there is no move to
report; an ``ordered`` entry lists only the best moves a root searching in the handout's order
chooses, a ``cutoff`` entry where a pruning node stops; both also hold ``best`` and
``unordered``; an ``ordered`` entry may hold ``shallower``, the moves a root one ply short of
the limit chooses in the handout's order, and ``one_ply_less``, those of them accepted because
they show the order as well; an ordering case may add ``options.deeper``, an ungraded
select_move one ply deeper that tells the two apart where ``shallower`` alone cannot, see
:func:`read_one_ply_deeper`). Examples sharing a unit are graded together (each earns the
lowest fraction of its unit): a generator pairs an answer a constant could give (value 0, the
corner (0, 0)) with one it cannot, so that a stub earns nothing. Which forms each shape
accepts, and why, is in ``assignments/othello/README.md``.
"""
from __future__ import annotations

import re
from collections import defaultdict
from typing import Any, Mapping, NamedTuple, Optional, Sequence

from harness import show, strict_equal
from harness.compare.builtin import check_doctest
from harness.records.observations import Observation
from harness.records.spec import Case, prompt
from harness.records.verdicts import Judgement
from reference.core.pictures import answer_of

NO_MOVE_FORMS: tuple[Any, ...] = (None, (), [])
"""What a node may return as its move where there is no move to report (the handout fixes none)."""

INSTRUMENTATION_DISABLED = "instrumentation disabled"
"""Prefix of the probe's report when student code tampered with the work counters."""


class _Graded(NamedTuple):
    """An example with expected output: its source in doctest form, its expected text, and
    what it showed (None when execution stopped before it)."""

    source: str
    want: str
    observation: Optional[Observation]


def _graded(case: Case, observations: Sequence[Observation]) -> list[_Graded]:
    """The examples that have expected output, in transcript order."""
    graded = []
    for index, example in enumerate(case.examples):
        if example.want.strip():
            graded.append(_Graded(example.prompt, example.want,
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
    """None unless a max node called with ordering in the window (-inf, beta) returned one of
    its best moves, which the handout's order never reaches before it stops.

    The handout fixes the order successors are searched in, not what a node returns when it
    stops early (its move, None, a bound), so that is never judged; a best move shows the node
    went on past where the handout's order stops (see ``generators.cutoff_entry``).
    """
    if not _is_square(move, (tuple, list)) or [*move] not in [list(m) for m in answer["best"]]:
        return None
    if list(move) == list(answer["unordered"]):
        return (f"the node returned {show(move)}, the first move in column order whose value "
                "reaches beta: with ordering=1 the successors with the highest compute_utility "
                "for color are searched first, and the search stops before any best move")
    return (f"the node returned {show(move)}, a best move, with beta below the best value: "
            "searched highest compute_utility first, alpha-beta stops at a successor reaching "
            "beta before it reaches a best move (does your max node prune once a value reaches "
            "beta?)")


def _check_ordered(move: Any, answer: Mapping[str, Any], reveal: bool) -> Optional[str]:
    """None when select_move with ordering chose as the handout's order makes a root choose.

    The generator (``ordered_entry``) picked a position where the root's choice shows the
    order searched: the first best move in column order is not among ``answer["moves"]``.
    What the message says is only what the answer shows (a best move or not, and which order
    would have chosen it), never a guess beyond it.
    """
    problem = _check_move(move, answer, reveal=False, in_node=False)
    if problem is None or not _is_square(move, (tuple,)):
        return problem
    shallower = (" (a root searching one ply less than the limit in that order chooses it "
                 "too, so this case cannot tell which)"
                 if [*move] in answer.get("shallower", []) else "")
    if list(move) == list(answer["unordered"]):
        return (f"the root chose {show(move)}, the first best move in column order, as a "
                "root that does not order its successors would: with ordering=1 the "
                "successors with the highest compute_utility for color are searched first, "
                "so a root chooses the first best move in that order" + shallower)
    if [*move] not in [list(m) for m in answer["best"]]:
        found = _check_move(move, {**answer, "moves": answer["best"]}, reveal, in_node=False)
        return f"{found}{shallower}" if found else found
    if reveal:
        return (f"{show(move)} is a best move, but searched highest compute_utility first the "
                "root chooses " + " or ".join(show(tuple(m)) for m in answer["moves"])
                + shallower)
    return (f"{show(move)} is a best move, but not the one a root searching highest "
            "compute_utility first chooses (searched in another order: reversed, by another "
            "key, or not at all)" + shallower)


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
    utility of a ``(move, utility)`` pair, all or nothing; a min node's ``mover_value`` (its
    value with ``color`` read as the player to move, which that starter does not fix) too.
    A node answer (a ``(move, utility)`` tuple or ``[move, utility]`` list: the course's tests
    unpack the pair) earns half for the utility and half for the move, but nothing when it gives
    no move where there is one; a move or ordered answer is all or nothing.
    """
    if answer["shape"] == "move":
        problem = _check_move(value, answer, reveal, in_node=False)
        return (0.0, problem) if problem else (1.0, "")
    if answer["shape"] == "value":
        if type(value) in (tuple, list) and len(value) == 2:
            value = value[1]  # a (move, utility) pair: the colour-only lineage fixes no form
        if _is_number(value) and value == answer.get("mover_value", value + 1):
            return 1.0, ""  # a min node's color read as the player to move: not fixed either
        problem = _check_value(value, answer, reveal)
        return (0.0, problem) if problem else (1.0, "")
    if answer["shape"] == "ordered":
        problem = _check_ordered(value, answer, reveal)
        if problem and _is_square(value, (tuple,)) \
                and list(value) in answer.get("one_ply_less", []):
            deeper = (f", and with limit {answer['deeper']} your root chose as that order does "
                      "one ply short of it, no move a search to that limit chooses"
                      if "deeper" in answer else "")
            return 1.0, (f"{show(value)} is what a root searching one ply less than the limit "
                         f"chooses in the handout's order{deeper}: the ordering is right; the "
                         "depth limit is charged in the depth_limit cases, not here")
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


def _deeper_move(case: Case, observations: Sequence[Observation]) -> Any:
    """What the ungraded select_move one ply deeper returned: the case's last example, shown
    without an answer, where ``options.deeper`` (``generators.one_ply_deeper``) says it has one;
    None where it has none or that example showed no value."""
    if not case.options.get("deeper") or not case.examples or case.examples[-1].want.strip() \
            or len(observations) < len(case.examples):
        return None
    observation = observations[len(case.examples) - 1]
    return observation.value if observation.error is None else None


def read_one_ply_deeper(answer: Mapping[str, Any], move: Any,
                        deeper: Mapping[str, Any]) -> Mapping[str, Any]:
    """An ordered ``answer`` as the select_move one ply deeper (``deeper``, see
    ``generators.one_ply_deeper``) reads it, where the root's choice alone cannot tell a root
    one ply short in the handout's order from an ordering mistake.

    There a search reaching the limit chooses a best move, whatever its order, and a root one
    ply short in the handout's order chooses one of ``deeper["moves"]``, none of them best: such
    a ``move`` credits every move of ``shallower`` (its ordering is right, its depth is charged
    in the depth-limit cases); a best ``move`` shows the root reaches the limit, so the feedback
    no longer names a root one ply short. Any other move says neither.
    """
    if answer["shape"] != "ordered" or not _is_square(move, (tuple,)):
        return answer
    if [*move] in deeper["best"]:
        return {**answer, "shallower": []}
    if [*move] in deeper["moves"]:
        return {**answer, "one_ply_less": answer.get("shallower", []), "deeper": deeper["limit"]}
    return answer


def best_answers(case: Case, observations: Sequence[Observation], reveal: bool) -> Judgement:
    """Every graded example must show a best move / the exact node value (see module doc); an
    ordered answer is read with the ungraded select_move one ply deeper where the case has one
    (:func:`read_one_ply_deeper`)."""
    answers = case.options["answers"]
    deeper = _deeper_move(case, observations)
    if deeper is not None:
        answers = [read_one_ply_deeper(answer, deeper, case.options["deeper"])
                   for answer in answers]
    graded = _graded(case, observations)
    if len(answers) != len(graded):
        raise ValueError(f"case {case.id}: {len(graded)} graded examples but "
                         f"{len(answers)} answers in options")
    fractions, messages = [], []
    for (source, _, observation), answer in zip(graded, answers):
        fraction, problem = judge_answer(observation, answer, reveal)
        fractions.append(fraction)
        if problem:
            messages.append(f"{source}\n  {problem}")
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
            messages.append(f"{source}\n  was not reached")
            continue
        verdict = check_doctest(want, observation, case.options, reveal)
        fractions.append(verdict.fraction)
        if verdict.message:
            messages.append(f"{source}\n  {verdict.message}")
    return Judgement(min(fractions, default=1.0), "\n".join(messages))


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


class _Work(NamedTuple):
    """One probe report: helper calls, positions explored again and successors generated (the
    last two unknown in a bare count of calls)."""

    calls: int
    again: Optional[int]
    plays: Optional[int]


def _work_counts(report: Any) -> Optional[_Work]:
    """A probe report as :class:`_Work`: the probe's triple, a pair (calls, explored again) or a
    bare count of calls; None when it is none of them."""
    if type(report) is int:
        return _Work(report, None, None)
    if type(report) in (list, tuple) and len(report) in (2, 3) \
            and all(type(count) is int for count in report):
        return _Work(report[0], report[1], report[2] if len(report) == 3 else None)
    return None


def _fewer(first: _Work, then: _Work, field: str) -> bool:
    """Whether ``then`` did less than ``first`` by ``field``, or by calls where it is unknown."""
    before, after = getattr(first, field), getattr(then, field)
    if before is None or after is None:
        return then.calls < first.calls
    return bool(after < before)


def _tampering(everything: Sequence[Optional[Observation]],
               reports: Sequence[Any]) -> str:
    """The probe's refusal of a tampering attempt, seen in any example, else ""."""
    for observation in everything:
        if observation is not None and observation.error is not None \
                and INSTRUMENTATION_DISABLED in observation.error.message:
            return observation.error.message
    for report in reports:
        if type(report) is str and report.startswith(INSTRUMENTATION_DISABLED):
            return report
    return ""


def _work_problem(windows: Sequence[Optional[Observation]],
                  everything: Sequence[Optional[Observation]]) -> tuple[bool, str]:
    """(caching is right, what was seen) from the probe's reports: the search without caching,
    the same search again without caching, with caching and (single searches) with caching
    again, the cache kept. ``everything`` is every graded observation, searched for the probe
    refusing a tampering attempt.

    The handout's cache is judged by what the handout asks of it: stored values used and
    re-used with caching on ("if a state is already in the dictionary, do not explore it
    again"), none with it off. So with caching a search must explore fewer positions again (the
    probe's second count), or the second search with the cache kept must generate fewer
    successors than a search without caching (a cache keyed by the alpha-beta window may find
    nothing within one search, and finds the root when searched again). Fewer calls alone is
    not enough (a cache looked up where nothing is stored, or holding only leaves, explores
    everything again). With caching off the second search must generate as many successors as
    the first: a cache filled but never read passes, whatever helpers the filling called.
    """
    reports = [answer_of(window) for window in windows]
    tampered = _tampering(everything, reports)
    if tampered:
        return False, tampered
    counts = [count for count in map(_work_counts, reports) if count is not None]
    if len(counts) != len(reports):
        return False, "could not read the work counts (an earlier example failed)"
    off, twice, on, *warm = counts
    if off.calls == 0:
        return False, ("no calls into othello_shared were seen, so the work could not be "
                       "measured: search with the supplied helpers")
    summary = f"calls into othello_shared: {off.calls} without caching, {on.calls} with caching"
    if off.again is not None and on.again is not None:
        summary += (f"; positions explored again: {off.again} without caching, {on.again} "
                    "with caching")
    if _fewer(off, twice, "plays"):
        done = (f"generated {twice.plays} successors ({off.plays} the first time)"
                if twice.plays is not None and off.plays is not None
                else f"made {twice.calls} calls")
        return False, summary + (f"; the same search without caching a second time {done}: "
                                 "with caching=0 the cache must not be read")
    if _fewer(off, on, "again"):
        return True, summary
    kept = warm[0] if warm else None
    if kept is not None and kept.plays is not None and off.plays is not None \
            and kept.plays < off.plays:
        return True, summary + (f"; searched again with the cache kept: {kept.plays} successors "
                                f"generated ({off.plays} without caching), stored values re-used")
    if kept is not None and kept.plays is not None:
        summary += (f"; searched again with the cache kept: {kept.plays} successors generated "
                    f"({off.plays} without caching)")
    return False, summary + ("; the cache should save work: a position found in the cache is "
                             "not explored again")


def _same_or_best(cached: Optional[Observation], uncached: Any, answer: Mapping[str, Any],
                  reveal: bool) -> tuple[bool, str]:
    """Whether a cached answer is right, or at least what the same search gave uncached (then
    a note saying so: the mistake is charged where the search is graded, not here)."""
    fraction, problem = judge_answer(cached, answer, reveal)
    if fraction == 1.0:
        return True, ""
    value = answer_of(cached)
    if cached is not None and cached.error is None and strict_equal(_as_tuples(uncached),
                                                                    _as_tuples(value)):
        return True, (f"{show(value)} with and without caching ({problem}): a mistake of the "
                      "search itself, charged where that search is graded, not here")
    if cached is not None and cached.error is None and uncached is not None:
        return False, (f"caching changed the answer: {show(uncached)} without caching, "
                       f"{show(value)} with caching")
    return False, problem


def _searched_one_ply_short(uncached: Any, answers: Sequence[Mapping[str, Any]]) -> bool:
    """Whether the uncached turns chose what a root one ply short of the limit chooses and, on
    some turn, no best move: the depth-limit cases charge that mistake, and the case's turns
    one ply deeper are where its cache is judged."""
    if type(uncached) is not list or len(uncached) != len(answers) \
            or any("one_ply_short" not in answer for answer in answers):
        return False
    moves = [list(move) if _is_square(move, (tuple,)) else None for move in uncached]
    return all(move in answer["one_ply_short"] for move, answer in zip(moves, answers)) \
        and any(move not in answer["moves"] for move, answer in zip(moves, answers))


_SET_UP = re.compile(r"othello_probe\.set_up\(lambda: (.*), work\)$", re.S)


def _set_up_problem(case: Case, observations: Sequence[Observation]) -> str:
    """What the set-up call (select_move with caching on the start position, a game's first
    turn) raised, with the call; "" when it did not raise."""
    for index, example in enumerate(case.examples):
        found = _SET_UP.search(example.source.strip())
        if found is None or index >= len(observations):
            continue
        error = observations[index].error
        if error is not None:
            return (f"{prompt(found.group(1))}\n  (the set-up: a game's first turn, caching on) "
                    f"raised {error.describe()}\n  a search with caching must work from a "
                    "game's first turn")
    return ""


def _searched(case: Case) -> str:
    """Which search's cache the case tests, named for the feedback."""
    text = " ".join(example.source for example in case.examples)
    return "the alpha-beta search's" if "alphabeta" in text else "the minimax search's"


def caching(case: Case, observations: Sequence[Observation], reveal: bool) -> Judgement:
    """Caching keeps the answers, stored values are used and re-used, and none is read when
    caching is off: all or nothing.

    Two layouts (see :mod:`assignments.othello.generators`). One search: the graded examples are
    a node without caching, the probe's work, the same again, the node with caching, the work,
    the node with caching again (the cache kept), the work, then select_move with the cache and
    select_move without it; ``options.answers`` holds the six answer entries. Turns of a game: a
    list of select_move answers without caching, the work, the same again, the list with
    caching, the work; ``options.turns`` holds one move entry per turn (with ``legal`` at a
    depth limit, where any legal move is accepted); at a depth limit the turns follow again one
    ply deeper, without caching and with it, each with its work, where the cache of a root one
    ply short (its uncached moves show it) is judged. A set-up call that raises fails the case. A
    cached answer passes when it is right or equal to the uncached one (a wrong search is
    charged in its own group, and the feedback says so); the work is judged by
    :func:`_work_problem`.
    """
    heading = f"tested: {_searched(case)} cache"
    set_up = _set_up_problem(case, observations)
    if set_up:
        return Judgement(0.0, f"{heading}\n{set_up}")
    graded = [item.observation for item in _graded(case, observations)]
    sources = [item.source for item in _graded(case, observations)]
    problems: list[str] = []
    notes: list[str] = []
    if "turns" in case.options:
        if len(graded) not in (6, 10):
            raise ValueError(f"case {case.id}: a caching-turns case needs 6 or 10 graded "
                             "examples")
        answers = case.options["turns"]
        uncached, cached = answer_of(graded[0]), answer_of(graded[4])
        if graded[4] is not None and graded[4].error is not None:
            problems.append(f"{sources[4]}\n  raised {graded[4].error.describe()}")
        elif type(cached) is not list or len(cached) != len(answers):
            problems.append(f"with caching: expected a list of {len(answers)} moves, got "
                            f"{show(cached)}")
        else:
            before = uncached if type(uncached) is list and len(uncached) == len(answers) \
                else [None] * len(answers)
            for turn, (move, old, answer) in enumerate(zip(cached, before, answers), start=1):
                ok, problem = _same_or_best(Observation(value=move, has_value=move is not None),
                                            old, answer, reveal)
                if not ok and "legal" in answer and _is_square(move, (tuple,)) \
                        and list(move) in answer["legal"]:
                    ok, problem = True, ""  # a cache keyed without the depth: a shallower search
                (notes if ok else problems).extend(
                    [f"turn {turn} with caching: {problem}"] if problem else [])
        saved, seen = _work_problem([graded[1], graded[3], graded[5]], graded)
        if not saved and len(graded) == 10 and _searched_one_ply_short(uncached, answers):
            saved, deeper = _work_problem([graded[7], graded[7], graded[9]], graded)
            seen += (f"\nyour searches without caching chose moves a root one ply short of "
                     f"the limit chooses; one ply deeper: {deeper}")
            if saved:
                notes.append("caching judged at the depth your search reaches; the depth limit "
                             "is charged in its own group")
    else:
        if len(graded) != 10:
            raise ValueError(f"case {case.id}: a caching case needs 10 graded examples")
        _, _, again, kept, select, _ = case.options["answers"]
        uncached = answer_of(graded[0])
        for index, answer, before in ((4, again, uncached), (6, kept, uncached),
                                      (8, select, answer_of(graded[9]))):
            ok, problem = _same_or_best(graded[index], before, answer, reveal)
            if problem:
                (notes if ok else problems).append(f"{sources[index]}\n  {problem}")
        saved, seen = _work_problem([graded[1], graded[3], graded[5], graded[7]], graded)
    messages = [heading, *problems, *notes, seen]
    return Judgement(1.0 if saved and not problems else 0.0, "\n".join(messages))


__all__ = ["INSTRUMENTATION_DISABLED", "NO_MOVE_FORMS", "best_answers", "caching",
           "every_example", "judge_answer", "judge_value", "read_one_ply_deeper",
           "unit_fractions"]
