"""The system-call filter of student processes: calls that make kernel objects outliving a case,
or kernel work outside the process, are refused.

Files, processes and System V IPC are bounded elsewhere (scratch mounts, pid namespaces and
sweeps, an IPC namespace). What is left are kernel objects no namespace of the sandbox holds:
a key added to the user's keyring (``add_key(..., KEY_SPEC_USER_KEYRING)``) stays after every
process of the user ended, so a case could file its answers there for the next case, or the
next grading leasing that user. Rather than chase each such object, student processes are
refused the calls that make them (the refusals of Docker's default seccomp profile, less what
honest code uses); see ``DENIED``.

The filter is built here, in the grader, with libseccomp (``pyseccomp`` or Debian's
``python3-seccomp``), and exported as the kernel's BPF program once per run. The student side
needs no library: ``loader_words`` is a few lines of standard-library Python, placed innermost
in each student command (after namespaces and limits are set up, which need some of these
calls), that installs the exported program and execs the command. A filter is inherited by
every child and cannot be removed. Where libseccomp or seccomp is missing, ``status`` says so
and ``harness.sandbox.keyrings`` empties the dedicated user's keyrings after every case instead.
"""
from __future__ import annotations

import errno
import os
import sys
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Optional, Sequence, Tuple

from harness.sandbox.keyrings import keyctl_number

# Refused with EPERM, by what they would make or do. Names the machine's architecture lacks
# (vm86 on x86_64) are skipped.
DENIED: dict[str, tuple[str, ...]] = {
    # Keyrings of every kind (user, user-session, persistent, session, process, thread): the
    # user's and the persistent keyring outlive the processes, and request_key runs a helper.
    "keyrings": ("add_key", "request_key", "keyctl"),
    # System V IPC and POSIX message queues: objects that outlive their process (the namespaced
    # levels also hold them in an IPC namespace of the sandbox; USER sweeps them).
    "IPC objects": ("shmget", "msgget", "semget", "mq_open"),
    # Kernel threads that work for the process while it is frozen between turns (io_uring's
    # SQPOLL thread and its workers), and work the kernel does on its behalf.
    "io_uring": ("io_uring_setup", "io_uring_enter", "io_uring_register"),
    # Host-wide or per-user kernel pools no namespace or limit of the sandbox bounds: Linux AIO
    # contexts (fs.aio-nr counts every process of the host against fs.aio-max-nr: one case
    # took all 65536) and inotify instances and watches (fs.inotify.max_user_*, per user).
    "kernel pools": ("io_setup", "io_submit", "io_cancel", "io_getevents", "io_pgetevents",
                     "io_destroy", "inotify_init", "inotify_init1", "inotify_add_watch"),
    "BPF, perf and fault handling": ("bpf", "perf_event_open", "userfaultfd", "fanotify_init"),
    # Reaching into other processes of the user (a helper tracing an entrant swallows the stop
    # of a freeze; a case taking its zygote's descriptors).
    "other processes": ("ptrace", "process_vm_readv", "process_vm_writev", "pidfd_getfd",
                        "kcmp"),
    # Namespaces and mounts of its own (a user namespace makes the case root of it: tmpfs
    # mounts outside every memory limit, IPC objects in a namespace of its own).
    "namespaces and mounts": ("unshare", "setns", "mount", "umount2", "pivot_root", "chroot",
                              "fsopen", "fsconfig", "fsmount", "fspick", "move_mount",
                              "open_tree", "mount_setattr"),
    # What Docker refuses that only root may do anyway: refused outright.
    "host administration": ("acct", "clock_adjtime", "clock_settime", "settimeofday",
                            "init_module", "finit_module", "delete_module", "kexec_load",
                            "kexec_file_load", "reboot", "swapon", "swapoff", "quotactl",
                            "lookup_dcookie", "open_by_handle_at", "name_to_handle_at",
                            "iopl", "ioperm", "syslog", "vhangup", "uselib", "ustat",
                            "sysfs", "_sysctl", "nfsservctl", "vm86", "vm86old",
                            "create_module", "get_kernel_syms", "query_module"),
}
# fcntl commands refused, (argument index, value) compared exactly: a lease (F_SETLEASE) makes
# every other opener of the file, the grader cleaning a case folder included, wait up to
# fs.lease-break-time (45 s); a pipe grown past its default (F_SETPIPE_SZ) draws on the user's
# pipe pages (fs.pipe-user-pages-soft), shared by every process of that user.
DENIED_COMMANDS: dict[str, tuple[tuple[str, int, int], ...]] = {
    "leases": (("fcntl", 1, 1024),),
    "pipe sizes": (("fcntl", 1, 1031),),
}
# clone with a flag that makes a namespace is refused like unshare; clone3 passes its flags in
# memory a filter cannot read, so it answers ENOSYS and the C library falls back to clone.
CLONE_NAMESPACE_FLAGS = (0x00020000, 0x02000000, 0x04000000, 0x08000000, 0x10000000,
                         0x20000000, 0x40000000)  # NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER,
