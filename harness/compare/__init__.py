"""Judging observations against expectations, in the trusted process, on plain data only."""
from __future__ import annotations

from harness.compare.equality import strict_equal
from harness.compare.observations import ErrorInfo, Observation, observations_from_reply
from harness.compare.registry import resolve_callable, resolve_comparator
from harness.compare.text import normalize_text, show
from harness.compare.verdict import per_example

__all__ = ["ErrorInfo", "Observation", "normalize_text", "observations_from_reply",
           "per_example", "resolve_callable", "resolve_comparator", "show", "strict_equal"]
