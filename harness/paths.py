"""Where the project's data folders are: next to the ``harness`` package, or GAMEGRADER_ROOT."""
from __future__ import annotations

import os
from pathlib import Path

ROOT_ENV = "GAMEGRADER_ROOT"
CACHE_ENV = "GAMEGRADER_CACHE"


def project_root() -> Path:
    """The folder holding ``test_specs/``, ``student_template/`` and ``reference/``."""
    override = os.environ.get(ROOT_ENV)
    return Path(override).resolve() if override else Path(__file__).resolve().parent.parent


def user_cache_root() -> Path:
    """This user's gamegrader cache (``$GAMEGRADER_CACHE``, else ``$XDG_CACHE_HOME/gamegrader``,
    by default ``~/.cache/gamegrader``): the host's calibration, diagnosis replays, a student's
    packages. The test suite points it at a folder of its own for each run."""
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gamegrader"


def specs_root() -> Path:
    return project_root() / "test_specs"


def templates_root() -> Path:
    return project_root() / "student_template"