#                                                   NEWPID, NEWNET
# Exit status of the loader when the kernel refused the filter.
LOADER_FAILED = 95
# argv: -c PROGRAM_HEX KEYCTL COMMAND... (either may be empty). First a session keyring of its
# own (KEYCTL_JOIN_SESSION_KEYRING): a process inherits its parent's across a change of user, so
# without the filter a case could add keys to the grader's session keyring, shared by every
# grading it starts. Then no_new_privs (the kernel requires it without root) and the filter.
_LOADER = (
    "import ctypes, os, sys\n"
    "libc = ctypes.CDLL(None, use_errno=True)\n"
    "if sys.argv[2]:\n"
    "    libc.syscall(int(sys.argv[2]), 1, None)\n"
    "program = bytes.fromhex(sys.argv[1])\n"
    "class Fprog(ctypes.Structure):\n"
    "    _fields_ = [('len', ctypes.c_ushort), ('filter', ctypes.c_char_p)]\n"
    "fprog = Fprog(len(program) // 8, program)\n"
    "if program and (libc.prctl(38, 1, 0, 0, 0) or libc.prctl(22, 2, ctypes.byref(fprog), 0, 0)):\n"
    "    sys.stderr.write('gamegrader: the system-call filter could not be installed: '\n"
    "                     + os.strerror(ctypes.get_errno()) + '\\n')\n"
    f"    os._exit({LOADER_FAILED})\n"
    "os.execvp(sys.argv[3], sys.argv[3:])\n")


@dataclass(frozen=True)
class FilterStatus:
    """Whether student processes run under the filter, and in words for results.json."""

    program: bytes | None
    reason: str = ""

    @property
    def active(self) -> bool:
        return self.program is not None

    def describe(self) -> str:
        if self.active:
            return ("system calls that make kernel objects outliving a case or draw on "
                    "host-wide pools (keyrings, IPC, io_uring, AIO, inotify, leases, BPF, "
                    "namespaces) refused (seccomp)")
        return (f"no system-call filter ({self.reason}): a dedicated user's keyrings and IPC "
                "objects are removed after every case")


def _bindings() -> Any:
    """libseccomp's Python bindings: ``pyseccomp`` (PyPI) or ``seccomp`` (python3-seccomp)."""
    try:
        import pyseccomp
        return pyseccomp
    except (ImportError, OSError, RuntimeError):  # it loads libseccomp.so when imported
        pass
    folder = "/usr/lib/python3/dist-packages"  # Debian's, seen from a virtual environment too
    added = folder not in sys.path and os.path.isdir(folder)
    if added:
        sys.path.append(folder)
    try:
        import seccomp  # type: ignore[import-not-found, unused-ignore]  # untyped; may be absent
        return seccomp
    except (ImportError, OSError, RuntimeError):
        return None
    finally:
        if added:  # only for this import: nothing else of the grader comes from there
            sys.path.remove(folder)


# A call refused beyond ``DENIED``: its name, and the (argument index, flag) that must be set in
# that argument for it to be refused, or None for every call.
ExtraDenial = Tuple[str, Optional[Tuple[int, int]]]


