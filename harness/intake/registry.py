"""A handout module found through the student's registry when no file of that name was handed in.

Stonehenge's starter has students register their game in ``game_interface.py``
(``playable_games['h']``), and the course's interface plays whatever is registered there, from
whatever module the student kept it in (``stonehenge_game.py``). The assignment's name resolver
(a probe run in the student's process) already binds a handout name the main module lacks to
what the registry holds; when the main file itself is missing, the grader stands an empty module
in its place, so that the import succeeds and the resolver gets its turn. The stand-in counts
only if every handout name then resolves: otherwise the file is as missing as before, and the
results say so.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from harness.intake.preflight import Preflight
from harness.intake.submission import FoundFiles
from harness.records.spec import Assignment

STAND_IN = ('"""Written by the grader: no file of this name was handed in, so the handout\'s '
            'names are looked up in your registry."""\n')


def registry_stand_in(assignment: Assignment, found: FoundFiles, folder: Path) -> Path | None:
    """An empty main module written in ``folder`` (the grader's private staging folder), when
    the assignment resolves names through a registry, its main file is missing and some other
    file of the student's was found (one that may hold the registry); else None."""
    main = assignment.main_file
    if assignment.name_resolver is None or main not in found.missing or not found.files \
            or found.refused:
        return None
    path = folder / main
    if path.exists():  # a student file already staged there
        return None
    path.write_text(STAND_IN, encoding="utf-8")
    return path


def through_registry(checked: Preflight, file: str) -> Preflight:
    """The import check of a stand-in main module: it stands only if every handout name was
    found through the registry (the resolver's notes say where); else ``file`` is missing."""
    if checked.import_problem:
        return checked
    if not checked.broken:
        found = (f"{file} was not handed in; the classes your registry names were graded in its "
                 "place, as the course's interface plays them:")
        return replace(checked, notes=(found, *checked.notes))
    return Preflight(import_problem=(
        f"{file} was not found in your submission, and no registry of yours names "
        f"{', '.join(checked.broken)} in its place."), notes=checked.notes)
