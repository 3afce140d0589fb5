"""Read a submission into memory, bounded, without ever following a link.

The grader runs as root and a submission is the student's: any entry may be a symbolic link (to
``/etc/shadow``, to the hidden specs), a fifo that blocks whoever opens it, a device, or an
endless file. So the trusted side takes a *snapshot* once and never touches the submitted paths
again:

- folders are opened with ``O_NOFOLLOW | O_DIRECTORY`` relative to their parent's descriptor and
  listed without following links; files are opened with ``O_NOFOLLOW | O_NONBLOCK`` (a fifo
  swapped in after the listing neither blocks nor is read) and kept only if ``fstat`` says they
  are regular files;
- only Python files are read, each at most ``Caps.file_bytes + 1`` bytes;
- the walk stops at the caps below, checked before anything is read or copied.

Everything that is not a regular file is named in ``Snapshot.ignored``. The caller that was given
the path (an instructor's command line, Gradescope's ``/autograder/submission``) is trusted, so
the submitted path itself may be a link; nothing below it is followed.
"""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Iterable

SKIPPED_FOLDERS = frozenset({"__MACOSX", "__pycache__", ".git", ".hg", ".svn", ".venv", "venv",
                             "node_modules", "site-packages", "dist-packages", ".mypy_cache",
                             ".pytest_cache", ".idea", ".vscode"})
VENV_MARKER = "pyvenv.cfg"  # a virtual environment, whatever its folder is called
STUDENT_PACKAGE_MARKER = "STUDENT_PACKAGE"  # the root of a student package (harness.release.build)
GAMES_MARKER = "GAMEGRADER_GAMES"  # a folder of games 'gamegrader play' wrote (harness.cli.play)
PYTHON_SUFFIX = ".py"
MAX_OTHERS = 100  # other files' names kept for the "missing" message (they are never read)
_READ_CHUNK = 1 << 16
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


@dataclass(frozen=True)
class Caps:
    """Bounds on what is taken from one submission (see docs/security.md, "Submission intake").

    Attributes:
        file_bytes: one Python file larger than this is ignored (and read no further).
        total_bytes: all Python files taken together; over it the submission is refused.
        files: Python files taken; over it the submission is refused.
        depth: folder nesting below the submission; deeper, the submission is refused (the
            walk recurses once per level: keep this far below the recursion limit).
        entries: folder entries looked at in all; more, and the submission is refused.
    """

    file_bytes: int = 2 << 20
    total_bytes: int = 16 << 20
    files: int = 500
    depth: int = 32
    entries: int = 20_000


DEFAULT_CAPS = Caps()


@dataclass(frozen=True)
class SubmittedFile:
    """One Python file as it was read: its path below the submission (POSIX, relative), its
    bytes and its modification time (a tie-breaker between copies)."""

    path: PurePosixPath
    data: bytes
    mtime: float

    @property
    def name(self) -> str:
        return self.path.name


@dataclass
class Snapshot:
    """What was taken from a submission.

    Attributes:
        files: the Python files taken, in walk order (shallow first, then by name).
        ignored: entries not taken, each "path (why)" (links, fifos, oversized files...).
        others: the first ``MAX_OTHERS`` regular files that are not Python files by their name
            (``agent.PY``, ``agent.py.txt``, ``submission.zip``), never read: named when a
            wanted file is missing, since one of them is often it under another name.
        refused: why nothing may be graded ("" when the submission is within the caps).
        is_file: the submission was a single file rather than a folder.
        exists: False when nothing was found at the submitted path.
    """

    files: list[SubmittedFile] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    others: list[PurePosixPath] = field(default_factory=list)
    refused: str = ""
    is_file: bool = False
    exists: bool = True


class _Refused(Exception):
    """A cap was exceeded: the walk stops and the submission is refused."""


def display_name(text: str, limit: int = 80) -> str:
    """A submitted name made safe to show: control and unprintable characters escaped,
    undecodable bytes replaced, and the length capped (names are the student's text)."""
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text[:limit + 1])
    shown = shown.encode("utf-8", "replace").decode("utf-8")
    return shown if len(shown) <= limit else shown[:limit - 1] + "…"


def size_text(size: int) -> str:
    """``2 MB`` for whole megabytes, else ``N bytes`` (for messages)."""
    return f"{size >> 20} MB" if size >= 1 << 20 and size % (1 << 20) == 0 else f"{size} bytes"


def _read_bounded(fd: int, limit: int) -> bytes | None:
    """At most ``limit`` bytes from ``fd``; None if there are more (never reads past limit+1)."""
    chunks: list[bytes] = []
    size = 0
    while size <= limit:
        chunk = os.read(fd, min(_READ_CHUNK, limit + 1 - size))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
    return None


