"""Scratch folders for student processes: a fresh copy of the files for every case.

Layout under one scratch root per sandbox::

    root/runtime/gamegrader_worker/  the worker package, started as its main.py (read-only for
                                     the student)
    root/case-0001/...               the student's file, support and probe files; its cwd
    root/trash/<random>/...          used case folders, being removed (root's alone: 0700)

As root the root is a sized tmpfs (``sized_mount``), so what the cases write is bounded in
bytes and in files.

A case that deletes or rewrites its files cannot affect the next case, which gets a new copy.
A used case folder is moved into the trash at once, where no student process can reach it, and
removed there by a background thread: on some disks each removed folder costs milliseconds of
waiting (ext4 here: about 2 ms per ``rmdir``), which would otherwise be paid by every case. In
a sized tmpfs (below) it is removed at once instead: that costs no disk waits, and the next
case folder needs the room.

Root never follows anything the sandbox user can touch (issue: a recursive chown after a listing
let a student swap a file for a link and have root chown any file on the host). A case folder is
made by root with mode 0700 and filled through descriptors (``O_EXCL | O_NOFOLLOW``); its
contents are given to the student first and the folder itself last, so until the grader is done
the student cannot even enter it. Removal goes through ``removal`` (descriptors, no links
followed). Case folders are 0700 and their files 0600, owned by the sandbox's (leased) user, so
another sandbox user cannot read them.

As root the scratch roots live in ``SCRATCH_BASE``, outside ``/tmp`` and the other folders that
the namespaced levels replace with private mounts (see ``isolation.SCRATCH_FOLDERS``).

A grader killed outright (SIGKILL: a batch job past its deadline, an out-of-memory kill) cannot
remove its root, and nothing else would: a long-lived grading host collected them (3 to 5 per
test-suite run, 316 after a few days). So a workspace holds an exclusive ``flock`` on its root
for its whole life (the kernel drops it when the process dies, however it dies), and the first
workspace a process makes removes every root of the base whose lock it can take, i.e. whose
owner is gone. A root younger than ``UNCLAIMED_SECONDS`` is left alone: its maker may be between
making it and locking it.
"""
from __future__ import annotations

import importlib.util
import itertools
import os
import queue
import secrets
import shutil
import stat
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from harness.sandbox.levels import Isolation
from harness.sandbox.posix import fcntl, is_root
from harness.sandbox.removal import open_folder, remove_path, remove_tree
from harness.sandbox.sized_mount import DiskBound, MiB, detach, is_full, is_mount, mount_sized
from harness.sandbox.stages import STAGES, now

WORKER_PACKAGE = Path(__file__).resolve().parent.parent / "worker"
WORKER_SOURCE = WORKER_PACKAGE / "main.py"  # the entry script
WORKER_FILES = tuple(sorted(path.name for path in WORKER_PACKAGE.glob("*.py")))
RUNTIME_PACKAGE = "gamegrader_worker"
"""The name the worker package is imported under in the sandbox: no student module's."""
WORKER_BYTES = 1 << 20  # room for the runtime folder's copy of the worker
SCRATCH_BASE = Path("/var/lib/gamegrader/scratch")
ROOT_PREFIX = "gamegrader-scratch-"
LEGACY_PREFIX = "gamegrader-"
"""Roots made before the locks were named only this; in ``SCRATCH_BASE`` (which holds nothing
but roots) an unlocked one is swept too."""
UNCLAIMED_SECONDS = 60.0
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


def scratch_base() -> str | None:
    """Where scratch roots go: ``SCRATCH_BASE`` as root (checked to be root's alone), else the
    system's temporary folder."""
    if not is_root():
        return None
    SCRATCH_BASE.mkdir(mode=0o711, parents=True, exist_ok=True)
    info = os.lstat(SCRATCH_BASE)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != 0:
        raise PermissionError(f"{SCRATCH_BASE} must be a folder owned by root")
    os.chmod(SCRATCH_BASE, 0o711)
    return str(SCRATCH_BASE)


def sweep_abandoned_roots(base: str) -> list[str]:
    """Remove every scratch root in ``base`` whose workspace is gone (its lock is free and it
    is older than ``UNCLAIMED_SECONDS``); returns their names. Only folders owned by this user
    are touched, and nothing is followed: an entry is opened with ``O_NOFOLLOW`` and removed
    through descriptors (``removal``)."""
    prefixes = (LEGACY_PREFIX,) if base == str(SCRATCH_BASE) else (ROOT_PREFIX,)
    removed: list[str] = []
    try:
        base_fd = open_folder(base)
    except OSError:
        return removed
    try:
        for name in os.listdir(base_fd):
            if name.startswith(prefixes) and _take_if_abandoned(name, base, base_fd):
                removed.append(name)
    finally:
        os.close(base_fd)
    return removed


