"""The exceptions the generated checks raise, under fastjsonschema's names, so that its code runs
as generated without importing fastjsonschema (a build tool here, not needed to grade)."""
from __future__ import annotations

from typing import Any


class JsonSchemaValueException(ValueError):
    """A refused document. Only the refusal matters: jsonschema then words what is wrong."""

    def __init__(self, message: str, *details: Any, **named_details: Any) -> None:
        super().__init__(message)


JsonSchemaValuesException = JsonSchemaValueException
