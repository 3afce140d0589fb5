"""The per-process ceilings of student code, as an assignment gives them (applied by
``harness.sandbox.limits``)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """Per-process ceilings for student code.

    Attributes:
        memory_mb: address-space limit (RLIMIT_AS) in MiB.
        cpu_seconds: hard CPU-time ceiling (RLIMIT_CPU) for any student process; the worker
            lowers its soft limit to each case's timeout, so code that ignores signals is still
            stopped by the kernel.
        file_mb: largest file the process may write (RLIMIT_FSIZE).
        open_files: RLIMIT_NOFILE.
        processes: RLIMIT_NPROC; applied only when student code runs as its own user, because the
            limit counts every process of the real user id.
        message_queue_bytes: RLIMIT_MSGQUEUE, the bytes of POSIX message queues the user may
            create: 0, so none (no assignment needs them; a queue outlives its process, and
            without an IPC namespace of the sandbox it would outlive grading too).
        sandbox_memory_mb: all the memory of one sandbox together (every process, and the
            shared memory and files they wrote into memory), where a memory control group can
            be made (``memory_group``).
        disk_mb, disk_files: what one sandbox may write in its case folders, in MiB and in
            files and folders, where the grader can mount a sized tmpfs there (``workspace``).
    """

    memory_mb: int = 512
    cpu_seconds: int = 660
    file_mb: int = 16
    open_files: int = 64
    processes: int = 32
    message_queue_bytes: int = 0
    sandbox_memory_mb: int = 1024
    disk_mb: int = 64
    disk_files: int = 2048
