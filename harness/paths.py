"""Where the project's data folders are: next to the ``harness`` package, or GAMEGRADER_ROOT."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Mapping

ROOT_ENV = "GAMEGRADER_ROOT"
CACHE_ENV = "GAMEGRADER_CACHE"


def project_root() -> Path:
    """The folder holding ``test_specs/``, ``student_template/`` and ``reference/``."""
    override = os.environ.get(ROOT_ENV)
    return Path(override).resolve() if override else Path(__file__).resolve().parent.parent


def with_absolute_root(env: Mapping[str, str]) -> dict[str, str]:
    """``env`` with a relative ``GAMEGRADER_ROOT`` made absolute from this process's folder: a
    grading process works in a folder of its own, where the relative one names nothing (a
    batch's or the release check's gradings then found no assignment)."""
    root = env.get(ROOT_ENV)
    return {**env, ROOT_ENV: str(Path(root).resolve())} if root else dict(env)


def user_cache_root() -> Path:
    """This user's gamegrader cache (``$GAMEGRADER_CACHE``, else ``$XDG_CACHE_HOME/gamegrader``,
    by default ``~/.cache/gamegrader``): the host's calibration, diagnosis replays, a student's
    packages. The test suite points it at a folder of its own for each run."""
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gamegrader"


OWN_FOLDERS = ("harness", "reference", "student_template", "test_specs", "tests", "bench",
               "scripts", "examples", "docs", "build")
"""The project's own top-level folders (the student package holds some of them)."""


def checker_paths() -> tuple[Path, ...]:
    """Where this checker's own files are: the project folder, its folders, and pip's
    ``*.egg-info`` there. A student's check of a file in a folder that holds the checker (the
    package unzipped inside the homework folder, or the file put beside ``harness/``) must not
    take these for the student's files."""
    root = Path(__file__).resolve().parent.parent
    try:
        eggs = [path for path in root.iterdir() if path.name.endswith(".egg-info")]
    except OSError:
        eggs = []
    return (root, *(root / name for name in OWN_FOLDERS), *eggs)


def specs_root() -> Path:
    return project_root() / "test_specs"


def templates_root() -> Path:
    return project_root() / "student_template"
