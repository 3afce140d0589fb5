"""Find comparators and runners by name: a built-in name or ``package.module:function``."""
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
    return cast(Callable[..., Any], function)


def resolve_comparator(name: str) -> Callable[..., Any]:
    """A built-in comparator by name, or a dotted reference to one.

    Raises:
        LookupError: no such comparator.
    """
    from harness.compare.builtin import BUILTIN
    if name in BUILTIN:
        return BUILTIN[name]
    if ":" not in name:
        raise LookupError(f"unknown comparator {name!r} (built-ins: {', '.join(BUILTIN)})")
    return resolve_callable(name)


def check_case_references(case: Any) -> None:
    """Make sure the comparator and runner a case names exist and its accepted forms are known,
    before any student code runs.

    Raises:
        SpecError: naming the case and the field (``compare``, ``runner`` or ``options.accept``).
    """
    from harness.spec.errors import SpecError
    try:
        resolve_comparator(case.compare)
        if case.runner:
            resolve_callable(case.runner)
    except LookupError as exc:
        raise SpecError(case.file, str(exc), case=case.name,
                        field="runner" if case.runner else "compare") from exc
    from harness.compare.equality import accepted_forms
    try:
        accepted_forms(case.options)
    except ValueError as exc:
        raise SpecError(case.file, str(exc), case=case.name, field="options.accept") from exc
    from harness.compare.constant_parts import NO_CREDIT, OPTION, SEARCH_PARTS
    if case.options.get(OPTION, NO_CREDIT) != NO_CREDIT:
        raise SpecError(case.file, f"{OPTION} must be {NO_CREDIT!r}, not "
                        f"{case.options[OPTION]!r}", case=case.name, field=f"options.{OPTION}")
    search_parts = case.options.get(SEARCH_PARTS, [])
    names = case.options.get("names", [])
    if not isinstance(search_parts, list) or not set(search_parts) <= set(names) or (
            search_parts and OPTION not in case.options):
        raise SpecError(case.file, f"{SEARCH_PARTS} must list some of the parts' names "
                        f"({', '.join(map(str, names))}), with {OPTION}: {NO_CREDIT}",
                        case=case.name, field=f"options.{SEARCH_PARTS}")
