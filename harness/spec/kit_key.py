"""The game kit's dotted name is given once, as ``kit:`` at the top of assignment.yaml: the
tournament seats it, the staff ladder plays it and a case whose runner plays a kit gets it in its
options here. It used to be spelt three ways (``arena:``, the ladder's ``kit:``, a house-game
case's ``options.kit``); a spec that still uses one is refused, saying where the name goes."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from harness.records.spec import Assignment, Case
from harness.spec.errors import SpecError

KIT = "kit"
"""assignment.yaml's key for the kit's ``package.module:factory``, and the option a runner that
plays a kit declares."""
ONE_PLACE = "name the game kit once, as assignment.yaml's top-level 'kit'"


def refuse_old_kit_keys(path: Path, data: Any) -> None:
    """Refuse an assignment.yaml that names the kit under an old key.

    Raises:
        SpecError: it has ``arena:`` or a ``kit:`` in its ladder (naming that field).
    """
    if not isinstance(data, Mapping):
        return  # the schema check says what is wrong
    if "arena" in data:
        raise SpecError(path, f"'arena' is now spelt 'kit': {ONE_PLACE}", field="arena")
    ladder = data.get("ladder")
    if isinstance(ladder, Mapping) and KIT in ladder:
        raise SpecError(path, f"the ladder plays the assignment's kit: {ONE_PLACE}, not in the "
                        "ladder", field=f"ladder.{KIT}")


def with_the_assignments_kit(case: Case, assignment: Assignment) -> Case:
    """``case`` with its assignment's kit in its options when its runner plays one (declares a
    ``kit`` option); other cases as they are.

    Raises:
        SpecError: the case names a kit itself, or its runner plays one and the assignment
            names none.
    """
    from harness.spec.registry import resolve_runner

    if KIT in case.options:
        raise SpecError(case.file, f"a case plays its assignment's kit: {ONE_PLACE}, not in the "
                        "case's options", case=case.name, field=f"options.{KIT}")
    if not case.runner:
        return case
    try:
        declared = getattr(resolve_runner(case.runner), "options", None)
    except LookupError:
        return case  # check_case_references names the runner that is not there
    if not isinstance(declared, Mapping) or KIT not in declared:
        return case
    if not assignment.kit:
        raise SpecError(case.file, f"runner {case.runner} plays a game kit, and the assignment "
                        f"names none: {ONE_PLACE}", case=case.name, field="runner")
    return replace(case, options={**case.options, KIT: assignment.kit})
