"""Name the likely mistake behind a failed case, without giving the answer away.

An assignment declares known-wrong variants of its reference (``diagnose:`` in a case file names
a function returning them). When a case fails, its transcript is replayed in this trusted
process once per variant, in a namespace where the handout's names behave as that mistake
would; when exactly one variant reproduces every answer the student gave, the feedback names
it. The text names a mistake, never an expected value, so it is safe on hidden cases too.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterable, Iterator, Sequence

from harness.compare.diagnosis_groups import diagnosis_text
from harness.compare.equality import accepted_forms, strict_equal
from harness.dotted import resolve_callable
from harness.records.observations import Observation
from harness.records.verdicts import Judgement, Variant

AMBIGUOUS = 2  # at most this many mistakes named together when they give the same answers


def _replay(case: Any, namespace: dict[str, Any]) -> Iterator[Any]:
    """The values of the case's judged examples, run in ``namespace`` (trusted code only: the
    spec's transcript and the reference's names), one at a time so a replay can stop early.
    Examples after the last judged one are not run: nothing they show is reproduced (an
    ungraded probe there, such as Othello's select_move one ply deeper, may be a long search)."""
    judged = [index for index, example in enumerate(case.examples) if example.want.strip()]
    for example in case.examples[:judged[-1] + 1 if judged else 0]:
        source = example.source.strip()
        try:
            code = compile(source, "<diagnosis>", "eval")
        except SyntaxError:
            exec(compile(source, "<diagnosis>", "exec"), namespace)  # spec code
            value = None
        else:
            value = eval(code, namespace)  # the spec's own transcript
        if example.want.strip():
            yield value


def _reproduces(variant: Variant, case: Any, answers: Sequence[Observation],
                cached: bool) -> bool:
    """Whether the variant gives every answer, and no more. The replay stops at the first
    answer it does not give (a mistaken search can be slow, and the later examples are then not
    needed). ``cached``: what it yields is kept per host (``replays``: the same for every
    student failing the case), and what is kept is not computed again."""
    from harness.compare.replays import Replay  # only a failed case with known mistakes needs it
    key = [case.diagnose, variant.description, [e.source for e in case.examples]]
    replay = Replay(key if cached else None, lambda: _replay(case, variant.namespace()))
    try:
        return _gives(replay, case, answers) and not replay.raised
    finally:
        replay.save()


def _gives(values: Iterable[Any], case: Any, answers: Sequence[Observation]) -> bool:
    """Whether ``values`` are exactly the answers, one by one (stops at the first that differs)."""
    accept = accepted_forms(case.options)
    given = 0
    for value in values:
        if given == len(answers):
            return False
        answer = answers[given]
        if not (answer.error is None and answer.has_value
                and strict_equal(value, answer.value, accept=accept)):
            return False
        given += 1
    return given == len(answers)


def matching_mistakes(case: Any, observations: Sequence[Observation],
                      variants: Sequence[Variant], cached: bool = False) -> tuple[str, ...]:
    """The descriptions of the known mistakes that reproduce every judged answer of the case:
    one, or at most ``AMBIGUOUS`` that give the same answers here (unless one of them is named
    only ``alone``); else none.

    ``cached``: the variants are those of the registry ``case.diagnose`` names, so each is known
    by its description, and its answers may be kept per host (``replays``)."""
    judged = [observations[i] for i, example in enumerate(case.examples)
              if example.want.strip() and i < len(observations)]
    if not judged or len(judged) != sum(1 for e in case.examples if e.want.strip()):
        return ()
    if any(answer.error is not None or not answer.has_value for answer in judged):
        return ()  # no variant reproduces an error or a missing value: nothing to replay
    cached = cached and len({v.description for v in variants}) == len(variants)
    found = [v for v in variants if _reproduces(v, case, judged, cached)]
    if not found or len(found) > AMBIGUOUS or (len(found) > 1 and any(v.alone for v in found)):
        return ()
    return tuple(v.description for v in found)


def diagnose(case: Any, observations: Sequence[Observation],
             variants: Sequence[Variant], cached: bool = False) -> str:
    """Name the known mistakes ``matching_mistakes`` finds ("" when none)."""
    return diagnosis_text(matching_mistakes(case, observations, variants, cached))


def with_diagnosis(judgement: Judgement, case: Any,
                   observations: Sequence[Observation]) -> Judgement:
    """``judgement`` with the likely mistake added, using the variants ``case.diagnose`` names.

    Never raises: where the variants cannot be had (the student package ships no reference
    search) or fail, the judgement is returned as it was.
    """
    try:
        found = matching_mistakes(case, observations, resolve_callable(case.diagnose)(),
                                  cached=True)
    except Exception:  # a diagnosis is a bonus; it must never cost the case
        return judgement
    if not found:
        return judgement
    text = diagnosis_text(found)
    message = f"{judgement.message}\n{text}" if judgement.message else text
    return replace(judgement, message=message, diagnosis=found)
