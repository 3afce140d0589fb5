"""``gamegrader packages install``: put the allowed packages where the sandbox finds them.

Run once wherever the grader is deployed: ``setup.sh`` (the Gradescope zip and the Docker image),
``scripts/bootstrap.sh`` (tests and CI), and by students after installing the student package.
pip does the work (resolving dependencies, choosing wheels for the interpreter): it runs *for
the interpreter the sandbox uses* (``pip --python``), with ``--target`` a fresh folder, so the
folder holds exactly the allowed packages and their dependencies, built for that ABI. The
folder is filled aside and renamed into place, with its manifest, only once complete.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Sequence

from harness.sandbox.levels import sandbox_interpreters
from harness.sandbox.packages import (
    MANIFEST,
    abi_tag,
    installed_folder,
    normalized,
    packages_folder,
    packages_root,
)
from harness.sandbox.posix import is_root


class InstallError(Exception):
    """pip failed, or the folder cannot be used by the sandbox user; the message says which."""


def pip_command(interpreter: str, target: Path, requirements: Sequence[str]) -> list[str]:
    """pip of the grader's environment, run for ``interpreter`` (same one: no ``--python``, so
    an older pip, such as a student's, works too)."""
    command = [sys.executable, "-m", "pip"]
    if os.path.realpath(interpreter) != os.path.realpath(sys.executable):
        command += ["--python", interpreter]  # pip 22.3 or later
    return [*command, "install", "--quiet", "--disable-pip-version-check", "--no-input",
            "--no-warn-script-location", "--target", str(target), *requirements]


def _make_readable(folder: Path) -> None:
    """Root-owned and read-only for everyone else (what the sandbox user needs, no more)."""
    for path in [folder, *folder.rglob("*")]:
        if not path.is_symlink():
            os.chown(path, 0, 0)
            path.chmod(0o755 if path.is_dir() or path.stat().st_mode & 0o111 else 0o644)


def unreachable_parent(folder: Path) -> Path | None:
    """An ancestor of ``folder`` that other users cannot enter (a sandbox user could not read
    the packages inside), or None."""
    for parent in folder.parents:
        if parent.exists() and not parent.stat().st_mode & 0o001:
            return parent
    return None


def install_for(interpreter: str, requirements: Sequence[str], root: Path,
                reinstall: bool = False) -> Path:
    """Install ``requirements`` for ``interpreter`` under ``root``; return the folder.

    Raises:
        InstallError: the interpreter's ABI is unknown, or pip failed (its output included).
    """
    final = packages_folder(interpreter, requirements, root)
    if final is None:
        raise InstallError(f"{interpreter} does not report its ABI (sysconfig SOABI)")
    if (final / MANIFEST).is_file() and not reinstall:
        return final
    final.parent.mkdir(parents=True, exist_ok=True)
    partial = final.with_name(f".{final.name}.partial-{os.getpid()}")
    shutil.rmtree(partial, ignore_errors=True)
    env = {**os.environ, "PIP_ROOT_USER_ACTION": "ignore"}
    done = subprocess.run(pip_command(interpreter, partial, requirements), env=env,
                          capture_output=True, text=True)
    if done.returncode != 0:
        shutil.rmtree(partial, ignore_errors=True)
        raise InstallError(f"pip could not install {' '.join(requirements)} for {interpreter}:"
                           f"\n{(done.stderr or done.stdout).strip()[-3000:]}")
    manifest = {"requirements": list(normalized(requirements)), "interpreter": interpreter,
                "abi": abi_tag(interpreter)}
    (partial / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    if is_root():
        _make_readable(partial)
    if final.exists():
        shutil.rmtree(final)
    try:
        partial.rename(final)
    except OSError:  # another install finished first: its folder is as good as ours
        shutil.rmtree(partial, ignore_errors=True)
    return final


def install(requirements: Sequence[str], root: Path | None = None,
            reinstall: bool = False) -> list[str]:
    """Install for every interpreter the sandbox may run (one folder per ABI). Returns lines to
    print: each folder, or what went wrong.

    Raises:
        InstallError: no interpreter could be served.
    """
    root = root or packages_root()
    if not requirements:
        return ["no allowed packages: nothing to install"]
    lines, failures, done_abis = [], [], set()
    for interpreter in sandbox_interpreters():
        tag = abi_tag(interpreter)
        if tag in done_abis:
            continue
        try:
            folder = install_for(interpreter, requirements, root, reinstall)
        except InstallError as exc:
            failures.append(str(exc))
            continue
        done_abis.add(tag)
        lines.append(f"{' '.join(normalized(requirements))} for {interpreter} ({tag}): {folder}")
        hidden = unreachable_parent(folder) if is_root() else None
        if hidden is not None:
            lines.append(f"warning: other users cannot enter {hidden}, so the sandbox user "
                         f"cannot import these packages; choose another {root} "
                         "(GAMEGRADER_PACKAGES)")
    if not done_abis:
        raise InstallError("\n".join(failures))
    return lines + [f"warning: {failure}" for failure in failures]


def missing(requirements: Sequence[str]) -> bool:
    """True if ``requirements`` are not installed for the interpreter the sandbox runs."""
    from harness.sandbox.levels import detect
    return bool(requirements) and installed_folder(detect().interpreter, requirements) is None
