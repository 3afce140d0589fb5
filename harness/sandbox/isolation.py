"""Which isolation the machine allows, decided once per run and reported in the output."""
from __future__ import annotations

import enum
import os
import pwd
import shutil
import subprocess
from dataclasses import dataclass
from functools import lru_cache

SANDBOX_USER_ENV = "GAMEGRADER_SANDBOX_USER"
DEFAULT_SANDBOX_USER = "gg-student"


class Level(enum.Enum):
    """Isolation levels, strongest first."""

    USER_NO_NETWORK = "separate unprivileged user, no network, resource limits"
    USER = "separate unprivileged user, resource limits (network namespace unavailable)"
    PROCESS = "same user as the grader, own process group, resource limits"


@dataclass(frozen=True)
class Isolation:
    """The isolation in force: the level, and the user student code runs as (if any)."""

    level: Level
    uid: int | None = None
    gid: int | None = None
    user: str | None = None
    unshare: str | None = None

    @property
    def own_user(self) -> bool:
        return self.uid is not None


def _can_unshare_network(unshare: str, uid: int, gid: int) -> bool:
    try:
        return subprocess.run([unshare, "--net", f"--setgid={gid}", f"--setuid={uid}", "--",
                               "true"], capture_output=True,
                              timeout=5).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


@lru_cache(maxsize=None)
def detect(user_name: str | None = None) -> Isolation:
    """Pick the strongest level available.

    As root with the sandbox user present (``setup.sh`` creates it), student code runs as that
    user, in a fresh network namespace when ``unshare --net`` works. Otherwise it runs as the
    current user with limits only.
    """
    if os.geteuid() != 0:
        return Isolation(Level.PROCESS)
    name = user_name or os.environ.get(SANDBOX_USER_ENV, DEFAULT_SANDBOX_USER)
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        return Isolation(Level.PROCESS)
    unshare = shutil.which("unshare")
    if unshare and _can_unshare_network(unshare, entry.pw_uid, entry.pw_gid):
        return Isolation(Level.USER_NO_NETWORK, entry.pw_uid, entry.pw_gid, name, unshare)
    return Isolation(Level.USER, entry.pw_uid, entry.pw_gid, name)
