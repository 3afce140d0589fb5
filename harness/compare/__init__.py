"""Judging observations against expectations, in the trusted process, on plain data only."""
from __future__ import annotations

from harness.compare.equality import strict_equal
from harness.compare.observations import observations_from_reply
from harness.compare.text import normalize_text, show
from harness.compare.verdict import per_example

__all__ = ["normalize_text", "observations_from_reply", "per_example", "show", "strict_equal"]
