"""The rate limit: which earlier submissions were graded, and when the next grading is free.

Gradescope lists an earlier submission's results for the most recent one only, so each
document this policy writes carries ``extra_data.policy.graded_at``: the times of the graded
submissions within the last period, this one included when it was graded. The next submission
reads that list from the most recent earlier results. A submission refused under the limit
carries the list on unchanged.
"""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from harness.policy.metadata import Facts
from harness.records.policy import RateLimit
from harness.records.times import parse_time

MAX_CHAIN = 1000


def graded_before(facts: Facts) -> tuple[list[datetime] | None, str]:
    """The times of earlier graded submissions, or ``(None, why they are unknown)``."""
    latest = facts.latest
    if facts.previous_problem:
        return None, facts.previous_problem
    if latest is None:
        return [], ""
    if latest.results is None:
        return None, "the results of your most recent earlier submission are not in the metadata"
    extra = latest.results.get("extra_data")
    policy = extra.get("policy") if isinstance(extra, dict) else None
    chain = policy.get("graded_at") if isinstance(policy, dict) else None
    if chain is None:  # written before the limit was set: every one of them was graded
        return [p.time for p in facts.previous if not p.failed], ""
    if not isinstance(chain, list) or len(chain) > MAX_CHAIN:
        return None, "the earlier results' list of graded submissions is malformed"
    times = []
    for value in chain:
        when, problem = parse_time(value)
        if when is None:
            return None, f"the earlier results' list of graded submissions: {problem}"
        times.append(when)
    return times, ""


def within(rule: RateLimit, times: list[datetime], now: datetime) -> list[datetime]:
    """The times inside the period that ends at ``now`` (oldest first)."""
    start = now - timedelta(hours=rule.hours)
    return sorted(t for t in times if start < t <= now)


def next_grading(rule: RateLimit, recent: list[datetime]) -> datetime:
    """When a grading is free again, given at least ``rule.submissions`` graded in the period."""
    return recent[-rule.submissions] + timedelta(hours=rule.hours)


def chain_text(times: list[datetime]) -> list[Any]:
    return [t.isoformat() for t in times]
