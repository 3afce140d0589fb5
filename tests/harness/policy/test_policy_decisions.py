"""The policy's decisions from metadata files shaped like Gradescope's (no grading here: the
grade is a small results document, as the grader writes one)."""
from __future__ import annotations

import json

import pytest
from policy_support import DUE, metadata, results

from harness.grading import results as results_file
from harness.policy.apply import after_grading, before_grading
from harness.policy.metadata import read_facts
from harness.records.policy import parse_policy

RATE = parse_policy({"rate_limit": {"submissions": 2, "hours": 24}})


def decide(policy, meta, document):
    """What the entry does: a refusal, or the grade with the policy applied (validated)."""
    facts = read_facts(meta)
    refused = before_grading(policy, facts)
    final = refused if refused is not None else after_grading(policy, facts, document)
    results_file.validate(final)
    return final, refused is not None


def graded(policy, created_at, previous, score=30.0):
    """The document of a graded submission, as the next one's metadata will list it."""
    document, refused = decide(policy, metadata(created_at, previous), results(score))
    assert not refused
    return {"submission_time": created_at, "score": document["score"], "results": document}


# --- rate limit -------------------------------------------------------------------------------

def test_under_the_rate_limit_the_submission_is_graded_and_counted():
    first = graded(RATE, "2026-11-18T09:00:00-05:00", [])
    document, refused = decide(RATE, metadata("2026-11-18T15:00:00-05:00", [first]),
                               results(36.0))
    assert not refused and document["score"] == 36.0
    assert document["output"].startswith(
        "Policy: Graded submission 2 of at most 2 in any 24 h.\n\nAssignment: Dominoes")
    assert document["extra_data"]["policy"]["graded_at"] == [
        "2026-11-18T09:00:00-05:00", "2026-11-18T15:00:00-05:00"]
    assert document["extra_data"]["policy"]["submitters"] == ["1", "2"]  # a group of two


def test_over_the_rate_limit_the_last_graded_results_come_back_with_the_next_time():
    first = graded(RATE, "2026-11-18T09:00:00-05:00", [])
    first["results"] = None  # only the most recent earlier submission carries its results
    second = graded(RATE, "2026-11-18T15:00:00-05:00", [first], score=33.0)
    document, refused = decide(RATE, metadata("2026-11-18T20:00:00-05:00", [first, second]),
                               results(40.0))
    assert refused
    assert document["score"] == 33.0  # the last graded score, not this (ungraded) one's 40
    assert document["tests"] == second["results"]["tests"]
    assert document["execution_time"] == 0
    assert document["output"].startswith(
        "Policy: This submission was not graded: at most 2 submissions are graded in any 24 h, "
        "and 2 already were. The next grading is available from 2026-11-19 09:00 -05:00.")
    assert document["extra_data"]["policy"]["graded"] is False
    assert document["extra_data"]["policy"]["next_grading"] == "2026-11-19T09:00:00-05:00"


def test_a_refused_submission_does_not_count_and_the_period_rolls_on():
    first = graded(RATE, "2026-11-18T09:00:00-05:00", [])
    second = graded(RATE, "2026-11-18T15:00:00-05:00", [dict(first, results=None)])
    third, refused = decide(RATE, metadata("2026-11-18T20:00:00-05:00",
                                           [dict(first, results=None), second]), results(1.0))
    assert refused
    earlier = [dict(first, results=None), dict(second, results=None),
               {"submission_time": "2026-11-18T20:00:00-05:00", "score": third["score"],
                "results": third}]
    # Again before 09:00 the next day: still refused, the same time given, one refusal line.
    again, refused = decide(RATE, metadata("2026-11-19T08:59:00-05:00", earlier), results(1.0))
    assert refused and again["output"].count("not graded") == 1
    assert "available from 2026-11-19 09:00 -05:00" in again["output"]
    # After it, the first grading has left the 24 hours: graded, although four were submitted.
    later, refused = decide(RATE, metadata("2026-11-19T09:01:00-05:00", earlier), results(39.0))
    assert not refused and later["score"] == 39.0
    assert later["extra_data"]["policy"]["graded_at"] == [
        "2026-11-18T15:00:00-05:00", "2026-11-19T09:01:00-05:00"]


