"""The one way the harness imports what a spec names by ``package.module:function`` (comparators,
runners, generators, diagnoses, pictures, kits, house bots); ``harness.spec.registry`` types it
as each plug-in's contract."""
from __future__ import annotations

import importlib
from typing import Any, Callable, cast


def resolve_callable(reference: str) -> Callable[..., Any]:
    """Import ``package.module:function`` and return the function.

    Raises:
        LookupError: the module or the function cannot be found.
    """
    module_name, colon, attribute = reference.partition(":")
    if not colon:
        raise LookupError(f"{reference!r} is not of the form 'package.module:function'")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise LookupError(f"cannot import {module_name!r}: {exc}") from exc
    function = getattr(module, attribute, None)
    if not callable(function):
        raise LookupError(f"{module_name!r} has no function {attribute!r}")
    return cast("Callable[..., Any]", function)
