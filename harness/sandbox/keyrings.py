"""The kernel keyrings of a sandbox user: listed, and emptied where the filter is not in force.

A key lives while a keyring links it. The keyrings that outlive every process of a user are
kept by the kernel per user id, not per namespace of the sandbox: the user keyring (``@u``), the
user-session keyring (``@us``, what ``@s`` falls back to for a process without a session
keyring) and the persistent keyring (``KEYCTL_GET_PERSISTENT``, kept for days). Session,
process and thread keyrings die with the processes holding them unless linked into one of
those. So emptying those three keyrings, as the user, removes every key a case left behind.

Where the system-call filter is in force (``syscall_filter``), no student process can add a
key, and this module only serves tests and the checks of leases. Without it, the sandbox
empties the dedicated user's keyrings when it takes the lease, after every case and when it
closes (``Sandbox``). Under a shared user (``nobody``, the grader's own) they are not touched:
they may be someone else's; that is a known limit of those levels.
"""
from __future__ import annotations

import json
import platform
import subprocess
from typing import Optional

# keyctl's system call number per architecture (the C library has no wrapper for it).
KEYCTL_NUMBERS = {"x86_64": 250, "aarch64": 219, "i686": 288, "armv7l": 311, "ppc64le": 271,
                  "s390x": 280}
_LIST_TIMEOUT = 20.0

# Runs as the user: argv is -c KEYCTL_NUMBER CLEAR (1 unlinks every key but the user keyring,
# which the user-session keyring links by design). Prints one JSON
# object: keyring name -> descriptions of the keys it links ("type;uid;gid;perm;description").
_AS_USER = (
    "import ctypes, json, sys\n"
    "libc = ctypes.CDLL(None, use_errno=True)\n"
    "nr, clear = int(sys.argv[1]), sys.argv[2] == '1'\n"
    "def keyctl(*args):\n"
    "    return libc.syscall(nr, *[ctypes.c_long(a) if isinstance(a, int) else a for a in args])\n"
    "def describe(key):\n"
    "    text = ctypes.create_string_buffer(4096)\n"
    "    size = keyctl(6, key, text, 4096)\n"
    "    return text.value.decode(errors='replace') if size > 0 else f'key {key}'\n"
    "def linked(ring):\n"
    "    ids = (ctypes.c_int32 * 1024)()\n"
    "    size = keyctl(11, ring, ids, ctypes.sizeof(ids))\n"
    "    return list(ids[:min(max(size, 0), ctypes.sizeof(ids)) // 4])\n"
    "user = keyctl(0, -4, 1)\n"
    "rings = {'user': -4, 'user-session': -5, 'persistent': keyctl(22, -1, -2)}\n"
    "found = {}\n"
    "for name, ring in rings.items():\n"
    "    if ring == -1:\n"
    "        continue\n"
    "    keys = [key for key in linked(ring) if key != user]  # @us links @u: not a leftover\n"
    "    found[name] = [describe(key) for key in keys]\n"
    "    for key in keys if clear else ():\n"
    "        keyctl(9, key, ring)\n"
    "print(json.dumps(found))\n")


def keyctl_number() -> Optional[int]:
    """keyctl's system call number on this machine; None on an architecture not listed."""
    return KEYCTL_NUMBERS.get(platform.machine())


def _as_user(uid: int, gid: int, interpreter: str, clear: bool) -> dict[str, list[str]]:
    number = keyctl_number()
    if number is None:
        return {}
    try:
        done = subprocess.run(
            [interpreter, "-I", "-S", "-c", _AS_USER, str(number), "1" if clear else "0"],
            capture_output=True, timeout=_LIST_TIMEOUT, cwd="/", user=uid, group=gid,
            extra_groups=[], env={"PATH": "/usr/bin:/bin"})
        found = json.loads(done.stdout or b"{}")
    except (OSError, subprocess.SubprocessError, ValueError):
        return {}
    if not isinstance(found, dict):
        return {}
    return {str(name): [str(key) for key in keys] for name, keys in found.items()
            if isinstance(keys, list)}


def user_keys(uid: int, gid: int, interpreter: str) -> dict[str, list[str]]:
    """The keys in each keyring of ``uid`` that outlives its processes (name -> descriptions)."""
    return _as_user(uid, gid, interpreter, clear=False)


def clear_user_keyrings(uid: int, gid: int, interpreter: str) -> int:
    """Empty the user, user-session and persistent keyrings of ``uid``; the keys they held."""
    return sum(len(keys) for keys in _as_user(uid, gid, interpreter, clear=True).values())


__all__ = ["KEYCTL_NUMBERS", "clear_user_keyrings", "keyctl_number", "user_keys"]