def test_without_the_latest_results_the_limit_stands_aside_and_grades():
    earlier = [{"submission_time": "2026-11-18T09:00:00-05:00", "score": 30.0},
               {"submission_time": "2026-11-18T10:00:00-05:00", "score": 31.0}]
    document, refused = decide(RATE, metadata("2026-11-18T11:00:00-05:00", earlier),
                               results(35.0))
    assert not refused and document["score"] == 35.0
    assert "The rate limit was not applied (the results of your most recent earlier " \
        "submission are not in the metadata); your score stands as graded." in document["output"]


def test_results_from_before_the_limit_was_set_count_every_earlier_submission():
    earlier = [{"submission_time": "2026-11-18T09:00:00-05:00", "score": 30.0},
               {"submission_time": "2026-11-18T10:00:00-05:00", "score": 31.0,
                "results": results(31.0)}]
    document, refused = decide(RATE, metadata("2026-11-18T11:00:00-05:00", earlier),
                               results(35.0))
    assert refused and document["score"] == 31.0


# --- keep -------------------------------------------------------------------------------------

EARLIER = [{"submission_time": "2026-11-17T09:00:00-05:00", "score": 38.0},
           {"submission_time": "2026-11-18T09:00:00-05:00", "score": 38.0},
           {"submission_time": "2026-11-19T09:00:00-05:00", "score": 38.0,
            "results": results(38.0)}]


def test_keep_best_keeps_an_earlier_better_score_and_names_where_it_came_from():
    policy = parse_policy({"keep": "best"})
    document, _ = decide(policy, metadata("2026-11-20T09:00:00-05:00", EARLIER), results(30.0))
    assert document["score"] == 38.0
    assert document["extra_data"]["raw_score"] == 30.0
    assert "Policy: Score kept: 38, your best, from your submission of 2026-11-17 09:00 -05:00 " \
        "(this one scored 30)." in document["output"]
    better, _ = decide(policy, metadata("2026-11-20T09:00:00-05:00", EARLIER), results(39.5))
    assert better["score"] == 39.5 and "this submission's (your best so far)" in better["output"]


def test_keep_last_keeps_this_score_even_when_an_earlier_one_was_better():
    document, _ = decide(parse_policy({"keep": "last"}),
                         metadata("2026-11-20T09:00:00-05:00", EARLIER), results(30.0))
    assert document["score"] == 30.0
    assert "Policy: Score kept: 30, this submission's (your last)." in document["output"]


def test_keep_best_passes_over_submissions_the_autograder_failed_on():
    earlier = [{"submission_time": "2026-11-17T09:00:00-05:00", "score": 40.0,
                "autograder_error": True}, EARLIER[-1]]
    document, _ = decide(parse_policy({"keep": "best"}),
                         metadata("2026-11-20T09:00:00-05:00", earlier), results(30.0))
    assert document["score"] == 38.0


# --- late -------------------------------------------------------------------------------------

PER_DAY = parse_policy({"late": {"percent": 10, "per": "day"}})
PER_HOUR = parse_policy({"late": {"percent": 5, "per": "hour", "most": 50}})


def test_on_time_nothing_is_taken_and_that_is_said():
    document, _ = decide(PER_DAY, metadata("2026-11-20T23:58:59-05:00"), results(36.0))
    assert document["score"] == 36.0
    assert "Policy: On time (submitted 2026-11-20 23:58 -05:00, due 2026-11-20 23:59 " \
        "-05:00)." in document["output"]


@pytest.mark.parametrize("policy, created, score, computation", [
    (PER_DAY, "2026-11-21T00:59:00-05:00", 32.4, "Late by 1 h (submitted 2026-11-21 00:59 "
     "-05:00, due 2026-11-20 23:59 -05:00): 1 day × 10% = 10% off: 36 × 0.9 = 32.4"),
    (PER_HOUR, "2026-11-21T00:59:00-05:00", 34.2, "1 hour × 5% = 5% off: 36 × 0.95 = 34.2"),
    (PER_DAY, "2026-11-23T23:59:00-05:00", 25.2, "Late by 3 days (submitted 2026-11-23 23:59 "
     "-05:00, due 2026-11-20 23:59 -05:00): 3 days × 10% = 30% off: 36 × 0.7 = 25.2"),
    (PER_HOUR, "2026-11-23T23:59:00-05:00", 18.0,
     "72 hours × 5% = 360%, at most 50% off: 36 × 0.5 = 18"),
])
def test_late_by_an_hour_and_by_three_days(policy, created, score, computation):
    document, _ = decide(policy, metadata(created), results(36.0))
    assert document["score"] == score
    assert computation in document["output"]
    assert document["extra_data"]["raw_score"] == 36.0


