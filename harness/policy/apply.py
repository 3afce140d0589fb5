"""The one place a policy changes a results document: before grading (the rate limit may
re-emit the last graded results instead) and after it (late penalty, kept score, feedback).

Every decision goes into the document: the score, a line at the top of the output for each
policy, and ``extra_data`` (``raw_score``: the grade before the policy; ``policy``: what was
decided and from what), so the same metadata gives the same document on a regrade. A policy
whose facts cannot be read is skipped with a note, and the grade stands as graded.
"""
from __future__ import annotations

import copy
from datetime import datetime
from typing import Any

from harness.policy import feedback, keep, late, rate
from harness.policy.metadata import Facts
from harness.records.policy import Policy
from harness.records.times import shown

PREFIX = "Policy: "
REFUSED = "this submission was not graded"


def _skipped(what: str, why: str) -> str:
    return f"{what} was not applied ({why}); your score stands as graded"


def _due(policy: Policy, facts: Facts) -> datetime | None:
    return policy.due_date or facts.due_date


def _with_lines(output: str, lines: list[str]) -> str:
    """The policy's lines above ``output``, less any refusal lines at its top (results
    re-emitted again say only the latest refusal)."""
    body = output.split("\n")
    while body and body[0].startswith(PREFIX + REFUSED[0].upper() + REFUSED[1:]):
        body.pop(0)
    while body and not body[0]:
        body.pop(0)
    head = "\n".join(PREFIX + line[0].upper() + line[1:] + "." for line in lines)
    return "\n\n".join(part for part in (head, "\n".join(body)) if part)


def before_grading(policy: Policy, facts: Facts) -> dict[str, Any] | None:
    """The document to write instead of grading (the last graded results, with the top line
    saying when the next grading is free), or None: grade."""
    from harness.grading import results as results_file
    rule = policy.rate_limit
    if rule is None or facts.created_at is None:
        return None
    earlier, _ = rate.graded_before(facts)
    latest = facts.latest
    if earlier is None or latest is None or latest.results is None:
        return None
    recent = rate.within(rule, earlier, facts.created_at)
    if len(recent) < rule.submissions:
        return None
    document = copy.deepcopy(latest.results)
    try:
        results_file.validate(document)
    except Exception:  # unusable earlier results: grade instead (after_grading says why)
        return None
    free = rate.next_grading(rule, recent)
    given = document.get("extra_data")
    extra: dict[str, Any] = given if isinstance(given, dict) else {}
    decided = dict(extra.get("policy") or {})
    decided.update(graded=False, graded_at=rate.chain_text(recent),
                   refused_at=facts.created_at.isoformat(), next_grading=free.isoformat())
    document["extra_data"] = {**extra, "final": True, "policy": decided}
    document["execution_time"] = 0
    line = (f"{REFUSED}: at most {rule.submissions} submission"
            f"{'s are' if rule.submissions != 1 else ' is'} graded in any {rule.hours:g} h, "
            f"and {len(recent)} already were. The next grading is available from "
            f"{shown(free)}. Below are the results of your last graded submission"
            f" ({shown(recent[-1])}), with its score")
    document["output"] = _with_lines(str(document.get("output", "")), [line])
    return document


def after_grading(policy: Policy, facts: Facts, document: dict[str, Any]) -> dict[str, Any]:
    """``document`` (this submission's grade) with the policy applied."""
    document = copy.deepcopy(document)
    raw = float(document["score"])
    score = raw
    lines: list[str] = []
    decided: dict[str, Any] = {"graded": True}
    created = facts.created_at
    missing = facts.problems[0] if facts.problems else "the submission's time is unknown"

    if policy.rate_limit is not None:
        rule = policy.rate_limit
        earlier, why = rate.graded_before(facts)
        if created is None or earlier is None:
            lines.append(_skipped("the rate limit", why or missing))
        else:
            recent = rate.within(rule, [*earlier, created], created)
            decided["graded_at"] = rate.chain_text(recent)
            decided["submitters"] = list(facts.users)  # the group the count is shared by
            lines.append(f"graded submission {len(recent)} of at most {rule.submissions} in "
                         f"any {rule.hours:g} h")

    if policy.late is not None:
        due = _due(policy, facts)
        if created is None or due is None:
            lines.append(_skipped("the late penalty", missing if created is None else
                                  "no due date in the metadata or the policy"))
        else:
            taken, why = late.percent_off(policy.late, due, created)
            if taken:
                score, arithmetic = late.penalised(raw, taken)
                why = f"{why}: {arithmetic}"
            decided["late"] = {"due_date": due.isoformat(), "percent_off": taken,
                               "score": score}
            lines.append(why)

    if policy.keep == "best":
        if facts.previous_problem or keep.unscored(facts):
            why = facts.previous_problem or "an earlier submission's score is missing"
            lines.append(_skipped("keeping your best score", why))
        else:
            best = keep.best_before(facts)
            if best is not None and best[0] > score:
                lines.append(f"score kept: {best[0]:g}, your best, from your submission of "
                             f"{shown(best[1])} (this one scored {score:g})")
                decided["kept"] = {"score": best[0], "from": best[1].isoformat()}
                score = best[0]
            else:
                lines.append(f"score kept: {score:g}, this submission's (your best so far)")
                decided["kept"] = {"score": score, "from": "this submission"}
    elif policy.keep == "last":
        lines.append(f"score kept: {score:g}, this submission's (your last)")
        decided["kept"] = {"score": score, "from": "this submission"}

    if policy.feedback is not None:
        if created is None:
            lines.append(_skipped("the feedback release", missing).replace(
                "your score stands as graded", "hidden tests keep their own visibility"))
        else:
            said = feedback.release(policy.feedback, facts, document.get("tests", []))
            if said:
                lines.append(said)

    document["score"] = round(score, 4)
    document["output"] = _with_lines(str(document.get("output", "")), lines)
    document["extra_data"] = {**document.get("extra_data", {}), "raw_score": raw,
                              "policy": decided}
    return document
