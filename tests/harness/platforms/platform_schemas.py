"""Each platform's contract as the tests check it: PrairieLearn's documented results fields and
types, Classroom 50's fields (JSON schemas), the Ant JUnit XSD (``junit_ant.xsd``, checked by
xmlschema) and the TAP 14 grammar (``tap14_problems``). A wrong field fails here."""
from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import jsonschema
import yaml

TEXT = {"type": "string"}
NUMBER = {"type": "number"}
PRAIRIELEARN_RESULTS: dict[str, Any] = {
    "type": "object",
    "required": ["gradable"],
    "properties": {
        "gradable": {"type": "boolean"},
        "score": {"type": "number", "minimum": 0, "maximum": 1},
        "message": TEXT, "output": TEXT,
        "format_errors": {"type": "array", "items": TEXT},
        "images": {"$ref": "#/$defs/images"},
        "tests": {"type": "array", "items": {
            "type": "object", "additionalProperties": False,
            "required": ["name", "points", "max_points"],
            "properties": {"name": TEXT, "description": TEXT, "points": NUMBER,
                           "max_points": NUMBER, "message": TEXT, "output": TEXT,
                           "images": {"$ref": "#/$defs/images"}}}},
    },
    "additionalProperties": False,
    "allOf": [{"if": {"properties": {"gradable": {"const": True}}},
               "then": {"required": ["score", "tests"]},
               "else": {"required": ["format_errors"],
                        "properties": {"format_errors": {"minItems": 1}}}}],
    "$defs": {"images": {"type": "array", "items": {
        "type": "object", "additionalProperties": False, "required": ["label", "url"],
        "properties": {"label": TEXT,
                       "url": {"type": "string", "pattern": "^data:image/png;base64,"}}}}},
}
CLASSROOM50_RESULT: dict[str, Any] = {
    "type": "object", "additionalProperties": False,
    "required": ["score", "max-score", "submitted-at", "tests"],
    "properties": {
        "score": NUMBER, "max-score": NUMBER,
        "submitted-at": {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}"
                         r"(\.\d+)?(Z|[+-]\d{2}:\d{2})$"},
        "tests": {"type": "array", "items": {
            "type": "object", "additionalProperties": False,
            "required": ["test-name", "passed", "score", "max-score"],
            "properties": {"test-name": TEXT, "passed": {"type": "boolean"}, "score": NUMBER,
                           "max-score": NUMBER}}}},
}
JUNIT_XSD = Path(__file__).with_name("junit_ant.xsd")


def check_prairielearn(document: Any) -> None:
    jsonschema.validate(document, PRAIRIELEARN_RESULTS)


def check_classroom50(document: Any) -> None:
    jsonschema.validate(document, CLASSROOM50_RESULT)


@functools.lru_cache(maxsize=1)
def _junit_schema() -> Any:
    import xmlschema
    return xmlschema.XMLSchema(str(JUNIT_XSD))


def check_junit(data: bytes) -> None:
    _junit_schema().validate(data.decode("utf-8"))


_VERSION = "TAP version 14"
_PLAN = re.compile(r"^1\.\.(\d+)$")
_POINT = re.compile(r"^(not )?ok(?: (\d+))?(?: -)?(?: ((?:[^#\\]|\\[#\\])*?))?"
                    r"(?: # (?:SKIP|TODO)\b.*)?$")


def tap14_problems(text: str) -> list[str]:
    """What breaks the TAP 14 grammar in ``text`` (a producer's whole output), [] if nothing:
    the version line first, one plan, test points numbered in order with ``#`` and ``\\``
    escaped in descriptions, each YAML block 2-space indented between ``---`` and ``...``
    right after its test point and a mapping, only comments otherwise."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or lines[0] != _VERSION:
        return ["the first line is not 'TAP version 14'"]
    problems, plans, numbers = [], [], []
    index, after_point = 1, False
    while index < len(lines):
        line = lines[index]
        if line == "  ---":
            if not after_point:
                problems.append(f"line {index + 1}: a YAML block not right after a test point")
            end = next((i for i in range(index + 1, len(lines)) if lines[i] == "  ..."), None)
            if end is None:
                return problems + [f"line {index + 1}: a YAML block never closed"]
            body = lines[index + 1:end]
            if any(not b.startswith("  ") for b in body):
                problems.append(f"line {index + 1}: a YAML line not indented by 2 spaces")
            try:
                if not isinstance(yaml.safe_load("\n".join(b[2:] for b in body)), dict):
                    problems.append(f"line {index + 1}: the YAML block is not a mapping")
            except yaml.YAMLError as exc:
                problems.append(f"line {index + 1}: YAML error {exc}")
            index, after_point = end + 1, False
            continue
        after_point = False
        plan, point = _PLAN.match(line), _POINT.match(line)
        if plan:
            plans.append(int(plan.group(1)))
        elif point:
            numbers.append(int(point.group(2)) if point.group(2) else len(numbers) + 1)
            after_point = True
        elif not line.lstrip().startswith("#") and line.strip():
            problems.append(f"line {index + 1}: not TAP: {line[:60]!r}")
        index += 1
    if len(plans) != 1:
        problems.append(f"{len(plans)} plans (one is needed)")
    elif plans[0] != len(numbers):
        problems.append(f"the plan says {plans[0]} tests, {len(numbers)} were reported")
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append("test points out of order")
    return problems
