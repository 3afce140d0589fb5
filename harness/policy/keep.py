"""Which score is kept across submissions: the best so far, or this one (the last)."""
from __future__ import annotations

from datetime import datetime

from harness.policy.metadata import Facts


def best_before(facts: Facts) -> tuple[float, datetime] | None:
    """The best final score of the earlier submissions and the first one that reached it
    (earlier final scores are kept scores already, so the first to reach the best earned it);
    None when there is no earlier scored submission. Submissions the autograder failed on do
    not count."""
    scored = [p for p in facts.previous if not p.failed and p.score is not None]
    if not scored:
        return None
    best = max(p.score for p in scored if p.score is not None)
    first = min((p for p in scored if p.score == best), key=lambda p: p.time)
    return best, first.time


def unscored(facts: Facts) -> int:
    """How many earlier submissions (the autograder did not fail on) carry no readable score."""
    return sum(1 for p in facts.previous if not p.failed and p.score is None)
