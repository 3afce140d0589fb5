"""Test ids stay short (tests/gg_suite.py, gg_testing.short_parameter_id): a long text or bytes
parameter is written as its start, length and digest, since a test's id reaches every process it
starts (PYTEST_CURRENT_TEST) and a huge one made starting them fail."""
from __future__ import annotations

from gg_testing import LONGEST_SHOWN_VALUE, short_parameter_id


def test_a_long_parameter_gets_a_short_id_naming_its_length_and_digest() -> None:
    long_bytes, long_text = b"[" * 20000, "9" * 70000
    shown = short_parameter_id(long_bytes)
    assert shown is not None and shown.startswith("[" * 24 + "...(20000 bytes, ")
    text = short_parameter_id(long_text)
    assert text is not None and text.startswith("9" * 24 + "...(70000 chars, ")
    assert len(shown) < 80 and len(text) < 80


def test_values_that_differ_only_after_their_start_get_different_ids() -> None:
    first, second = b"x" * 100 + b"a", b"x" * 100 + b"b"
    assert short_parameter_id(first) != short_parameter_id(second)


def test_short_values_and_other_types_keep_pytest_s_own_ids() -> None:
    for value in (b"x" * LONGEST_SHOWN_VALUE, "short", 12345, [1, 2]):
        assert short_parameter_id(value) is None
