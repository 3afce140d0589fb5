"""Type-strict equality of decoded plain data: a tuple is not a list, True is not 1.

A spec may relax it where the handout leaves a value's form open, by naming accepted forms in a
case's ``options.accept`` (see ``FORMS``); everything else stays type-strict.
"""
from __future__ import annotations

import math
from typing import Any, Iterable, Mapping

FORMS = {
    "empty_for_none": "an empty list or tuple where None is expected (e.g. 'no move')",
    "list_for_tuple": "a list where a tuple is expected (same items)",
}
"""Accepted-form names a case's ``options.accept`` may list, with what each allows."""


def accepted_forms(options: Mapping[str, Any]) -> frozenset[str]:
    """The relaxations a case's options name.

    Raises:
        ValueError: ``accept`` is not a list of names from ``FORMS``.
    """
    names = options.get("accept", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ValueError(f"options.accept must be a list of names from {sorted(FORMS)}")
    unknown = sorted(set(names) - set(FORMS))
    if unknown:
        raise ValueError(f"options.accept names unknown forms {unknown} (known: {sorted(FORMS)})")
    return frozenset(names)


def strict_equal(expected: Any, actual: Any, *, tolerance: float = 0.0,
                 accept: Iterable[str] = ()) -> bool:
    """Whether two plain-data values are equal in type and value, recursively.

    Floats compare exactly unless ``tolerance`` (absolute) is given; NaN equals NaN. Sets compare
    as sets (their elements are hashable plain data, so builtin equality is type-safe enough
    except for 1 == True, which is checked separately). ``accept`` names relaxations from
    ``FORMS``, applied at every depth.
    """
    return _equal(expected, actual, tolerance, frozenset(accept))


def _equal(expected: Any, actual: Any, tolerance: float, accept: frozenset[str]) -> bool:
    if expected is None and "empty_for_none" in accept and type(actual) in (list, tuple):
        return len(actual) == 0
    if type(expected) is tuple and type(actual) is list and "list_for_tuple" in accept:
        actual = tuple(actual)
    if type(expected) is not type(actual):
        return False
    if isinstance(expected, float):
        if math.isnan(expected) or math.isnan(actual):
            return math.isnan(expected) and math.isnan(actual)
        return abs(expected - actual) <= tolerance if tolerance else bool(expected == actual)
    if isinstance(expected, (list, tuple)):
        return len(expected) == len(actual) and all(
            _equal(e, a, tolerance, accept) for e, a in zip(expected, actual))
    if isinstance(expected, dict):
        return expected.keys() == actual.keys() and _typed_keys(expected) == _typed_keys(actual) \
            and all(_equal(expected[k], actual[k], tolerance, accept) for k in expected)
    if isinstance(expected, (set, frozenset)):
        return _typed_keys(expected) == _typed_keys(actual)
    return bool(expected == actual)


def _typed_keys(items: Any) -> frozenset[tuple[str, Any]]:
    return frozenset((type(item).__name__, _freeze(item)) for item in items)


def _freeze(value: Any) -> Any:
    if isinstance(value, tuple):
        return tuple((type(v).__name__, _freeze(v)) for v in value)
    if isinstance(value, frozenset):
        return _typed_keys(value)
    return value
