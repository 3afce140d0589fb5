"""Judge a rewritten test's records on the trusted side, with unittest's own assertions.

The records are plain data decoded from the sandbox's reply (no student object, so no
``__eq__`` of theirs); the expected values are evaluated here from the suite. A test passes
when every recorded assertion holds (all of them: records forged before the real ones do
not hide those), it ran to its end once, and every assertion on its straight line was reached
(a submission cannot skip one by tampering with the records).
"""
from __future__ import annotations

import re
import sys
import time
import unittest
from collections import Counter
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Sequence
from unittest.util import safe_repr

from harness.native.suite import trusted_namespace
from harness.native.transcript import RAISES, SuiteProblem
from harness.records.observations import Observation
from harness.records.verdicts import Judgement, Verdict

TAMPERED = "the test's records were not what the grader wrote (tampered with?)"


JUDGE_SECONDS = 10.0
"""The most one test's judging may take; beyond it the test fails, saying why (every
assertion here is near-linear in the reply, so only a course's own costly check gets near)."""
TOO_LARGE = "your reply was too large to compare in the grader's time"
DIFFED = 2000
"""Items (or characters) of the larger value beyond which a failed comparison is reported
without unittest's line-by-line difference (difflib's time grows faster than the values)."""


class _TooSlow(BaseException):
    """The judging of one test went past ``JUDGE_SECONDS`` (not an ``Exception``: an
    assertion's own error handling must not take it for the assertion's failure)."""


@contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    """Raise ``_TooSlow`` in the code run inside once ``seconds`` have passed, checked at its
    Python and C function calls (unittest's slow paths are Python loops over the values)."""
    end = time.monotonic() + seconds
    before = sys.getprofile()

    def check(frame: Any, event: str, arg: Any) -> None:
        if time.monotonic() > end:
            sys.setprofile(before)
            raise _TooSlow()

    sys.setprofile(check)
    try:
        yield
    finally:
        sys.setprofile(before)


def _hashable(value: Any) -> Any:
    """A hashable stand-in equal to another exactly when the values are equal (``==``), with
    the container's kind kept: a list is not a tuple, as unittest compares them."""
    kind = type(value)
    if kind in (list, tuple):
        return (kind.__name__, tuple(map(_hashable, value)))
    if kind is dict:
        return ("dict", frozenset((_hashable(k), _hashable(v)) for k, v in value.items()))
    if kind in (set, frozenset):
        return ("set", frozenset(map(_hashable, value)))
    return value


def _bigger_than(value: Any, limit: int) -> bool:
    """Whether ``value`` has more than ``limit`` items or characters, counted to the limit."""
    seen, stack = 0, [value]
    while stack:
        item = stack.pop()
        seen += len(item) if isinstance(item, (str, bytes)) else 1
        if seen > limit:
            return True
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple, set, frozenset)):
            stack.extend(item)
    return False


def _undiffed(name: str) -> Any:
    """unittest's ``name`` assertion, reporting a large failed comparison without its diff."""
    original = getattr(unittest.TestCase, name)

    def check(self: unittest.TestCase, first: Any, second: Any, *args: Any, **kwargs: Any
              ) -> None:
        if first != second and (_bigger_than(first, DIFFED) or _bigger_than(second, DIFFED)):
            raise self.failureException(f"{safe_repr(first, True)} != "
                                        f"{safe_repr(second, True)} (too large to show the "
                                        "difference)")
        original(self, first, second, *args, **kwargs)
    return check


class _Checker(unittest.TestCase):
    """unittest's assertions, each near-linear in the values: the plain ``first == second``
    for equality (its type-specific ones diff whole values), element counts by hashing, and a
    large failed comparison reported without a diff."""

    maxDiff = 2000

    def _getAssertEqualityFunc(self, first: Any, second: Any) -> Any:
        return self._baseAssertEqual  # type: ignore[attr-defined]

    def assertCountEqual(self, first: Any, second: Any, msg: Any = None) -> None:
        """unittest's: the same elements, each the same number of times (in linear time, where
        unittest's own is quadratic for unhashable elements: 131 s for 60,000 small lists)."""
        want = Counter(map(_hashable, first))
        got = Counter(map(_hashable, second))
        if want != got:
            extra, missing = sum((want - got).values()), sum((got - want).values())
            self.fail(self._formatMessage(msg, (
                f"Element counts were not equal: {extra} element(s) of the first not in the "
                f"second, {missing} of the second not in the first")))

    assertSequenceEqual = _undiffed("assertSequenceEqual")
    assertListEqual = _undiffed("assertListEqual")
    assertTupleEqual = _undiffed("assertTupleEqual")
    assertDictEqual = _undiffed("assertDictEqual")
    assertMultiLineEqual = _undiffed("assertMultiLineEqual")

    def runTest(self) -> None:  # unittest's name
        pass