def _take_if_abandoned(name: str, base: str, base_fd: int) -> bool:
    """Remove the root ``name`` if nobody holds its lock (holding it meanwhile, so that two
    sweepers do not both work on it)."""
    try:
        fd = open_folder(name, base_fd)
    except OSError:  # gone, a link, or not ours to read
        return False
    try:
        info = os.fstat(fd)
        if info.st_uid != os.geteuid() or time.time() - info.st_mtime < UNCLAIMED_SECONDS:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # its workspace is alive
            return False
        if is_mount(fd, base_fd):  # a sized mount (see sized_mount): what was in it goes too
            detach(os.path.join(base, name))
        return remove_tree(name, base_fd)
    finally:
        os.close(fd)


_swept_by: int | None = None
"""The process (pid) that swept its base already: once per process is enough (a forked child
is another process and sweeps again)."""


def _sweep_once(base: str) -> None:
    """``sweep_abandoned_roots(base)`` the first time this process makes a workspace."""
    global _swept_by
    if fcntl is None:  # no locks: a live root cannot be told from an abandoned one
        return
    if _swept_by != os.getpid():
        _swept_by = os.getpid()
        sweep_abandoned_roots(base)


def _relative_parts(name: str) -> list[str]:
    parts = PurePosixPath(name).parts
    if not parts or PurePosixPath(name).is_absolute() or any(p in ("..", ".") for p in parts):
        raise ValueError(f"a case-folder file name must be a plain relative path: {name!r}")
    return list(parts)


COPIES_ROOM = 8
"""The sized mount holds ``disk`` plus this many copies of the files (case folders of every
lane, and used ones not yet removed from the trash)."""


def copy_worker(runtime: Path) -> Path:
    """Copy the worker package into ``runtime`` (read-only for the student) with the grader's
    compiled copies of its modules where they are fresh (the sources keep their times, so the
    interpreter takes them as valid: a fresh worker then compiles only its entry script);
    returns the path of that script, the one the sandbox starts."""
    package = runtime / RUNTIME_PACKAGE
    compiled = package / "__pycache__"
    compiled.mkdir(parents=True)
    for name in WORKER_FILES:
        source = WORKER_PACKAGE / name
        shutil.copy2(source, package / name)
        os.chmod(package / name, 0o644)
        made = Path(importlib.util.cache_from_source(str(source)))
        if made.is_file():
            shutil.copyfile(made, compiled / made.name)
            os.chmod(compiled / made.name, 0o644)
    os.chmod(compiled, 0o755)
    os.chmod(package, 0o755)
    return package / "main.py"


