"""``policy:`` in assignment.yaml: read into records, refused with its field when malformed."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from harness.records.policy import FeedbackRelease, LatePenalty, Policy, RateLimit
from harness.spec import SpecError, load_assignment

BASE = "name: demo\ntitle: Demo\nmodule: demo\n"


def load(tmp_path: Path, policy: str):
    folder = tmp_path / "demo"
    (folder / "cases").mkdir(parents=True)
    (folder / "assignment.yaml").write_text(BASE + policy)
    return load_assignment(folder)


def test_no_policy_changes_nothing(tmp_path):
    assert load(tmp_path, "").policy == Policy() and not Policy().active


def test_a_full_policy_is_read(tmp_path):
    assignment = load(tmp_path, """\
policy:
  rate_limit: {submissions: 3, hours: 24}
  keep: best
  late: {percent: 10, per: day, most: 50, grace_minutes: 5}
  feedback: {first_per_day: 2}
  due_date: "2026-12-04T23:59:00-05:00"
""")
    assert assignment.policy == Policy(
        RateLimit(3, 24.0), "best", LatePenalty(10.0, "day", 50.0, 5.0), FeedbackRelease(2),
        datetime(2026, 12, 4, 23, 59, tzinfo=timezone(timedelta(hours=-5))))


@pytest.mark.parametrize("policy, field, words", [
    ("policy: {keep: first}\n", "policy.keep", "is not one of ['best', 'last']"),
    ("policy: {late: {percent: 10}}\n", "policy.late", "'per' is a required property"),
    ("policy: {late: {percent: 10, per: week}}\n", "policy.late.per", "is not one of"),
    ("policy: {rate_limit: {submissions: 0, hours: 24}}\n", "policy.rate_limit.submissions",
     "less than the minimum"),
    ("policy: {limit: 3}\n", "policy.limit", "Additional properties are not allowed"),
    ('policy: {due_date: "next friday at noon"}\n', "policy.due_date",
     "'next friday at noon' is not"),
    ('policy: {due_date: "2026-12-04T23:59:00"}\n', "policy.due_date", "has no UTC offset"),
])
def test_a_malformed_policy_names_its_field(tmp_path, policy, field, words):
    with pytest.raises(SpecError) as caught:
        load(tmp_path, policy)
    assert caught.value.field == field and words in str(caught.value)
    assert "assignment.yaml" in str(caught.value)
