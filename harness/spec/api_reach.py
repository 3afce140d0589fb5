"""Which handout names a case needs: the ones its calls reach, class by class.

A case's source is read for names, not run, so a method name alone cannot say whose method is
called: Search & Games lists ``get_board``, ``perform_move``, ``copy`` and ``successors`` for
both ``LightsOutPuzzle`` and ``DominoesGame``. Matching the bare name made a Lights Out case
wait on ``DominoesGame.get_board`` and say so. A case reaches the classes it names and the
classes its factories make (``create_puzzle(rows, cols) -> LightsOutPuzzle`` in the API);
a method is needed from those classes only, and from every class that has it only when the case
reaches none of them. Names the handout only suggests (``optional``) are needed by no case: one
that calls a missing one fails on its own, with Python's AttributeError naming the call.
"""
from __future__ import annotations

from typing import AbstractSet, Sequence

from harness.records.spec import ApiEntry


def reached_classes(api: Sequence[ApiEntry], used: AbstractSet[str]) -> set[str]:
    """The handout's classes a case with the identifiers ``used`` works with."""
    classes = {entry.owner for entry in api if entry.owner}
    reached = classes & used
    reached.update(entry.returns for entry in api
                   if entry.returns and not entry.owner and entry.name in used)
    return reached


def required_names(api: Sequence[ApiEntry], used: AbstractSet[str]) -> tuple[str, ...]:
    """The API names, in the API's order, that a case using the identifiers ``used`` needs
    (its import checks block it when one is missing or cannot take the handout's call)."""
    reached = reached_classes(api, used)
    needed = []
    for entry in api:
        if entry.optional or not entry.short_names & used:
            continue
        method = entry.name.rpartition(".")[2]
        if entry.owner and method != "__init__":
            owners = {other.owner for other in api if other.owner
                      and other.name.rpartition(".")[2] == method}
            if owners & reached and entry.owner not in reached:
                continue  # a same-named method of a class this case does not use
        needed.append(entry.name)
    return tuple(dict.fromkeys(needed))  # entries sharing a name are alternatives
