"""Scratch folders for student processes: a fresh copy of the files for every case.

Layout under one temporary root per grading run::

    root/runtime/worker.py      the worker (read-only for the student)
    root/case-0001/...          the student's file, support and probe files; the process's cwd

A case that deletes or rewrites its files cannot affect the next case, which gets a new copy.
"""
from __future__ import annotations

import itertools
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from harness.sandbox.isolation import Isolation

WORKER_SOURCE = Path(__file__).resolve().parent.parent / "worker" / "main.py"


@dataclass
class Workspace:
    """Owns the scratch root; ``files`` maps names inside a case folder to source paths."""

    files: dict[str, Path]
    isolation: Isolation
    root: Path = field(init=False)
    worker: Path = field(init=False)
    _numbers: itertools.count = field(init=False, default_factory=lambda: itertools.count(1))

    def __post_init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="gamegrader-"))
        os.chmod(self.root, 0o711)
        runtime = self.root / "runtime"
        runtime.mkdir()
        os.chmod(runtime, 0o755)
        self.worker = runtime / "worker.py"
        shutil.copyfile(WORKER_SOURCE, self.worker)
        os.chmod(self.worker, 0o644)

    def new_case_folder(self, name: str | None = None) -> Path:
        """A fresh folder holding copies of ``files``, owned by the student user if any.

        With ``name`` the folder has that fixed name (whatever was there is removed first), so
        consecutive cases see the same paths and the zygote can reuse its compiled code.
        """
        folder = self.root / (name or f"case-{next(self._numbers):04d}")
        if name:
            shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        for name, source in self.files.items():
            target = folder / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
        if self.isolation.own_user:
            for path in [folder, *folder.rglob("*")]:
                os.chown(path, self.isolation.uid or 0, self.isolation.gid or 0)
        return folder

    def discard(self, folder: Path) -> None:
        """Remove a case folder (whatever the student left in it)."""
        shutil.rmtree(folder, ignore_errors=True)

    def close(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)
