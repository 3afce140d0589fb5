"""The late penalty: how much is taken off, and the computation in the students' words."""
from __future__ import annotations

import math
from datetime import datetime, timedelta

from harness.records.policy import LatePenalty
from harness.records.times import shown, span_text

_UNIT_SECONDS = {"hour": 3600, "day": 86400}


def percent_off(rule: LatePenalty, due: datetime, created: datetime) -> tuple[float, str]:
    """``(percent taken off the score, why)``; lateness counts from the due date, a started
    hour or day counting whole, and a submission within the grace period is on time."""
    late = created - due
    if late <= timedelta(minutes=rule.grace_minutes):
        return 0.0, f"on time (submitted {shown(created)}, due {shown(due)})"
    if rule.per == "once":
        units, unit = 1, "late submission"
    else:
        units = math.ceil(late.total_seconds() / _UNIT_SECONDS[rule.per])
        unit = rule.per if units == 1 else f"{rule.per}s"
    total = units * rule.percent
    taken = min(total, rule.most)
    capped = f", at most {rule.most:g}%" if taken < total else ""
    return taken, (f"late by {span_text(late)} (submitted {shown(created)}, due {shown(due)}): "
                   f"{units} {unit} × {rule.percent:g}% = {total:g}%{capped} off")


def penalised(score: float, taken: float) -> tuple[float, str]:
    """The score after ``taken`` percent off, and the arithmetic shown."""
    factor = 1 - taken / 100
    result = round(score * factor, 4)
    return result, f"{score:g} × {factor:g} = {result:g}"