@dataclass
class Workspace:
    """Owns the scratch root; ``files`` maps names inside a case folder to source paths.

    With ``disk``, the root is a tmpfs of that size where the grader may mount one
    (``sized_mount``); ``disk_in_force`` says whether it is, and ``disk_problem`` why not.
    """

    files: dict[str, Path]
    isolation: Isolation
    disk: DiskBound | None = None
    root: Path = field(init=False)
    worker: Path = field(init=False)
    disk_in_force: DiskBound | None = field(init=False, default=None)
    disk_problem: str = field(init=False, default="")
    _numbers: itertools.count[int] = field(init=False, default_factory=lambda: itertools.count(1))

    def __post_init__(self) -> None:
        self._parts = {name: _relative_parts(name) for name in self.files}
        base = scratch_base() or tempfile.gettempdir()
        _sweep_once(base)
        self.root = Path(tempfile.mkdtemp(prefix=ROOT_PREFIX, dir=base))
        os.chmod(self.root, 0o711)
        if self.disk is not None:
            self._mount(self.disk)
        self._root_fd = open_folder(str(self.root))  # after the mount: the tmpfs's own root
        # Held until the descriptor closes (``close``) or the process dies: the root is in use.
        if fcntl is not None:
            fcntl.flock(self._root_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        runtime = self.root / "runtime"
        runtime.mkdir()
        os.chmod(runtime, 0o755)
        self.worker = copy_worker(runtime)
        os.mkdir("trash", 0o700, dir_fd=self._root_fd)
        self._trash_fd = open_folder("trash", self._root_fd)
        self._trash: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._remover: threading.Thread | None = None
        self._remover_lock = threading.Lock()  # case folders may be removed from two lanes

    def _mount(self, disk: DiskBound) -> None:
        copies = sum(os.path.getsize(source) for source in self.files.values()) + WORKER_BYTES
        self.disk_problem = mount_sized(
            str(self.root), disk.megabytes * MiB + COPIES_ROOM * copies,
            disk.files + COPIES_ROOM * (sum(map(len, self._parts.values())) + 4)
            + 2 * len(WORKER_FILES) + 2)
        if not self.disk_problem:
            self.disk_in_force = disk

    def full(self) -> bool:
        """Whether the sized mount is (almost) full: a case that did not pass was stopped by
        it, not by its own mistake (False without a sized mount)."""
        return self.disk_in_force is not None and is_full(str(self.root))

    @property
    def _owner(self) -> tuple[int, int] | None:
        if self.isolation.own_user and os.geteuid() == 0:
            return self.isolation.uid or 0, self.isolation.gid or 0
        return None

    def new_case_folder(self, name: str | None = None) -> Path:
        """A fresh folder holding copies of ``files``, owned by the student user if any.

        With ``name`` the folder has that fixed name (whatever was there is removed first), so
        consecutive cases see the same paths and the zygote can reuse its compiled code.
        """
        started = now()
        if name:
            self._remove(name)
        name = name or f"case-{next(self._numbers):04d}"
        os.mkdir(name, 0o700, dir_fd=self._root_fd)
        opened = [open_folder(name, self._root_fd)]
        try:
            made = STAGES.add("case folder mkdir", started)
            for key, parts in self._parts.items():
                self._copy_in(opened, parts, self.files[key])
            copied = STAGES.add("copy files in", made)
            owner = self._owner
            if owner is not None:
                for fd in reversed(opened):  # the case folder (opened first) last
                    os.fchown(fd, *owner)
            STAGES.add("fchown", copied)
        finally:
            for fd in opened:
                os.close(fd)
        return self.root / name

    @staticmethod
    def _copy_in(opened: list[int], parts: list[str], source: Path) -> None:
        """Copy ``source`` to ``parts`` under the case folder ``opened[0]``; every descriptor
        it opens (subfolders, the file) is appended to ``opened``."""
        parent = opened[0]
        for part in parts[:-1]:
            try:
                os.mkdir(part, 0o700, dir_fd=parent)
            except FileExistsError:
                pass
            parent = open_folder(part, parent)
            opened.append(parent)
        fd = os.open(parts[-1], _NEW_FILE, 0o600, dir_fd=parent)
        opened.append(fd)
        with open(source, "rb") as reader:
            while chunk := reader.read(1 << 20):
                view = memoryview(chunk)
                while view:
                    view = view[os.write(fd, view):]

    def _remove(self, name: str) -> None:
        """Move the entry into the trash at once (so a fresh one can be made even if removal
        is slow or incomplete, and no later case can reach it), to be removed there by the
        background thread. Call it only once no process of the case runs."""
        trash = secrets.token_hex(8)
        try:
            os.rename(name, trash, src_dir_fd=self._root_fd, dst_dir_fd=self._trash_fd)
        except FileNotFoundError:
            return
        if self.disk_in_force is not None:
            # Removing from memory costs no disk waits, and the room is needed at once: the
            # next case folder is made in the same bounded mount.
            remove_tree(trash, self._trash_fd)
            return
        with self._remover_lock:
            if self._remover is None:
                self._remover = threading.Thread(target=self._empty_trash, daemon=True,
                                                 name="gamegrader-trash")
                self._remover.start()
        self._trash.put(trash)

    def _empty_trash(self) -> None:
        """The background thread: remove what is put in the trash, until ``None`` comes."""
        while (name := self._trash.get()) is not None:
            remove_tree(name, self._trash_fd)

    def discard(self, folder: Path) -> None:
        """Remove a case folder (whatever the student left in it)."""
        self._remove(folder.name)

    def close(self) -> None:
        """Finish removing the trash, then remove the whole scratch root."""
        if self._remover is not None:
            self._trash.put(None)
            self._remover.join()
            self._remover = None
        if self._trash_fd >= 0:
            os.close(self._trash_fd)
        self._trash_fd = -1
        if self._root_fd >= 0:  # removed while still locked: no sweeper starts on it meanwhile
            if self.disk_in_force is not None:
                detach(str(self.root))  # everything in it goes at once
            remove_path(str(self.root))
            os.close(self._root_fd)
        self._root_fd = -1
