"""Spec files read safely, and checked against their schema: every problem a ``SpecError``
naming file, case and field."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from harness import schema_checks
from harness.spec import schema
from harness.spec.errors import SpecError

# Each spec schema by the name of its generated check (harness/schema_checks/).
CHECKED_SCHEMAS: dict[str, dict[str, Any]] = {
    "assignment": schema.ASSIGNMENT, "case_file": schema.CASE_FILE,
    "generated_file": schema.GENERATED_FILE, "precomputed_file": schema.PRECOMPUTED_FILE,
    "reference_times": schema.REFERENCE_TIMES}


# libyaml's safe loader when PyYAML was built with it: about ten times faster on the case files
# (spec loading is part of every grading run). A file it refuses is parsed again by the
# pure-Python loader, whose error messages name the line and column.
_FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_yaml(path: Path) -> Any:
    """Parse a YAML file safely, turning every failure into a SpecError."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SpecError(path, f"cannot be read: {exc}") from exc
    try:
        return yaml.load(text, Loader=_FAST_LOADER)  # a safe loader
    except yaml.YAMLError:
        pass
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise SpecError(path, f"is not valid YAML: {exc}") from exc


def check_schema(path: Path, data: Any, check: str) -> None:
    """Check ``data`` against the schema ``CHECKED_SCHEMAS[check]``; name the case and field at
    fault. jsonschema (slow to import) is asked only when the generated check refuses."""
    if schema_checks.passes(check, data):
        return
    import jsonschema
    rules = CHECKED_SCHEMAS[check]
    errors = jsonschema.Draft202012Validator(rules).iter_errors(data)
    error = jsonschema.exceptions.best_match(errors)
    if error is None:
        return
    where = list(error.absolute_path)
    case = field = None
    if len(where) >= 2 and where[0] in ("cases", "generate") and isinstance(where[1], int):
        entry = data[where[0]][where[1]] if isinstance(data, dict) else None
        label = entry.get("name") or entry.get("id") if isinstance(entry, dict) else None
        case = str(label) if label else f"{where[0]}[{where[1]}]"
        where = where[2:]
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = set(error.schema.get("properties", {}))
        unexpected = sorted(str(key) for key in error.instance if key not in allowed)
        where = [*where, unexpected[0]] if unexpected else where  # the misspelt key's own line
    if where:
        field = ".".join(str(part) for part in where)
    raise SpecError(path, error.message, case=case, field=field)