_CHECKER = _Checker()


def _value(part: dict[str, Any], record: list[Any], namespace: dict[str, Any]) -> Any:
    if "recorded" in part:
        return record[part["recorded"]]
    return _trusted(part["trusted"], namespace)


def _trusted(source: str, namespace: dict[str, Any]) -> Any:
    """An expected value, evaluated once per judging (a test may record thousands)."""
    values = namespace.setdefault("__gg_values__", {})
    if source not in values:
        values[source] = eval(source, dict(namespace))  # the course's suite
    return values[source]


def _check(site: dict[str, Any], record: list[Any], namespace: dict[str, Any]) -> str:
    """"" if the assertion holds, else why not (unittest's message)."""
    if site["assert"] in RAISES:
        names, message = (record + [None, ""])[1:3]
        expected = [part["name"] if "name" in part else None for part in site["args"]]
        classes = [_trusted(part["trusted"], namespace) if "trusted" in part else None
                   for part in site["args"]]
        wanted = [c.__name__ if isinstance(c, type) else n for c, n in zip(classes, expected)]
        kinds = wanted[:1]
        if isinstance(classes[0], tuple):
            kinds = [c.__name__ for c in classes[0]]
        if not isinstance(names, list):
            return f"{' or '.join(map(str, kinds))} not raised"
        if not set(map(str, kinds)) & {str(n) for n in names}:
            return f"raised {names[0]}, not {' or '.join(map(str, kinds))}"
        if site["assert"] == "assertRaisesRegex" and len(wanted) > 1 and not re.search(
                str(classes[1] if classes[1] is not None else wanted[1]), str(message)):
            return f"the message {str(message)[:200]!r} does not match"
        return ""
    args = [_value(part, record, namespace) for part in site["args"]]
    keywords = {key: _value(part, record, namespace) for key, part in site["keywords"].items()}
    try:
        getattr(_CHECKER, site["assert"])(*args, **keywords)
    except AssertionError as exc:
        return str(exc)[:2000] or "the assertion failed"
    except Exception as exc:  # e.g. a value of a type the assertion refuses
        return f"the assertion could not be checked: {type(exc).__name__}: {exc}"[:2000]
    return ""


def _records(value: Any, sites: int) -> list[list[Any]] | None:
    if not isinstance(value, list) or not all(
            isinstance(r, list) and r and isinstance(r[0], int) and not isinstance(r[0], bool)
            and -1 <= r[0] < sites for r in value):
        return None
    return value


def assertions(case: Any, observations: Sequence[Observation], reveal: bool) -> Judgement:
    """The comparator of a suite's test case (``compare: harness.native.judge:assertions``)."""
    options = case.options
    sites: list[dict[str, Any]] = options["sites"]
    hidden = options.get("hide_errors") or ""
    shown = (lambda text: text) if reveal else (lambda text: "")

    def failed(text: str, detail: str = "") -> Judgement:
        extra = shown(detail)
        return Judgement(0.0, hidden or (f"{text}: {extra}" if extra else text))

    if len(observations) < 2:
        error = observations[0].error if observations else None
        return failed("the test could not start" + (f" ({error.describe()})" if error else ""))
    run = observations[1]
    if run.error is not None:
        return Judgement(0.0, hidden or f"the test raised {run.error.describe()}")
    records = _records(run.value if run.has_value else None, len(sites))
    if records is None:
        return failed(TAMPERED)
    try:
        namespace = {**trusted_namespace(Path(case.file).parent / options["suite"]),
                     "__gg_values__": {}}
    except (SuiteProblem, OSError) as exc:
        return Judgement(0.0, f"the course's suite failed: {exc}", failure=Verdict.HARNESS_ERROR)
    if not records or [r[0] for r in records].count(-1) != 1 or records[-1][0] != -1:
        return failed("the test did not run to its end" if all(r[0] != -1 for r in records)
                      else TAMPERED)
    reached: set[int] = set()
    try:
        with _deadline(JUDGE_SECONDS):
            for record in records[:-1]:
                index = record[0]
                reached.add(index)
                site = sites[index]
                try:
                    why = _check(site, record, namespace)
                except IndexError:
                    return failed(TAMPERED)
                if why:
                    return failed(f"line {site['line']}: {site['assert']} failed", why)
    except _TooSlow:
        return failed(f"{TOO_LARGE} ({JUDGE_SECONDS:g} s)")
    straight = [i for i, site in enumerate(sites) if site["straight"]]
    if not set(straight) <= reached:
        return failed("the test skipped an assertion (tampered with?)")
    return Judgement(1.0)