def test_the_due_date_is_compared_as_an_instant_whatever_the_offsets():
    # 05:30 UTC is 00:30 at -05:00: half an hour late
    document, _ = decide(PER_DAY, metadata("2026-11-21T05:29:00Z"), results(36.0))
    assert document["score"] == 32.4 and "Late by 30 min" in document["output"]


def test_a_flat_penalty_grace_and_the_policys_own_due_date():
    policy = parse_policy({"late": {"percent": 20, "per": "once", "grace_minutes": 15},
                           "due_date": "2026-11-25T12:00:00+00:00"})
    in_grace, _ = decide(policy, metadata("2026-11-25T12:14:00+00:00", due=None), results(30.0))
    assert in_grace["score"] == 30.0 and "On time" in in_grace["output"]
    late, _ = decide(policy, metadata("2026-11-29T12:00:00+00:00", due=DUE), results(30.0))
    assert late["score"] == 24.0 and "1 late submission × 20% = 20% off" in late["output"]


# --- feedback ---------------------------------------------------------------------------------

def test_hidden_feedback_for_the_first_submissions_of_each_day_only():
    policy = parse_policy({"feedback": {"first_per_day": 2}})
    earlier = [{"submission_time": "2026-11-17T23:30:00-05:00", "score": 1.0},  # the day before
               {"submission_time": "2026-11-18T08:00:00-05:00", "score": 1.0}]
    second, _ = decide(policy, metadata("2026-11-18T09:00:00-05:00", earlier), results(5.0))
    assert [t["visibility"] for t in second["tests"]] == ["visible", "visible"]
    assert "submission 2 of the first 2 each day" in second["output"]
    earlier.append({"submission_time": "2026-11-18T09:00:00-05:00", "score": 1.0})
    third, _ = decide(policy, metadata("2026-11-18T10:00:00-05:00", earlier), results(5.0))
    assert [t["visibility"] for t in third["tests"]] == ["visible", "after_due_date"]
    assert "released after the due date: this is submission 3 today" in third["output"]


def test_hidden_feedback_after_the_due_date_only():
    document = results(5.0)
    document["tests"][1]["visibility"] = "hidden"
    final, _ = decide(parse_policy({"feedback": {}}), metadata("2026-11-18T09:00:00-05:00"),
                      document)
    assert [t["visibility"] for t in final["tests"]] == ["visible", "after_due_date"]


# --- bad or missing metadata ------------------------------------------------------------------

EVERYTHING = parse_policy({"rate_limit": {"submissions": 1, "hours": 24}, "keep": "best",
                           "late": {"percent": 50, "per": "hour"},
                           "feedback": {"first_per_day": 0}})


@pytest.mark.parametrize("meta", [
    {},  # a local run: no file
    [],
    {"created_at": "yesterday"},
    {"created_at": "2026-11-30T10:00:00"},  # no offset
    {"created_at": 1732000000},
    metadata("2026-11-30T10:00:00-05:00", [{"submission_time": None, "score": 40}], due=None),
    dict(metadata("2026-11-30T10:00:00-05:00"), previous_submissions={"oops": 1},
         assignment={"due_date": "soon"}),
], ids=["none", "a-list", "no-time", "no-offset", "a-number", "bad-previous", "all-wrong"])
def test_bad_or_missing_metadata_costs_nothing(meta):
    document, refused = decide(EVERYTHING, meta, results(36.0))
    assert not refused and document["score"] == 36.0
    assert document["tests"][1]["visibility"] == "after_due_date"  # as the spec made it
    assert document["output"].count("was not applied") >= 2
    assert "your score stands as graded" in document["output"]


def test_a_regrade_from_the_same_metadata_gives_the_same_document():
    meta = metadata("2026-11-22T10:00:00-05:00", EARLIER)
    first, _ = decide(EVERYTHING, meta, results(36.0))
    again, _ = decide(EVERYTHING, json.loads(json.dumps(meta)), results(36.0))
    assert first == again
