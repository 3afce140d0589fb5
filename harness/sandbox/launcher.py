"""The one place that starts student processes. Everything else asks this module.

Every process gets: its own session (so its whole group can be killed), resource limits, a
system-call filter (``syscall_filter``), a scrubbed environment, the sandbox user and a network
namespace where available, the sandbox's memory control group where there is one, the student's
out-of-memory score, and no inherited
file descriptors beyond the ones named.
"""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import IO, Sequence

from harness.records.limits import Limits
from harness.sandbox.cleanup import supervise
from harness.sandbox.levels import Isolation, Level
from harness.sandbox.limits import apply_limits, prlimit_words
from harness.sandbox.memory_group import FALLBACK_DENIED_CALLS, join_words
from harness.sandbox.packages import program_command
from harness.sandbox.syscall_filter import loader_words
from harness.sandbox.syscall_filter import status as filter_status

# One thread for numeric libraries (allowed packages such as numpy): OpenBLAS would otherwise
# start a thread per CPU, each reserving address space and counting against the process limit.
# MALLOC_ARENA_MAX: glibc gives a new thread a malloc arena of its own that reserves 64 MiB of
# address space it never uses; under the 512 MiB address-space limit a program could then start
# only about 13 threads (an honest timer thread per move, never cancelled, crashed a game at
# move 14). Two arenas leave room for about 50 threads; real memory use is the same.
SAFE_ENV = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONIOENCODING": "utf-8",
            "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0", "HOME": "/tmp",
            "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
            "MALLOC_ARENA_MAX": "2"}


def python_command(isolation: Isolation, script: str, *args: str, isolated: bool = True,
                   packages: Path | None = None) -> list[str]:
    """The interpreter command for student code: no site-packages, no PYTHON* variables.

    ``isolated`` (``-I``) also keeps the script's folder off ``sys.path``; programs that import
    a neighbour module (Othello's ``othello_shared``) run with ``-E -s`` instead. ``packages``
    is the folder of allowed packages, appended to the program's ``sys.path``.
    """
    flags = ["-I", "-S"] if isolated else ["-E", "-s", "-S"]
    return program_command(isolation.interpreter, [*flags, "-u"], script, args, packages)


def launch(command: Sequence[str], *, cwd: str, isolation: Isolation, limits: Limits,
           stdin: int | IO[bytes] | None, stdout: int | IO[bytes] | None,
           stderr: int | IO[bytes] | None, pass_fds: Sequence[int] = (),
           extra_env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """Start ``command`` as student code and return the process (binary pipes).

    Raises:
        OSError: the process could not be started.
    """
    own_user = isolation.own_user
    plain = isolation.level is Level.PLAIN  # no limits or helpers: the system has none
    prlimit = None if plain else shutil.which("prlimit")
    limit_words = prlimit_words(limits, own_user=own_user, prlimit=prlimit) if prlimit else []
    # If the grader dies (killed midway), the kernel kills what it started: setpriv sets the
    # parent-death signal, and unshare's --kill-child passes it on to the namespace. It also sets
    # no_new_privs, inherited by everything below: a set-user-id program (su, mount, passwd)
    # then runs with the student's own rights. Root's steps before the user is dropped (unshare,
    # the scratch mounts) need no new privileges; root already has them.
    setpriv = None if plain else shutil.which("setpriv")
    outer = [setpriv, "--no-new-privs", "--pdeathsig", "KILL", "--"] if setpriv else []
    # The memory group is joined by root, before the user changes (see memory_group): where
    # the launcher itself would change the user, setpriv does it after the join instead (and
    # sets the parent-death signal again, which a change of user clears).
    switch, procs, user_words = isolation.switch_user, isolation.memory_procs, []
    if switch and procs and setpriv:
        switch = False
        user_words = [setpriv, f"--reuid={isolation.uid}", f"--regid={isolation.gid}",
                      "--clear-groups", "--pdeathsig", "KILL", "--"]
    elif switch:
        procs = ""  # the join would run as the student, who may not move itself
    # Limits go innermost, so unshare (which needs to fork) is not bound by them; the system-call
    # filter after them, since unshare, mount and prlimit need calls it refuses. Where no memory
    # group counts memory that no process maps, the filter also refuses the calls that make it.
    filter_words: list[str] = []
    if not plain:
        syscalls = filter_status(isolation.interpreter,
                                 () if procs else FALLBACK_DENIED_CALLS)
        filter_words = loader_words(isolation.interpreter, syscalls.program)
    argv = [*outer, *join_words(procs), *isolation.prefix, *user_words, *limit_words,
            *filter_words, *command]
    env = dict(SAFE_ENV, **(extra_env or {}))

    def prepare_child() -> None:
        apply_limits(limits, own_user=own_user)

    process = subprocess.Popen(  # the command is built here, never by a student
        argv, cwd=cwd, env=env, stdin=stdin, stdout=stdout, stderr=stderr,
        pass_fds=tuple(pass_fds), start_new_session=True, close_fds=True,
        preexec_fn=None if prlimit or plain else prepare_child,
        user=isolation.uid if switch else None, group=isolation.gid if switch else None,
        extra_groups=[] if switch else None)
    supervise(process.pid)
    return process
