"""Removing folders a student could write in, as root, without ever following a link.

Every step works on open folder descriptors (``dir_fd``) with ``O_NOFOLLOW``: a symbolic link
planted anywhere in the tree is removed as a link, never followed, so a race that swaps a folder
for a link to ``/etc`` cannot make root delete anything outside the tree. Deep trees are
flattened (subfolders are moved up into the folder being emptied) instead of being walked
recursively, so a 100,000-deep chain of folders costs neither the Python stack nor one open
descriptor per level; the work is bounded by a number of steps.
"""
from __future__ import annotations

import os
import secrets
import stat
from collections import deque

STEP_BUDGET = 1_000_000
_FOLDER_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


def open_folder(name: str, dir_fd: int | None = None) -> int:
    """Open a folder (never a link, a fifo or a device) and return its descriptor."""
    return os.open(name, _FOLDER_FLAGS, dir_fd=dir_fd)


def empty_folder(folder_fd: int, budget: int = STEP_BUDGET) -> bool:
    """Delete everything inside the open folder; True if it ended up empty."""
    prefix = f".gamegrader-removed-{secrets.token_hex(6)}-"
    moved = 0
    work = deque(os.listdir(folder_fd))
    while work and budget > 0:
        name = work.popleft()
        budget -= 1
        try:
            if not stat.S_ISDIR(os.stat(name, dir_fd=folder_fd, follow_symlinks=False).st_mode):
                os.unlink(name, dir_fd=folder_fd)
                continue
            sub = open_folder(name, folder_fd)
            try:
                for child in os.listdir(sub):
                    budget -= 1
                    moved += 1
                    if _take_out(child, sub, folder_fd, f"{prefix}{moved}"):
                        work.append(f"{prefix}{moved}")
            finally:
                os.close(sub)
            os.rmdir(name, dir_fd=folder_fd)
        except OSError:
            continue  # gone already, or not ours to remove: the final check says
    return not os.listdir(folder_fd)


def _take_out(name: str, parent_fd: int, top_fd: int, new_name: str) -> bool:
    """Unlink a non-folder entry, or move a folder up to ``top_fd`` as ``new_name`` (True)."""
    try:
        if stat.S_ISDIR(os.stat(name, dir_fd=parent_fd, follow_symlinks=False).st_mode):
            os.rename(name, new_name, src_dir_fd=parent_fd, dst_dir_fd=top_fd)
            return True
        os.unlink(name, dir_fd=parent_fd)
    except OSError:
        pass
    return False


def remove_tree(name: str, dir_fd: int, budget: int = STEP_BUDGET) -> bool:
    """Remove the entry ``name`` of the open folder ``dir_fd`` (a file, a link, or a whole
    folder tree); True if it is gone."""
    try:
        folder = open_folder(name, dir_fd)
    except FileNotFoundError:
        return True
    except OSError:  # not a folder (or a link to one): remove the entry itself
        try:
            os.unlink(name, dir_fd=dir_fd)
        except FileNotFoundError:
            pass
        except OSError:
            return False
        return True
    try:
        empty_folder(folder, budget)
    except OSError:
        pass
    finally:
        os.close(folder)
    try:
        os.rmdir(name, dir_fd=dir_fd)
    except FileNotFoundError:
        pass
    except OSError:
        return False
    return True


def remove_path(path: str, budget: int = STEP_BUDGET) -> bool:
    """``remove_tree`` for a path whose parent folders nobody untrusted can change."""
    parent, name = os.path.split(os.path.abspath(path))
    try:
        parent_fd = os.open(parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return not os.path.lexists(path)
    try:
        return remove_tree(name, parent_fd, budget)
    finally:
        os.close(parent_fd)
