"""How the worker imports: the student's files from the case folder (compiled ahead by the zygote
where it can), the allowed packages last, never site-packages, no bytecode written."""
from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import stat
import sys
from types import CodeType, ModuleType

from .bounds import MAX_NOTE, MAX_NOTES
from .encode import plain_text

_COMPILED: dict[str, tuple[int, CodeType]] = {}  # path: (hash of its bytes, code), by the zygote
MAX_PRECOMPILED_FILES = 64
MAX_PRECOMPILED_BYTES = 1 << 20


def _plain_file_bytes(path: str, limit: int) -> bytes | None:
    """The bytes of a regular file of at most ``limit`` bytes; None for anything else (never
    follows a link, never blocks on a FIFO)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        with os.fdopen(fd, "rb", closefd=False) as source:
            data = source.read(limit + 1)
        return data if len(data) <= limit else None  # grown since fstat
    except OSError:
        return None
    finally:
        os.close(fd)


def precompile(path: str) -> None:
    """Compile (never run) the student's file and the other Python files of its folder ahead,
    each keyed by path and content (zygote only): every case imports them afresh, and a helper
    module compiled in each case (Othello's othello_shared.py: about a millisecond) is work
    the zygote does once. Anything odd is left to the child, which imports it normally."""
    folder = os.path.dirname(path)
    try:
        names = sorted(name for name in os.listdir(folder) if name.endswith(".py"))
    except OSError:
        return
    wanted = [os.path.join(folder, name) for name in names[:MAX_PRECOMPILED_FILES]]
    compiled = {}
    for file in wanted:
        data = _plain_file_bytes(file, MAX_PRECOMPILED_BYTES)
        if data is None:
            continue
        known = _COMPILED.get(file)
        if known is not None and known[0] == hash(data):
            compiled[file] = known
            continue
        try:
            compiled[file] = (hash(data), compile(data, file, "exec", dont_inherit=True))
        except Exception:  # the child will import it normally and report the problem itself
            pass
    _COMPILED.clear()
    _COMPILED.update(compiled)


class PrecompiledLoader(importlib.machinery.SourceFileLoader):
    """The standard source loader, except that a file the zygote compiled, unchanged since,
    is not compiled again (same code: same source, same path, same flags)."""

    def get_code(self, fullname: str) -> CodeType | None:
        known = _COMPILED.get(self.path)
        if known is not None and hash(self.get_data(self.path)) == known[0]:
            return known[1]
        return super().get_code(fullname)


def use_precompiled(folder: str) -> None:
    """Imports from ``folder`` (the case folder) go through ``PrecompiledLoader``."""
    if _COMPILED:
        machinery = importlib.machinery
        sys.path_importer_cache[folder] = machinery.FileFinder(
            folder, (machinery.ExtensionFileLoader, machinery.EXTENSION_SUFFIXES),
            (PrecompiledLoader, machinery.SOURCE_SUFFIXES),
            (machinery.SourcelessFileLoader, machinery.BYTECODE_SUFFIXES))


def import_student(module_name: str, path: str) -> ModuleType:
    """Import the student's file as ``module_name`` (the name the handout gives it)."""
    loader = PrecompiledLoader(module_name, path)
    spec = importlib.util.spec_from_file_location(module_name, path, loader=loader)
    if spec is None:  # not with a loader given; typed Optional all the same
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    loader.exec_module(module)
    return module


def resolve_names(resolver: str, module: ModuleType) -> list[str]:
    """Let the assignment's resolver (a probe module of the case folder) bind handout names the
    student's module lacks, e.g. through a registry the starter has students fill in. Returns its
    notes for the feedback; a resolver that fails leaves the module as it was."""
    try:
        notes = importlib.import_module(resolver).resolve(module)
        return [plain_text(str(note), MAX_NOTE) for note in list(notes)[:MAX_NOTES]]
    except BaseException:  # student code it touched may raise anything
        return []


def use_allowed_packages(folder: str | None) -> None:
    """Make the course's allowed third-party packages importable: the grader names a read-only
    folder holding only them. Appended last, so it can never shadow the standard library or the
    student's own files; numpy and the like are imported only by code that asks for them."""
    if folder and folder not in sys.path:
        sys.path.append(folder)


class AnyCaseFinder:
    """Finds a module of the case folder whose file name differs from the imported name in case
    only (``import Game`` finding game.py), as the student's Windows or macOS disk did;
    asked last, after every exact name (the standard library's included) was looked for."""

    def find_spec(self, fullname: str, path: object = None,
                  target: object = None) -> importlib.machinery.ModuleSpec | None:
        if path is not None or "." in fullname:
            return None
        folder = os.getcwd()
        try:
            names = os.listdir(folder)
        except OSError:
            return None
        wanted = f"{fullname}.py".lower()
        matches = [name for name in names if name.lower() == wanted]
        if len(matches) != 1:  # none, or several the student's disk could not have held
            return None
        file = os.path.join(folder, matches[0])
        return importlib.util.spec_from_file_location(
            fullname, file, loader=PrecompiledLoader(fullname, file))


def import_from_case_folder(packages: str | None) -> None:
    """Imports find the case folder (the working directory) first, then the standard library,
    then the allowed packages, then a case folder module named in another case
    (``AnyCaseFinder``); never site-packages, and no bytecode is written."""
    sys.path[:] = [os.getcwd()] + [p for p in sys.path if "site-packages" not in p]
    if not any(isinstance(finder, AnyCaseFinder) for finder in sys.meta_path):
        sys.meta_path.append(AnyCaseFinder())
    use_allowed_packages(packages)
    sys.dont_write_bytecode = True
    use_precompiled(os.getcwd())


def preload_allowed_packages(packages: str | None, names: tuple[str, ...]) -> None:
    """Zygote only: import the allowed packages and the standard-library modules the student's
    files use, once, before forking (trusted code from the standard library and the read-only
    folder; student code never runs here: the zygote's ``sys.path`` holds no case folder). Each
    case then finds them imported instead of paying the import (numpy: about 0.2 s) inside its
    own time limit. The names come from the fork order (what the student's files import), never
    from a case's inputs."""
    if not names:
        return
    use_allowed_packages(packages)
    for name in names:
        if name.isidentifier() and name not in sys.modules:
            try:
                __import__(name)
            except Exception:  # the case imports it again and reports the problem itself
                pass
