"""Resource limits applied to every student process, in the child just before exec."""
from __future__ import annotations

from dataclasses import dataclass

from harness.records.limits import Limits
from harness.sandbox.posix import resource

MiB = 1024 * 1024


STARTUP_ALLOWANCE = 1.0
"""Added to a case's time limit when it starts a fresh interpreter: the start and the import."""
FORK_ALLOWANCE = 0.25
"""Added when a zygote forks the case: a fork starts in about a millisecond; this covers the fork,
the copy of the files and the reply's trip."""


@dataclass(frozen=True)
class CaseAllowance:
    """What one case may use, whichever way it starts.

    Attributes:
        wall_seconds: from sending the request to the end of the case, on the grader's clock.
        cpu_seconds: the CPU-time limit the worker sets for itself (RLIMIT_CPU, whole seconds):
            the wall allowance rounded down, plus one, so the wall clock always ends a case
            first unless its code ignores signals.
    """

    wall_seconds: float
    cpu_seconds: int


def case_allowance(timeout: float, *, forked: bool) -> CaseAllowance:
    """The allowance of a case whose time limit is ``timeout`` seconds, started as a fork of a
    zygote (``forked``) or as a fresh interpreter."""
    wall = timeout + (FORK_ALLOWANCE if forked else STARTUP_ALLOWANCE)
    return CaseAllowance(wall_seconds=wall, cpu_seconds=int(wall) + 1)


def apply_limits(limits: Limits, *, own_user: bool) -> None:
    """Set the rlimits of the calling process (used from the launcher's ``preexec_fn``);
    nothing where the system has no rlimits (``Level.PLAIN``)."""
    if resource is None:
        return
    pairs = [
        ("RLIMIT_AS", limits.memory_mb * MiB),
        ("RLIMIT_CPU", limits.cpu_seconds),
        ("RLIMIT_FSIZE", limits.file_mb * MiB),
        ("RLIMIT_NOFILE", limits.open_files),
        ("RLIMIT_CORE", 0),
        ("RLIMIT_MSGQUEUE", limits.message_queue_bytes),  # Linux's only: macOS has no such queues
    ]
    if own_user:
        pairs.append(("RLIMIT_NPROC", limits.processes))
    for name, value in pairs:
        which = getattr(resource, name, None)
        if which is None:  # a limit this system does not have
            continue
        soft, hard = resource.getrlimit(which)
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        resource.setrlimit(which, (value, value))


def prlimit_words(limits: Limits, *, own_user: bool, prlimit: str) -> list[str]:
    """The same limits as a ``prlimit`` command prefix (util-linux).

    Setting limits through an exec'd helper, rather than a ``preexec_fn``, lets the grader start
    processes with ``vfork``: much cheaper than forking the grader's whole address space.
    """
    words = [prlimit, f"--as={limits.memory_mb * MiB}", f"--cpu={limits.cpu_seconds}",
             f"--fsize={limits.file_mb * MiB}", f"--nofile={limits.open_files}", "--core=0",
             f"--msgqueue={limits.message_queue_bytes}"]
    if own_user:
        words.append(f"--nproc={limits.processes}")
    return [*words, "--"]
