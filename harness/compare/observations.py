"""Observations: what the worker saw for each example, decoded into trusted plain data."""
from __future__ import annotations

from harness.records.observations import ErrorInfo, Observation
from harness.wire.protocol import ErrorReport, ObservationReport, value_of
from harness.wire.safe_text import safe_text

MAX_STDOUT = 20000


def error_from_reply(report: ErrorReport) -> ErrorInfo:
    """An ErrorInfo from a decoded error report, its texts made safe to store and show."""
    return ErrorInfo(safe_text(report.type, 200), safe_text(report.message, 2000),
                     safe_text(report.where, 2000))


def observations_from_reply(items: list[ObservationReport] | None) -> list[Observation]:
    """Observations from a decoded ``run`` reply: values rebuilt, texts made safe.

    Raises:
        harness.wire.protocol.ProtocolError (a ValueError): a value breaks the wire format's bounds,
            or the reply holds no observations.
    """
    if items is None:
        raise ValueError("the reply holds no observations")
    return [Observation(value=value_of(item.value) if item.has_value else None,
                        has_value=item.has_value, stdout=safe_text(item.stdout, 20000),
                        transcript_stdout=None if item.transcript_stdout is None
                        else safe_text(item.transcript_stdout, 20000),
                        error=None if item.error is None else error_from_reply(item.error))
            for item in items]