class _Walker:
    """One bounded walk over a submitted folder, descriptor by descriptor."""

    def __init__(self, caps: Caps, skip: frozenset[PurePosixPath] = frozenset()) -> None:
        self.caps = caps
        self.skip = skip
        self.snapshot = Snapshot()
        self.entries = 0
        self.total = 0

    def ignore(self, path: PurePosixPath, why: str) -> None:
        self.snapshot.ignored.append(f"{display_name(str(path))} ({why})")

    def take_file(self, parent: int, name: str, path: PurePosixPath) -> None:
        try:
            fd = os.open(name, _FILE_FLAGS, dir_fd=parent)
        except OSError:
            self.ignore(path, "ignored: not a regular file")
            return
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                self.ignore(path, "ignored: not a regular file")
                return
            if info.st_size > self.caps.file_bytes:
                self.ignore(path, f"ignored: larger than {size_text(self.caps.file_bytes)}")
                return
            if len(self.snapshot.files) >= self.caps.files:
                raise _Refused(f"it holds more than {self.caps.files} Python files")
            data = _read_bounded(fd, self.caps.file_bytes)
        finally:
            os.close(fd)
        if data is None:  # grew, or reports a wrong size (like files under /proc)
            self.ignore(path, f"ignored: larger than {size_text(self.caps.file_bytes)}")
            return
        self.total += len(data)
        if self.total > self.caps.total_bytes:
            raise _Refused("its Python files add up to more than "
                           f"{size_text(self.caps.total_bytes)}")
        self.snapshot.files.append(SubmittedFile(path, data, info.st_mtime))

    def walk(self, fd: int, path: PurePosixPath, depth: int) -> None:
        """Take the Python files of the open folder ``fd`` and of its sub-folders."""
        with os.scandir(fd) as listing:
            entries = []
            for entry in listing:
                self.entries += 1
                if self.entries > self.caps.entries:
                    raise _Refused(f"it holds more than {self.caps.entries} files and folders")
                entries.append(entry)
        names = {entry.name for entry in entries}
        if depth > 0 and names & {VENV_MARKER, STUDENT_PACKAGE_MARKER, GAMES_MARKER}:
            return  # a virtual environment, an unzipped checker or played games: not code
        folders = []
        for entry in sorted(entries, key=lambda e: e.name):
            name, where = entry.name, path / entry.name
            if where in self.skip:
                continue
            try:
                mode = entry.stat(follow_symlinks=False).st_mode
            except OSError:
                continue  # vanished meanwhile
            if stat.S_ISDIR(mode):
                if name not in SKIPPED_FOLDERS:
                    folders.append((name, where))
            elif not stat.S_ISREG(mode):
                self.ignore(where, "ignored: not a regular file")
            elif name.endswith(PYTHON_SUFFIX) and not name.startswith("._"):
                self.take_file(fd, name, where)
            elif len(self.snapshot.others) < MAX_OTHERS and not name.startswith("."):
                self.snapshot.others.append(where)
        for name, where in folders:
            if depth + 1 > self.caps.depth:
                raise _Refused(f"its folders are nested more than {self.caps.depth} deep")
            try:
                child = os.open(name, _DIR_FLAGS, dir_fd=fd)
            except OSError:
                self.ignore(where, "ignored: not a regular folder")
                continue
            try:
                self.walk(child, where, depth + 1)
            finally:
                os.close(child)


def _below(root: str, paths: Iterable[os.PathLike[str] | str]) -> frozenset[PurePosixPath]:
    """The ``paths`` strictly inside the folder ``root``, relative to it (a path that holds
    ``root`` is not left out: the submission is inside it)."""
    inside = set()
    for path in paths:
        relative = os.path.relpath(os.path.realpath(os.fspath(path)), root)
        if relative != "." and not relative.startswith(".."):
            inside.add(PurePosixPath(*Path(relative).parts))
    return frozenset(inside)


def take(submission: os.PathLike[str] | str, caps: Caps = DEFAULT_CAPS,
         skip: Iterable[os.PathLike[str] | str] = ()) -> Snapshot:
    """Snapshot the Python files of a submitted file or folder (see the module docstring);
    files and folders at the real paths ``skip`` are left out without a word (the checker's
    own, when a student's folder holds it).

    Never raises for anything the student controls: a cap exceeded sets ``refused``.
    """
    path = os.path.realpath(os.fspath(submission))  # given by a trusted caller: may be a link
    try:
        info = os.stat(path)
    except OSError:
        return Snapshot(exists=False)
    if stat.S_ISREG(info.st_mode):
        walker = _Walker(caps)
        walker.snapshot.is_file = True
        parent, name = os.path.split(path)
        parent_fd = os.open(parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            walker.take_file(parent_fd, name, PurePosixPath(name))
        except _Refused as exc:
            walker.snapshot.refused = str(exc)
        finally:
            os.close(parent_fd)
        return walker.snapshot
    if not stat.S_ISDIR(info.st_mode):
        return Snapshot(ignored=[f"{display_name(path)} (ignored: not a regular file)"])
    walker = _Walker(caps, _below(path, skip))
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        return Snapshot(refused=f"it cannot be read ({exc.strerror})")
    try:
        walker.walk(fd, PurePosixPath(), 0)
    except _Refused as exc:
        walker.snapshot.files.clear()
        walker.snapshot.refused = str(exc)
    except OSError as exc:  # e.g. a folder the grader may not list
        walker.snapshot.files.clear()
        walker.snapshot.refused = f"it cannot be read ({exc.strerror})"
    finally:
        os.close(fd)
    return walker.snapshot