def build_program(extra: Sequence[ExtraDenial] = ()) -> bytes:
    """The filter as the kernel's BPF program, for this machine's architecture; ``extra`` are
    further refusals a bound of the launch needs (the calls that make memory no process maps,
    where no memory control group counts it). One already refused is skipped.

    Raises:
        RuntimeError: libseccomp (or its bindings) is not installed.
        OSError: libseccomp refused a rule.
    """
    lib = _bindings()
    if lib is None:
        raise RuntimeError("libseccomp or its Python bindings are not installed")
    refuse = lib.ERRNO(errno.EPERM)
    syscalls = lib.SyscallFilter(lib.ALLOW)
    denied = {name for names in DENIED.values() for name in names}
    flagged = [(name, flag) for name, flag in extra if name not in denied | {"clone3"}
               and not (name == "clone" and flag and flag[1] in CLONE_NAMESPACE_FLAGS)]
    for name in sorted(denied | {name for name, flag in flagged if flag is None}):
        try:
            syscalls.add_rule(refuse, name)
        except (OSError, ValueError, RuntimeError):
            continue  # not a system call of this architecture
    clone_flags = [(0, flag) for flag in CLONE_NAMESPACE_FLAGS]
    for name, (index, flag) in [("clone", pair) for pair in clone_flags] + \
            [(name, flag) for name, flag in flagged if flag is not None]:
        syscalls.add_rule(refuse, name, lib.Arg(index, lib.MASKED_EQ, flag, flag))
    for name, index, value in (rule for rules in DENIED_COMMANDS.values() for rule in rules):
        syscalls.add_rule(refuse, name, lib.Arg(index, lib.EQ, value))
    try:
        syscalls.add_rule(lib.ERRNO(errno.ENOSYS), "clone3")
    except (OSError, ValueError, RuntimeError):
        pass
    with tempfile.TemporaryFile() as exported:
        syscalls.export_bpf(exported)
        exported.seek(0)
        return exported.read()


def loader_words(interpreter: str, program: bytes | None) -> list[str]:
    """Command words that give the process a session keyring of its own, install ``program``
    (if any) and exec the words after them; none when there is nothing to do."""
    keyctl = keyctl_number()
    if program is None and keyctl is None:
        return []
    return [interpreter, "-I", "-S", "-c", _LOADER, (program or b"").hex(),
            "" if keyctl is None else str(keyctl)]


def kernel_refusal() -> str:
    """Why this kernel cannot run the filter ("" if it can): seccomp filters with the errno
    action, as the kernel lists them (``/proc/sys/kernel/seccomp/actions_avail``, Linux 4.14+).
    Read, not tried: a trial run would start an interpreter at every grading."""
    try:
        with open("/proc/sys/kernel/seccomp/actions_avail", encoding="ascii") as listed:
            actions = listed.read().split()
    except OSError:
        return "this kernel has no seccomp filters"
    return "" if "errno" in actions else "this kernel's seccomp filters cannot refuse a call"


@lru_cache(maxsize=None)
def status(interpreter: str, extra: Tuple[ExtraDenial, ...] = ()) -> FilterStatus:
    """The filter for student code run by ``interpreter`` (with the ``extra`` refusals), once
    per run, or else why not (then no student process gets it). A loader that cannot install
    it fails the process (fail closed) with exit status ``LOADER_FAILED`` and says why."""
    if os.environ.get(OFF_ENV):
        return FilterStatus(None, f"{OFF_ENV} is set")
    refusal = kernel_refusal()
    if refusal:
        return FilterStatus(None, refusal)
    try:
        return FilterStatus(build_program(extra))
    except (RuntimeError, OSError) as exc:
        return FilterStatus(None, str(exc))


# Set (to anything) to run student code without the filter: tests of the fallback, and a
# scenario that shows what the filter stops.
OFF_ENV = "GAMEGRADER_NO_SYSCALL_FILTER"

__all__ = ["DENIED", "DENIED_COMMANDS", "FilterStatus", "OFF_ENV", "build_program",
           "loader_words", "status"]
