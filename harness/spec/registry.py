"""Find an assignment's plug-ins by name (a built-in name or ``package.module:function``), typed
as the contracts of ``harness.spec.contracts`` say."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, cast

from harness.dotted import resolve_callable

if TYPE_CHECKING:
    from harness.spec.contracts import Comparator, Generator, Precompute, Runner


def resolve_comparator(name: str) -> Comparator:
    """A built-in comparator by name, or a dotted reference to one.

    Raises:
        LookupError: no such comparator.
    """
    from harness.compare.builtin import BUILTIN
    if name in BUILTIN:
        return cast("Comparator", BUILTIN[name])
    if ":" not in name:
        raise LookupError(f"unknown comparator {name!r} (built-ins: {', '.join(BUILTIN)})")
    return cast("Comparator", resolve_callable(name))


# The same finder, typed as each contract (the runner's options are checked at load:
# ``check_case_references``). Each raises LookupError for a name that finds nothing.
resolve_runner = cast("Callable[[str], Runner]", resolve_callable)
resolve_generator = cast("Callable[[str], Generator]", resolve_callable)
resolve_precompute = cast("Callable[[str], Precompute]", resolve_callable)


def check_case_references(case: Any) -> None:
    """Make sure the comparator and runner a case names exist, the runner's options fit what it
    declares, and the case's accepted forms are known, before any student code runs.

    Raises:
        SpecError: naming the case and the field (``compare``, ``runner``, ``options.NAME``).
    """
    from harness.spec.contracts import check_runner_options
    from harness.spec.errors import SpecError
    try:
        resolve_comparator(case.compare)
        runner = resolve_runner(case.runner) if case.runner else None
    except LookupError as exc:
        raise SpecError(case.file, str(exc), case=case.name,
                        field="runner" if case.runner else "compare") from exc
    if runner is not None:
        check_runner_options(case, runner)
        return  # the rest are the comparators' options, which a runner's case has none of
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
