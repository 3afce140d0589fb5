"""When the cases that are not visible show their feedback, written as Gradescope's own test
visibility so that Gradescope itself releases it (``after_due_date``) with no regrade."""
from __future__ import annotations

from typing import Any

from harness.policy.metadata import Facts
from harness.records.policy import FeedbackRelease


def same_day(facts: Facts) -> int:
    """This submission's rank among the day's submissions (1 for the first), the day being
    the calendar day of its own time in its own UTC offset (the course's zone on Gradescope)."""
    assert facts.created_at is not None
    zone, day = facts.created_at.tzinfo, facts.created_at.date()
    return 1 + sum(1 for p in facts.previous
                   if p.time.astimezone(zone).date() == day and p.time < facts.created_at)


def release(rule: FeedbackRelease, facts: Facts, tests: list[dict[str, Any]]) -> str:
    """Set the visibility of every test that is not visible; say what was decided."""
    withheld = [t for t in tests if t.get("visibility", "visible") != "visible"]
    if not withheld:
        return ""
    count = f"{len(withheld)} hidden test{'s' if len(withheld) != 1 else ''}"
    if rule.first_per_day is not None:
        rank = same_day(facts)
        if rank <= rule.first_per_day:
            for test in withheld:
                test["visibility"] = "visible"
            return (f"feedback on the {count} is shown: this is submission {rank} of the "
                    f"first {rule.first_per_day} each day that show it")
        for test in withheld:
            test["visibility"] = "after_due_date"
        return (f"feedback on the {count} is released after the due date: this is submission "
                f"{rank} today, and only the first {rule.first_per_day} each day show it")
    for test in withheld:
        test["visibility"] = "after_due_date"
    return f"feedback on the {count} is released after the due date"
