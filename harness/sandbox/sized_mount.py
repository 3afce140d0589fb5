"""A sized tmpfs under a sandbox's scratch root, so its case folders cannot fill the host's disk.

The case folder is the one place student code may write outside the scratch mounts, and it was
a plain folder on the host's disk, bounded only per file (``RLIMIT_FSIZE``): one case wrote
2.5 GB there, on the disk concurrent gradings and the host share. As root the grader mounts a
tmpfs sized in bytes and in inodes (files and folders) on the sandbox's scratch root before any
student process starts, so every case folder, and the trash of used ones, live inside it, and
the mount namespaces of the sandbox, copied from the host's when each starts, see the same
files. Its pages are memory: where the sandbox has a memory group, what the student writes there
is charged to that group too.

Mounted in the host's namespace, the tmpfs outlives a grader that is killed outright; the sweep
of abandoned scratch roots (``workspace``) detaches it before removing the folder.
"""
from __future__ import annotations

import ctypes
import os
from dataclasses import dataclass

MiB = 1024 * 1024
_MS_NOSUID, _MS_NODEV = 2, 4
_MNT_DETACH, _UMOUNT_NOFOLLOW = 2, 8
SOURCE = b"gamegrader-cases"


@dataclass(frozen=True)
class DiskBound:
    """What a sandbox may write in its case folders: ``megabytes`` and ``files``."""

    megabytes: int
    files: int

    def describe(self) -> str:
        return f"{self.megabytes} MB and {self.files} files"


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def mount_sized(path: str, size_bytes: int, inodes: int) -> str:
    """Mount a tmpfs of ``size_bytes`` and ``inodes`` on the folder ``path``; "" when done,
    else why not (not root, or no right to mount: then the folder stays as it was)."""
    if os.geteuid() != 0:
        return "not root"
    options = f"size={size_bytes},nr_inodes={inodes},mode=0711".encode()
    if _libc().mount(SOURCE, path.encode(), b"tmpfs", _MS_NOSUID | _MS_NODEV, options) != 0:
        return os.strerror(ctypes.get_errno())
    return ""


def is_mount(fd: int, parent_fd: int) -> bool:
    """Whether the open folder ``fd`` is a mount on the folder ``parent_fd`` holds."""
    return os.fstat(fd).st_dev != os.fstat(parent_fd).st_dev


def detach(path: str) -> None:
    """Unmount ``path`` at once (lazily, for the namespaces that still see it), without
    following a link at the last step."""
    _libc().umount2(path.encode(), _MNT_DETACH | _UMOUNT_NOFOLLOW)


def is_full(path: str, room_bytes: int = 256 * 1024, room_files: int = 4) -> bool:
    """Whether the file system of ``path`` has (almost) no room left, in bytes or in files."""
    try:
        info = os.statvfs(path)
    except OSError:
        return False
    return info.f_bavail * info.f_frsize < room_bytes or \
        (info.f_files > 0 and info.f_favail < room_files)
