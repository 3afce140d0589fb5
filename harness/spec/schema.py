"""JSON Schemas for assignment.yaml and case files, checked before any student code runs."""
from __future__ import annotations

from typing import Any

VISIBILITY = {"enum": ["visible", "hidden", "after_due_date", "after_published"]}
POINTS = {"type": "number", "minimum": 0}
MAX_TIMEOUT = 600
# A timeout is seconds, or relative to the reference's time on the grading host; it is checked
# by ``timeout_problem`` on each case (jsonschema's messages for "one of two forms" name neither).
TIMEOUT: dict[str, Any] = {}
RELATIVE_TIMEOUT_KEYS = ("reference", "at_least")
TIMEOUT_FORMS = (f"a number of seconds (more than 0, at most {MAX_TIMEOUT}) or "
                 "{reference: K, at_least: S} (K times the reference's time, at least S seconds, "
                 "scaled to the grading host's speed)")
NAME = {"type": "string", "minLength": 1, "maxLength": 200}
DOTTED = {"type": "string", "pattern": r"^[A-Za-z_][\w.]*(:[A-Za-z_]\w*)?$"}
# A PyPI name with optional version clauses ("numpy", "numpy>=1.22,<3"): no URL, extra, marker
# or option, so the text can go to pip as it is.
_VERSION = r"\s*(==|!=|~=|>=|<=|<|>)\s*[A-Za-z0-9.*+!_-]+"
REQUIREMENT = {"type": "string", "maxLength": 200,
               "pattern": rf"^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?"
                          rf"({_VERSION}(\s*,{_VERSION})*)?$"}
IDENTIFIER = {"type": "string", "pattern": r"^[A-Za-z_]\w*$"}
ALLOWED_PACKAGE = {"oneOf": [
    REQUIREMENT,
    {"type": "object", "required": ["package", "module"],
     "properties": {"package": REQUIREMENT, "module": IDENTIFIER},
     "additionalProperties": False}]}

# A course's policy over submissions (harness/policy/): dates are ISO 8601 with a UTC offset,
# checked when the policy is parsed.
DATE_TEXT = {"type": "string", "minLength": 10, "maxLength": 60}
POLICY = {
    "type": "object",
    "properties": {
        "rate_limit": {"type": "object", "required": ["submissions", "hours"], "properties": {
            "submissions": {"type": "integer", "minimum": 1, "maximum": 1000},
            "hours": {"type": "number", "exclusiveMinimum": 0, "maximum": 8760}},
            "additionalProperties": False},
        "keep": {"enum": ["best", "last"]},
        "late": {"type": "object", "required": ["percent", "per"], "properties": {
            "percent": {"type": "number", "exclusiveMinimum": 0, "maximum": 100},
            "per": {"enum": ["hour", "day", "once"]},
            "most": {"type": "number", "minimum": 0, "maximum": 100},
            "grace_minutes": {"type": "number", "minimum": 0, "maximum": 10080}},
            "additionalProperties": False},
        "feedback": {"type": "object", "properties": {
            "first_per_day": {"type": "integer", "minimum": 0, "maximum": 1000}},
            "additionalProperties": False},
        "due_date": DATE_TEXT,
    },
    "additionalProperties": False,
}


def timeout_problem(value: Any) -> str:
    """What is wrong with a ``timeout`` value ("" if nothing): seconds, or
    ``{reference: K, at_least: S}`` with ``at_least`` optional (default 1 s)."""
    def positive(number: Any, most: float) -> bool:
        return isinstance(number, (int, float)) and not isinstance(number, bool) \
            and 0 < number <= most
    if isinstance(value, dict):
        unknown = sorted(str(key) for key in value if key not in RELATIVE_TIMEOUT_KEYS)
        if unknown:
            return f"unknown key {unknown[0]!r} in the timeout; expected {TIMEOUT_FORMS}"
        if "reference" not in value:
            return f"the timeout lacks 'reference'; expected {TIMEOUT_FORMS}"
        if not positive(value["reference"], 10000):
            return (f"the timeout's 'reference' must be a number more than 0 (how many times the "
                    f"reference's time), got {value['reference']!r}")
        if "at_least" in value and not positive(value["at_least"], MAX_TIMEOUT):
            return (f"the timeout's 'at_least' must be seconds, more than 0 and at most "
                    f"{MAX_TIMEOUT}, got {value['at_least']!r}")
        return ""
    if positive(value, MAX_TIMEOUT):
        return ""
    return f"expected {TIMEOUT_FORMS}, got {value!r}"


_CASE_COMMON: dict[str, Any] = {
    "points": POINTS,
    "visibility": VISIBILITY,
    "timeout": TIMEOUT,
    "compare": DOTTED,
    "runner": DOTTED,
    "options": {"type": "object"},
    "stdin": {"type": "string"},
    "tags": {"type": "array", "items": {"type": "string"}},
    "module": {"type": "string", "pattern": r"^[A-Za-z_]\w*$"},
    "diagnose": DOTTED,
    # A trusted function drawing a failed case's position (harness.compare.pictures).
    "picture": DOTTED,
    "alone": {"type": "boolean"},
    # A trusted function of the case's options whose answer 'gamegrader generate' writes into
    # generated/<file>.precomputed.yaml; the loader adds it to the options as "precomputed".
    "precompute": DOTTED,
}

CASE = {
    "type": "object",
    "required": ["name"],
    "properties": {"name": NAME, "doctest": {"type": "string", "minLength": 1},
                   "mirror_of": NAME, **_CASE_COMMON},
    "additionalProperties": False,
}

