"""The comparators every assignment can name: ``doctest``, ``components`` and ``unordered``."""
from __future__ import annotations

import ast
import textwrap
from collections import Counter
from typing import Any, Mapping

from harness.compare.equality import accepted_forms, strict_equal
from harness.compare.text import normalize_text, show
from harness.compare.verdict import per_example
from harness.records.observations import Observation
from harness.records.verdicts import Judgement, Part

_NO_LITERAL = object()


def parse_expected(want: str) -> Any:
    """The transcript's expected output as a Python literal, or ``_NO_LITERAL``."""
    try:
        return ast.literal_eval(textwrap.dedent(want).strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return _NO_LITERAL


def _kind(value: Any) -> str:
    return type(value).__name__ if not hasattr(value, "type_name") else value.type_name


def _shown_text(observation: Observation, options: Mapping[str, Any]) -> str:
    """What the interactive prompt would show for the example, minus the student's debug prints
    (unless ``options.printing`` says the case is about printing)."""
    printed = observation.printed(bool(options.get("printing", False)))
    return printed + (repr(observation.value) + "\n" if observation.has_value else "")


def _value_mismatch(expected: Any, observation: Observation, reveal: bool) -> str:
    if not observation.has_value:
        got = "nothing (the call returned None)"
    else:
        got = show(observation.value)
    if reveal:
        return f"expected: {show(expected)}\n  got:      {got}"
    if observation.has_value and type(observation.value) is not type(expected):
        return f"got {got}, which is a {_kind(observation.value)}; expected a {_kind(expected)}"
    return f"got {got}, which is not the expected value"


def check_doctest(want: str, observation: Observation, options: Mapping[str, Any],
                  reveal: bool) -> Judgement:
    """Doctest semantics, by value: compare the literal expected output with the value shown
    (type-strict, relaxed only by ``options.accept``), or whitespace-normalised text when the
    transcript printed something. What the student's own code prints is not part of the answer
    unless ``options.printing`` is true (a case about printing)."""
    if observation.error is not None:
        return Judgement(0.0, f"raised {observation.error.describe()}")
    expected = parse_expected(want)
    if observation.printed(bool(options.get("printing", False))) or expected is _NO_LITERAL:
        got = _shown_text(observation, options)
        if normalize_text(got) == normalize_text(want):
            return Judgement(1.0)
        if reveal:
            return Judgement(0.0, f"expected output:\n{textwrap.indent(want.rstrip(), '    ')}\n"
                                  f"  got:\n{textwrap.indent(got.rstrip() or '(nothing)', '    ')}")
        return Judgement(0.0, f"printed:\n{textwrap.indent(got.rstrip() or '(nothing)', '    ')}\n"
                              "  which is not the expected output")
    tolerance = float(options.get("tolerance", 0.0))
    if observation.has_value and strict_equal(expected, observation.value, tolerance=tolerance,
                                              accept=accepted_forms(options)):
        return Judgement(1.0)
    return Judgement(0.0, _value_mismatch(expected, observation, reveal))


def check_components(want: str, observation: Observation, options: Mapping[str, Any],
                     reveal: bool) -> Judgement:
    """Partial credit over the parts of a tuple: ``options.names`` labels them and
    ``options.weights`` (default equal) weighs them. With ``options.constant_parts: no_credit``
    a part the same on every board of the group earns nothing (``constant_parts``)."""
    expected = parse_expected(want)
    if observation.error is not None:
        return Judgement(0.0, f"raised {observation.error.describe()}")
    if not isinstance(expected, tuple):
        return check_doctest(want, observation, options, reveal)
    names = list(options.get("names", [f"part {i + 1}" for i in range(len(expected))]))
    weights = list(options.get("weights", [1.0] * len(expected)))
    accept = accepted_forms(options)
    actual = observation.value
    if type(actual) is list and "list_for_tuple" in accept:
        actual = tuple(actual)
    if not observation.has_value or type(actual) is not tuple or len(actual) != len(expected):
        shape = f"a tuple of {len(expected)} ({', '.join(names)})"
        got = show(actual) if observation.has_value else "nothing (None)"
        return Judgement(0.0, f"expected {shape}; got {got}")
    earned, notes, parts = 0.0, [], []
    for name, weight, want_part, got_part in zip(names, weights, expected, actual):
        right = strict_equal(want_part, got_part, accept=accept)
        parts.append(Part(name, weight, want_part, got_part, right))
        if right:
            earned += weight
            notes.append(f"{name} right")
        elif reveal:
            notes.append(f"{name} wrong (expected {show(want_part)}, got {show(got_part)})")
        else:
            notes.append(f"{name} differs (yours: {show(got_part)})"
                         f"{_direction(want_part, got_part)}")
    fraction = earned / sum(weights)
    return Judgement(fraction, "" if fraction == 1.0 else "; ".join(notes), parts=(tuple(parts),))


def _direction(expected: Any, actual: Any) -> str:
    numbers = (int, float)
    if type(expected) in numbers and type(actual) in numbers:
        return ", higher than the reference's" if actual > expected else \
            ", lower than the reference's"
    return ""


def check_unordered(want: str, observation: Observation, options: Mapping[str, Any],
                    reveal: bool) -> Judgement:
    """Same elements in any order (as a multiset, type-strict); for 'any order' results."""
    if observation.error is not None:
        return Judgement(0.0, f"raised {observation.error.describe()}")
    expected = parse_expected(want)
    actual = observation.value
    if not isinstance(expected, (list, tuple)) or type(actual) is not type(expected):
        return check_doctest(want, observation, options, reveal)
    want_items, got_items = Counter(map(repr, expected)), Counter(map(repr, actual))
    if want_items == got_items:
        return Judgement(1.0)
    missing = sum((want_items - got_items).values())
    extra = sum((got_items - want_items).values())
    message = f"{len(actual)} items, {missing} missing and {extra} unexpected"
    if reveal:
        message += f"\n  missing: {show(sorted(want_items - got_items))}"
    return Judgement(0.0, message)


BUILTIN = {
    "doctest": per_example(check_doctest),
    "components": per_example(check_components),
    "unordered": per_example(check_unordered),
}
