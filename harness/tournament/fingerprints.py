"""Fingerprints of what decides a tournament game: each entrant's code and the arena's settings.

A game's record is reused (``harness.tournament.store``) only while all three are unchanged, so a
re-run plays exactly the games of changed, added or removed entrants:

- a submission is fingerprinted by the bytes the bounded intake read (``harness.intake.reading``:
  the very bytes its games run), names included, never by a path (each run stages fresh copies);
- a house bot by its name and the code of the arena's package (every ``*.py`` file in the folder
  of the arena's module, or the files the arena lists in an optional ``house_files()``): an edit
  of a house bot, of the game's referee or of the arena replays the house bot's games;
- the arena by its settings (its dataclass fields: board size, clocks, depth limit ...), so a
  change of clock or size replays everything.

The rules and the harness itself are not fingerprinted: after changing them, run with
``--fresh``.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import sys
import sysconfig
import types
from pathlib import Path
from typing import Any, Iterable, Sequence

from harness.records.games import Arena, Entrant

DIGITS = 24
"""Hex digits kept of a SHA-256 digest (96 bits: no collision in any class's lifetime)."""


def code_fingerprint(files: Iterable[tuple[str, bytes]]) -> str:
    """A digest of named byte strings, independent of their order."""
    digest = hashlib.sha256()
    for name, data in sorted(files):
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()[:DIGITS]


def house_files(arena: Arena) -> list[Path]:
    """The files whose code a house bot of ``arena`` runs: ``arena.house_files()`` when the
    arena says, else every ``*.py`` file under the folder of the arena's module."""
    listed = getattr(arena, "house_files", None)
    if listed is not None:
        return sorted(Path(p) for p in listed())
    module = sys.modules.get(type(arena).__module__)
    origin = getattr(module, "__file__", None)
    if not origin:
        return []
    return sorted(p for p in Path(origin).parent.rglob("*.py") if "__pycache__" not in p.parts)


_HARNESS = Path(__file__).resolve().parents[1]
"""The ``harness`` package's folder: its modules count wherever it is installed."""


def _installed_folders() -> tuple[Path, ...]:
    """Where Python's own and installed packages live (their code is not the project's)."""
    paths = sysconfig.get_paths()
    return tuple(Path(paths[key]).resolve() for key in ("stdlib", "platstdlib", "purelib",
                                                        "platlib") if key in paths)


def module_files(names: Iterable[str]) -> list[Path]:
    """The files of the loaded modules ``names`` and of the project modules they import at
    their top level, transitively (a module's own names that are modules, or classes and
    functions defined in one); the standard library and installed packages (but not the
    harness's own) are left out.
    A package's submodules count only when imported by name, not because they were loaded."""
    installed = _installed_folders()
    seen: set[str] = set()
    files: set[Path] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        module = sys.modules.get(name)
        origin = getattr(module, "__file__", None)
        if module is None or not origin:
            continue
        path = Path(origin).resolve()
        if not path.is_relative_to(_HARNESS) and any(path.is_relative_to(folder)
                                                      for folder in installed):
            continue
        files.add(path)
        for value in vars(module).values():
            if isinstance(value, types.ModuleType):
                if not value.__name__.startswith(f"{name}."):
                    todo.append(value.__name__)
            elif isinstance(getattr(value, "__module__", None), str) and (
                    isinstance(value, type) or callable(value)):
                todo.append(value.__module__)
    return sorted(files)


def _folder_code(paths: tuple[Path, ...]) -> str:
    """The files' digest, named relative to their common folder (so a checkout's place on the
    disk does not matter)."""
    root = Path(os.path.commonpath(paths)) if len(paths) > 1 else Path()
    return code_fingerprint((p.relative_to(root).as_posix() if len(paths) > 1 else p.name,
                             p.read_bytes()) for p in paths)


def modules_fingerprint(names: Iterable[str]) -> str:
    """The digest of :func:`module_files` of ``names`` (named relative to their common folder,
    so a checkout's place on the disk does not matter)."""
    files = tuple(module_files(names))
    return _folder_code(files) if files else code_fingerprint([])


def house_fingerprint(arena: Arena, source: str) -> str:
    """A house bot's fingerprint: its name and the code of :func:`house_files`."""
    return code_fingerprint([("house", source.encode()),
                             ("code", _folder_code(tuple(house_files(arena))).encode())])


def fingerprinted(entrants: Sequence[Entrant], arena: Arena) -> list[Entrant]:
    """``entrants`` with every house bot's fingerprint filled in (submissions carry theirs)."""
    return [dataclasses.replace(e, code=house_fingerprint(arena, e.source))
            if e.is_house and not e.code else e for e in entrants]


def _plain(value: Any) -> Any:
    if callable(value):
        return f"{getattr(value, '__module__', '')}:{getattr(value, '__qualname__', repr(value))}"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return value


def arena_fingerprint(arena: Arena) -> str:
    """The arena's kind and settings (its dataclass fields, else its ``describe()`` text)."""
    if dataclasses.is_dataclass(arena):
        settings = _plain(arena)
    else:
        describe = getattr(arena, "describe", None)
        settings = describe() if describe is not None else ""
    text = json.dumps([type(arena).__module__, type(arena).__qualname__, settings],
                      sort_keys=True, default=repr)
    return code_fingerprint([("arena", text.encode())])


__all__ = ["arena_fingerprint", "code_fingerprint", "fingerprinted", "house_files",
           "house_fingerprint", "module_files", "modules_fingerprint"]
