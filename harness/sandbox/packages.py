"""Where the course's allowed third-party packages live for the sandbox, and how it sees them.

Student code runs with ``-I -S`` (no site-packages), so a site-packages folder is never exposed:
it would also expose pytest, yaml and the rest of the grader's own dependencies. Instead the
allowed packages (and what they depend on) are installed by ``gamegrader packages install``
into a folder of their own, made for the very interpreter the sandbox runs::

    PACKAGES_ROOT/<SOABI of that interpreter>/<names>-<hash of the requirements>/

``PACKAGES_ROOT`` is ``$GAMEGRADER_PACKAGES`` if set, else ``/usr/local/lib/gamegrader/packages``
as root (owned by root, readable by everyone, writable by root only) and
``~/.cache/gamegrader/packages`` otherwise. The folder is appended to the student process's
``sys.path`` (after the standard library, so it can never shadow it); a folder that is not there
simply leaves the import failing, and the preflight says which package is missing.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from functools import lru_cache
from pathlib import Path
from typing import Mapping, Sequence

from harness.paths import user_cache_root
from harness.sandbox.posix import is_root

PACKAGES_ENV = "GAMEGRADER_PACKAGES"
ROOT_DEFAULT = Path("/usr/local/lib/gamegrader/packages")
MANIFEST = "gamegrader-packages.json"
MAX_SCANNED = 1 << 20  # bytes of a student file searched for imports
# Standard-library modules the zygote imports ahead when a student's file imports them (see
# ``imported_packages``), so each case does not pay for the import again: only modules that do
# nothing on import but define things, and keep no state a fork could share (``random``
# reseeds itself in every forked child).
PRELOADED_STANDARD_MODULES = (
    "abc", "array", "ast", "bisect", "collections", "copy", "dataclasses", "decimal", "enum",
    "fractions", "functools", "heapq", "itertools", "math", "numbers", "operator", "random",
    "re", "statistics", "string", "typing")

# Runs a program with the packages folder appended to sys.path, then exactly as ``python SCRIPT
# ARGS`` would (argv[0] and sys.path[0] are the script's). argv: -c FOLDER SCRIPT ARGS...
_PROGRAM_BOOTSTRAP = (
    "import os, runpy, sys\n"
    "sys.path.append(sys.argv.pop(1))\n"
    "del sys.argv[0]\n"
    "sys.path[0] = os.path.dirname(os.path.abspath(sys.argv[0]))\n"
    "runpy.run_path(sys.argv[0], run_name='__main__')\n")


def packages_root() -> Path:
    """The folder holding every installed set of allowed packages (see the module docstring)."""
    override = os.environ.get(PACKAGES_ENV)
    if override:
        return Path(override).absolute()
    if is_root():
        return ROOT_DEFAULT
    return user_cache_root() / "packages"


@lru_cache(maxsize=None)
def abi_tag(interpreter: str) -> str:
    """The interpreter's ABI (``cpython-311-x86_64-linux-gnu``): compiled packages built for one
    interpreter load in another only if this matches. "" if the interpreter cannot say."""
    code = "import sysconfig; print(sysconfig.get_config_var('SOABI') or '')"
    if os.path.realpath(interpreter) == os.path.realpath(sys.executable):
        import sysconfig
        return str(sysconfig.get_config_var("SOABI") or "")
    try:
        done = subprocess.run([interpreter, "-I", "-S", "-c", code], capture_output=True,
                              text=True, timeout=30, cwd="/")
    except (OSError, subprocess.SubprocessError):
        return ""
    tag = done.stdout.strip()
    return tag if done.returncode == 0 and re.fullmatch(r"[\w.-]+", tag) else ""


def python_version(interpreter: str) -> str:
    """The interpreter's version as students name it ("3.10"), from its ABI tag; "" if unknown.
    Named in the feedback on syntax errors: student code runs under this Python, which may be
    older than the student's own."""
    found = re.match(r"cpython-3(\d{1,2})", abi_tag(interpreter))
    return f"3.{found.group(1)}" if found else ""


def normalized(requirements: Sequence[str]) -> tuple[str, ...]:
    """Requirements without inner spaces, sorted and deduplicated: one set, one folder."""
    return tuple(sorted({"".join(r.split()) for r in requirements}))


def folder_name(requirements: Sequence[str]) -> str:
    """``numpy-1a2b3c4d5e``: the package names (for people) and a hash of the exact requirements
    (so different versions or sets never share a folder)."""
    wanted = normalized(requirements)
    names = [re.split(r"[=!~<>]", r, maxsplit=1)[0].lower() for r in wanted]
    digest = hashlib.sha256("\n".join(wanted).encode()).hexdigest()[:10]
    return f"{'+'.join(names)[:60]}-{digest}"


def packages_folder(interpreter: str, requirements: Sequence[str],
                    root: Path | None = None) -> Path | None:
    """Where ``requirements`` are (or would be) installed for ``interpreter``; None if there is
    nothing to install or the interpreter's ABI is unknown."""
    if not requirements:  # asked first: finding the ABI may start the interpreter
        return None
    tag = abi_tag(interpreter)
    if not tag:
        return None
    return (root or packages_root()) / tag / folder_name(requirements)


def installed_folder(interpreter: str, requirements: Sequence[str]) -> Path | None:
    """The folder to put on the sandbox's ``sys.path``, if ``requirements`` are installed (its
    manifest is written last, so a half-finished install is never used)."""
    folder = packages_folder(interpreter, requirements)
    if folder is None or not (folder / MANIFEST).is_file():
        return None
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    complete = isinstance(manifest, dict) and \
        manifest.get("requirements") == list(normalized(requirements))
    return folder if complete else None


def imported_packages(files: Mapping[str, Path], modules: Sequence[str]) -> list[str]:
    """Which of ``modules`` the Python files of a case folder (name there -> file) import,
    judged from their text (``import numpy``, ``from numpy.linalg import ...``); used only to
    import them ahead. A module the folder itself provides (a student's ``numpy.py``) is left
    alone: the student's file must win, as it does when the case imports it."""
    found: set[str] = set()
    for name, path in files.items():
        if not name.endswith(".py"):
            continue
        try:  # student files: bounded, and a link is never followed
            descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
            with os.fdopen(descriptor, "rb") as source:
                text = source.read(MAX_SCANNED).decode("utf-8", errors="replace")
        except OSError:
            continue
        found.update(m for m in modules
                     if re.search(rf"^\s*(import|from)\s+{re.escape(m)}\b", text, re.M))
    shadowed = {name.split("/")[0].removesuffix(".py") for name in files}
    return sorted(found - shadowed)


def program_command(interpreter: str, flags: Sequence[str], script: str, args: Sequence[str],
                    folder: Path | None) -> list[str]:
    """``python FLAGS SCRIPT ARGS``, with ``folder`` (allowed packages) importable if given."""
    if folder is None:
        return [interpreter, *flags, script, *args]
    return [interpreter, *flags, "-c", _PROGRAM_BOOTSTRAP, str(folder), script, *args]
