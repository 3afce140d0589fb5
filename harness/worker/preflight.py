"""``preflight`` requests: whether each name the spec lists exists, and its parameters."""
from __future__ import annotations

from types import ModuleType

from .bounds import MAX_NAME, MAX_PARAMETERS
from .encode import plain_text

TYPE_CHECKING = False  # typing is not imported: a fresh worker would pay for it
if TYPE_CHECKING:
    from typing import Any

    Parameter = list[Any]  # [name, inspect kind name, has a default]


def parameters(obj: object) -> list[Parameter] | None:
    """The parameters of ``obj`` as plain data, or None if it has no readable signature."""
    import inspect  # here: a fresh worker that only runs examples never pays for the import
    try:
        signature = inspect.signature(obj)  # type: ignore[arg-type]  # any object may be asked
    except (TypeError, ValueError):
        return None
    return [[plain_text(p.name, MAX_NAME), p.kind.name, p.default is not inspect.Parameter.empty]
            for p in list(signature.parameters.values())[:MAX_PARAMETERS]]


def preflight(module: ModuleType, names: tuple[str, ...]) -> dict[str, dict[str, Any] | None]:
    """Report, for each dotted name the spec lists, whether it exists and its parameters."""
    found: dict[str, dict[str, Any] | None] = {}
    for dotted in names:
        obj: object = module
        try:
            for part in dotted.split("."):
                obj = getattr(obj, part)
        except BaseException:
            found[dotted] = None
            continue
        found[dotted] = {"callable": callable(obj), "parameters": parameters(obj)}
    return found
