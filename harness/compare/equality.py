"""Type-strict equality of decoded plain data: a tuple is not a list, True is not 1."""
from __future__ import annotations

import math
from typing import Any


def strict_equal(expected: Any, actual: Any, *, tolerance: float = 0.0) -> bool:
    """Whether two plain-data values are equal in type and value, recursively.

    Floats compare exactly unless ``tolerance`` (absolute) is given; NaN equals NaN. Sets compare
    as sets (their elements are hashable plain data, so builtin equality is type-safe enough
    except for 1 == True, which is checked separately).
    """
    if type(expected) is not type(actual):
        return False
    if isinstance(expected, float):
        if math.isnan(expected) or math.isnan(actual):
            return math.isnan(expected) and math.isnan(actual)
        return abs(expected - actual) <= tolerance if tolerance else expected == actual
    if isinstance(expected, (list, tuple)):
        return len(expected) == len(actual) and all(
            strict_equal(e, a, tolerance=tolerance) for e, a in zip(expected, actual))
    if isinstance(expected, dict):
        return expected.keys() == actual.keys() and _typed_keys(expected) == _typed_keys(actual) \
            and all(strict_equal(expected[k], actual[k], tolerance=tolerance) for k in expected)
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
