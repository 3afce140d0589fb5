"""JUnit XML in Ant's schema (CI servers, CodeGrade's Unit Test step) from an outcome.

One ``testsuites`` root with one ``testsuite`` (Ant's schema asks each suite inside a root for
``package`` and ``id``), one ``testcase`` per visible case and one for the hidden cases
together; a case not passed carries a ``failure`` (its verdict and feedback), or an ``error``
when it was not run or the grader failed. ``system-out`` holds the summary. Text is kept to the
characters XML 1.0 allows: student output can hold any.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from datetime import datetime, timezone

from harness.platforms.outcome import HIDDEN_NAME, GradingOutcome
from harness.records.verdicts import Verdict

_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
ERRORS = (Verdict.NOT_RUN.name, Verdict.HARNESS_ERROR.name)
"""Verdicts that are errors (the case did not get to run), not failures of the code."""


def xml_text(text: str) -> str:
    """``text`` with every character XML 1.0 cannot hold replaced."""
    return _NOT_XML.sub("\ufffd", text)


def timestamp(outcome: GradingOutcome) -> str:
    """Ant's timestamp (ISO 8601 without a zone, UTC): the submission time, else now."""
    when = None
    if outcome.submitted_at:
        try:
            when = datetime.fromisoformat(outcome.submitted_at.replace("Z", "+00:00"))
        except ValueError:
            when = None
    when = when or datetime.now(timezone.utc)
    if when.tzinfo is not None:
        when = when.astimezone(timezone.utc)
    return when.strftime("%Y-%m-%dT%H:%M:%S")


def render(outcome: GradingOutcome) -> bytes:
    name = outcome.assignment or "gamegrader"
    root = ElementTree.Element("testsuites")
    rows: list[tuple[str, str, float, str, str, str]] = []  # name, class, time, kind, type, text
    for case in outcome.shown:
        kind = "" if case.passed else "error" if case.verdict in ERRORS else "failure"
        rows.append((f"{case.number} {case.name}".strip(), f"{name}.{case.case_id}",
                     case.seconds, kind, case.verdict or "FAILED", case.feedback))
    hidden = outcome.hidden
    if hidden is not None:
        rows.append((HIDDEN_NAME, f"{name}.hidden", 0.0,
                     "" if hidden.passed == hidden.count else "failure", "HIDDEN", hidden.text))
    suite = ElementTree.SubElement(root, "testsuite", {
        "name": name, "package": "gamegrader", "id": "0", "timestamp": timestamp(outcome),
        "hostname": "gamegrader", "tests": str(len(rows)),
        "failures": str(sum(row[3] == "failure" for row in rows)),
        "errors": str(sum(row[3] == "error" for row in rows)),
        "time": f"{max(outcome.seconds, 0.0):.3f}"})
    properties = ElementTree.SubElement(suite, "properties")
    for key, value in (("score", f"{outcome.score:g}"), ("max_score", f"{outcome.max_score:g}"),
                       ("fraction", f"{outcome.fraction:.6f}")):
        ElementTree.SubElement(properties, "property", {"name": key, "value": value})
    for title, classname, seconds, kind, verdict, text in rows:
        case_element = ElementTree.SubElement(suite, "testcase", {
            "name": xml_text(title) or "case", "classname": xml_text(classname),
            "time": f"{max(seconds, 0.0):.3f}"})
        if kind:
            problem = ElementTree.SubElement(case_element, kind, {
                "message": xml_text(text.split("\n", 1)[0]), "type": verdict})
            problem.text = xml_text(text)
    ElementTree.SubElement(suite, "system-out").text = xml_text(outcome.summary)
    ElementTree.SubElement(suite, "system-err").text = xml_text(
        outcome.fault or outcome.ungradable)
    ElementTree.indent(root)
    data: bytes = ElementTree.tostring(root, encoding="utf-8", xml_declaration=True)
    return data + b"\n"
