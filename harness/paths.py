"""Where the project's data folders are: next to the ``harness`` package, or GAMEGRADER_ROOT."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Mapping

ROOT_ENV = "GAMEGRADER_ROOT"
CACHE_ENV = "GAMEGRADER_CACHE"


def project_root() -> Path:
    """The folder holding ``assignments/`` and ``reference/``."""
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


OWN_FOLDERS = ("harness", "reference", "assignments", "tests", "bench",
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


ASSIGNMENTS = "assignments"
"""The folder of assignments: one folder each, named as the assignment."""
SOLUTION, TEMPLATE, TESTS = "solution", "template", "tests"
"""An assignment folder's reference solution, student template and tests: never the grader's
code (the rest of the folder is its spec, cases and plug-in modules)."""
MUTANTS, EQUIVALENT_MUTANTS = "mutants.yaml", "mutants.equivalent.yaml"
PAGE = "README.md"
"""An assignment's page: how it is graded and why (for instructors; no grading reads it)."""


def specs_root() -> Path:
    """The folder holding one folder per assignment."""
    return project_root() / ASSIGNMENTS


def assignment_folder(name: str) -> Path:
    """Everything assignment ``name`` is: its spec and cases, plug-in modules, solution/,
    template/, tests/, mutants and page (README.md)."""
    return specs_root() / name


def solution_folder(name: str) -> Path:
    return assignment_folder(name) / SOLUTION


def template_folder(name: str) -> Path:
    return assignment_folder(name) / TEMPLATE


NOT_PLUG_IN = (SOLUTION, TEMPLATE, TESTS, "cases", "generated")
"""The parts of an assignment folder that are not its plug-in code (nor are its top-level
``.yaml`` and ``.md`` files: the spec, times, mutants, page)."""


def plug_in_files(folder: Path, pattern: str = "*") -> list[Path]:
    """The files of an assignment folder's plug-in code (generators, checkers, pictures, kit,
    rules, probes and their data), matching ``pattern``."""
    found = []
    for path in sorted(folder.rglob(pattern)):
        parts = path.relative_to(folder).parts
        if path.is_file() and parts[0] not in NOT_PLUG_IN and "__pycache__" not in parts \
                and not (len(parts) == 1 and path.suffix in (".yaml", ".md")):
            found.append(path)
    return found


def grader_code(root: Path, pattern: str = "*.py") -> list[Path]:
    """The grader's own files under ``root`` matching ``pattern``: the shared library
    (``reference/``) and every assignment's plug-in code."""
    files = sorted(path for path in (root / "reference").rglob(pattern) if path.is_file())
    files += [path for path in (root / ASSIGNMENTS).glob(pattern) if path.is_file()]
    for folder in sorted((root / ASSIGNMENTS).glob("*/")):
        files += plug_in_files(folder, pattern)
    return files