GENERATE = {
    "type": "object",
    "required": ["id", "generator", "seed", "count"],
    "properties": {
        "id": {"type": "string", "pattern": r"^[a-z0-9_]+$"},
        "generator": DOTTED,
        "seed": {"type": "integer"},
        "count": {"type": "integer", "minimum": 1, "maximum": 10000},
        "params": {"type": "object"},
        **_CASE_COMMON,
    },
    "additionalProperties": False,
}

CASE_FILE = {
    "type": "object",
    "required": ["group"],
    "properties": {
        "group": NAME,
        "defaults": {"type": "object", "properties": _CASE_COMMON, "additionalProperties": False},
        "cases": {"type": "array", "items": CASE},
        "generate": {"type": "array", "items": GENERATE},
        # a unittest suite (gradescope-utils style) beside the file: one case per test method
        "suite": {"type": "string", "pattern": r"^[\w./-]+\.py$"},
        "include": {"type": "array", "items": {
            "type": "object", "required": ["file"],
            "properties": {"file": {"type": "string"},
                           "points_scale": {"type": "number", "exclusiveMinimum": 0},
                           "override": {"type": "object", "properties": _CASE_COMMON,
                                        "additionalProperties": False}},
            "additionalProperties": False}},
    },
    "additionalProperties": False,
}

GENERATED_FILE = {
    "type": "object",
    "required": ["source", "cases"],
    "properties": {
        "source": {"type": "object"},
        "cases": {"type": "array", "items": {
            "type": "object", "required": ["name", "doctest"],
            "properties": {"name": NAME, "doctest": {"type": "string"},
                           "options": {"type": "object"}, "stdin": {"type": "string"},
                           # the visible case (same group) whose position this one mirrors
                           "mirror_of": NAME,
                           "tags": {"type": "array", "items": {"type": "string"}}},
            "additionalProperties": False}},
    },
    "additionalProperties": False,
}

PRECOMPUTED_FILE = {
    "type": "object",
    "required": ["cases"],
    "properties": {
        "cases": {"type": "array", "items": {
            "type": "object", "required": ["name", "precompute", "options", "data"],
            "properties": {"name": NAME, "precompute": DOTTED, "options": {"type": "object"},
                           "data": {"type": "object"}},
            "additionalProperties": False}},
    },
    "additionalProperties": False,
}

REFERENCE_TIMES = {
    "type": "object",
    "required": ["seconds"],
    "properties": {
        "recorded": {"type": "string"},
        "host_speed": {"type": "number", "exclusiveMinimum": 0},
        "seconds": {"type": "object", "additionalProperties": {
            "type": "number", "exclusiveMinimum": 0, "maximum": MAX_TIMEOUT}},
    },
    "additionalProperties": False,
}

# The staff ladder (harness.games.ladder): house bots in order of strength, the points for
# beating each; graded as one case after the case files' cases.
LADDER = {
    "type": "object",
    "required": ["clock", "games", "rungs"],
    "properties": {
        "clock": {"type": "number", "exclusiveMinimum": 0, "maximum": MAX_TIMEOUT},
        "settings": {"type": "object"},
        "games": {"type": "integer", "minimum": 1, "maximum": 100},
        "seed": {"type": "integer"},
        "visibility": VISIBILITY,
        "timeout": {"type": "number", "exclusiveMinimum": 0, "maximum": MAX_TIMEOUT},
        "rungs": {"type": "array", "minItems": 1, "items": {
            "type": "object", "required": ["bot", "points"],
            "properties": {"bot": IDENTIFIER, "points": POINTS,
                           "wins": {"type": "integer", "minimum": 1},
                           "rating": {"type": "number"}},
            "additionalProperties": False}},
    },
    "additionalProperties": False,
}

ASSIGNMENT = {
    "type": "object",
    "required": ["name", "title", "module"],
    "properties": {
        "name": {"type": "string", "pattern": r"^[a-z][a-z0-9_]*$"},
        "title": NAME,
        "module": {"type": "string", "pattern": r"^[A-Za-z_]\w*$"},
        "submission_files": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        "support_files": {"type": "array", "items": {"type": "string"}},
        "probe_files": {"type": "array", "items": {"type": "string"}},
        "name_resolver": {"type": "string", "pattern": r"^[A-Za-z_]\w*$"},
        "variant_of": {"type": "string", "pattern": r"^[a-z][a-z0-9_]*$"},
        "student_package": {"type": "array", "uniqueItems": True,
                            "items": {"enum": ["checkers", "pictures", "games"]}},
        "gradescope_only_because": {"type": "string", "minLength": 1, "maxLength": 300},
        "api": {"type": "array", "items": {"type": "string"}},
        "limits": {"type": "object", "properties": {
            "memory_mb": {"type": "integer", "minimum": 64},
            "file_mb": {"type": "integer", "minimum": 1},
            "open_files": {"type": "integer", "minimum": 16},
            "processes": {"type": "integer", "minimum": 1},
            "sandbox_memory_mb": {"type": "integer", "minimum": 64},
            "disk_mb": {"type": "integer", "minimum": 1},
            "disk_files": {"type": "integer", "minimum": 16}},
            "additionalProperties": False},
        "budget_seconds": {"type": "number", "exclusiveMinimum": 0},
        "kit": {"type": "string", "pattern": r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$"},
        "ladder": LADDER,
        "total_points": POINTS,
        "allowed_packages": {"type": "array", "items": ALLOWED_PACKAGE, "uniqueItems": True},
        "grading_python": {"type": "string", "pattern": r"^3\.[0-9]{1,2}$"},
        "policy": POLICY,
    },
    "additionalProperties": False,
}
