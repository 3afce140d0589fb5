"""The sandbox's system-call filter (``harness.sandbox.syscall_filter``) and the keyrings fallback
(``harness.sandbox.keyrings``): what the filter refuses, that honest work runs under it, what
results.json says without it, and that emptying a user's keyrings removes what a case filed."""
from __future__ import annotations

import json
import os
import platform
import pwd
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from harness.sandbox import keyrings, syscall_filter
from harness.sandbox.packages import installed_folder

pytestmark = pytest.mark.slow
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
NUMBERS = {"x86_64": {"add_key": 248, "io_setup": 206, "io_uring_setup": 425, "bpf": 321,
                      "userfaultfd": 323, "perf_event_open": 298},
           "aarch64": {"add_key": 217, "io_setup": 0, "io_uring_setup": 425, "bpf": 280,
                       "userfaultfd": 282, "perf_event_open": 241}}.get(platform.machine())

# Tries each call the filter refuses (what changes the process itself, in a child) and prints
# JSON: call -> errno (0: it worked).
TRIES = r'''
import ctypes, json, os, sys
libc = ctypes.CDLL(None, use_errno=True)
nr = json.loads(sys.argv[1])
def outcome(result):
    return 0 if result >= 0 else ctypes.get_errno()
def in_child(attempt):
    child = os.fork()
    if child == 0:
        os._exit(0 if attempt() >= 0 else min(ctypes.get_errno(), 255))
    return os.waitstatus_to_exitcode(os.waitpid(child, 0)[1])
params = (ctypes.c_uint32 * 30)()
params[2] = 2  # SQPOLL
found = {
    "add_key": outcome(libc.syscall(nr["add_key"], b"user", b"gg-filter-test", b"1", 1,
                                    ctypes.c_long(-2))),  # the process keyring: dies with it
    "shmget": outcome(segment := libc.shmget(0, 4096, 0o1600)),  # IPC_PRIVATE: removed below
    "mq_open": outcome(libc.mq_open(b"/gg-filter-test", os.O_CREAT | os.O_RDWR, 0o600, None)),
    "io_uring_setup": outcome(libc.syscall(nr["io_uring_setup"], 8, params)),
    "userfaultfd": outcome(libc.syscall(nr["userfaultfd"], 1)),
    "perf_event_open": outcome(libc.syscall(nr["perf_event_open"], (ctypes.c_uint32 * 32)(
        1, 128, 1, 0, 0, 0, 0, 0, 0, 0, 0x20 | 0x40), 0, -1, -1, 0)),
    "unshare(CLONE_NEWUSER)": in_child(lambda: libc.unshare(0x10000000)),
    "ptrace(TRACEME)": in_child(lambda: libc.ptrace(0, 0, None, None)),
    "clone3": outcome(libc.syscall(435, None, 0)),
    # the host's AIO pool (fs.aio-nr), the user's inotify instances, a lease, a grown pipe
    "io_setup": outcome(libc.syscall(nr["io_setup"], 128, ctypes.byref(ctypes.c_ulong(0)))),
    "inotify_init1": outcome(libc.inotify_init1(0)),
    "fcntl(F_SETLEASE)": outcome(libc.fcntl(os.open(sys.executable, os.O_RDONLY), 1024, 0)),
    "fcntl(F_SETPIPE_SZ)": outcome(libc.fcntl(os.pipe()[0], 1031, 1 << 20)),
}
libc.mq_unlink(b"/gg-filter-test")
if found["shmget"] == 0:
    libc.shmctl(segment, 0, None)  # IPC_RMID
print(json.dumps(found))
'''

# What honest code does: threads, a multiprocessing pool and queue, a subprocess, numpy.
HONEST = r'''
import multiprocessing, subprocess, sys, threading
if len(sys.argv) > 1:
    sys.path.append(sys.argv[1])
def square(x):
    return x * x
out = []
thread = threading.Thread(target=out.append, args=("thread",))
thread.start(); thread.join()
with multiprocessing.Pool(2) as pool:
    out.append(sum(pool.map(square, range(10))))
queue = multiprocessing.Queue(); queue.put("queue"); out.append(queue.get())
out.append(subprocess.run(["/bin/echo", "child"], capture_output=True, text=True).stdout.strip())
import fcntl, os
reader, writer = os.pipe()  # the fcntl commands honest code uses pass: a pipe's size, a dup
out.append(fcntl.fcntl(reader, fcntl.F_GETPIPE_SZ if hasattr(fcntl, "F_GETPIPE_SZ") else 1032)
           > 0 and fcntl.fcntl(reader, fcntl.F_DUPFD_CLOEXEC, 0) > 0)
if len(sys.argv) > 1:
    import numpy
    out.append(float(numpy.linalg.inv(numpy.eye(3) * 2).sum()))
print(out)
'''


@pytest.fixture(scope="module")
def program() -> bytes:
    found = syscall_filter.status(PYTHON)
    if not found.active:
        pytest.skip(f"no system-call filter on this machine: {found.reason}")
    assert found.program is not None
    return found.program


def filtered(program: bytes | None, *words: str) -> subprocess.CompletedProcess[str]:
    command = [*syscall_filter.loader_words(PYTHON, program), PYTHON, "-I", "-S", *words]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, cwd="/")


@pytest.mark.skipif(NUMBERS is None, reason="system call numbers known for x86_64 and aarch64")
def test_the_filter_refuses_what_makes_kernel_objects(program: bytes) -> None:
    assert NUMBERS is not None
    done = filtered(program, "-c", TRIES, json.dumps(NUMBERS))
    found = json.loads(done.stdout)
    refused = {call: code for call, code in found.items() if call != "clone3"}
    assert set(refused.values()) == {1}, found  # EPERM, every one
    assert found["clone3"] == 38  # ENOSYS: the C library falls back to clone
    unfiltered = json.loads(filtered(None, "-c", TRIES, json.dumps(NUMBERS)).stdout)
    # The control: without the filter these work here (io_uring is on, user namespaces too).
    assert [call for call, code in unfiltered.items() if code == 0], unfiltered


@pytest.mark.skipif(platform.machine() != "x86_64", reason="the x32 ABI exists on x86_64 only")
def test_a_call_of_another_abi_kills_the_process(program: bytes) -> None:
    x32_add_key = "0x40000000 | 248"
    done = filtered(program, "-c", f"import ctypes; ctypes.CDLL(None).syscall({x32_add_key}, 0)")
    assert done.returncode == -signal.SIGSYS


def test_honest_work_runs_under_the_filter(program: bytes) -> None:
    numpy = installed_folder(PYTHON, ["numpy"])
    done = filtered(program, "-c", HONEST, *([str(numpy)] if numpy else []))
    assert done.returncode == 0, done.stderr[-2000:]
    expected = ["thread", 285, "queue", "child", True] + ([1.5] if numpy else [])
    assert done.stdout.strip() == repr(expected)


def test_without_libseccomp_the_results_say_which_bound_holds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(syscall_filter, "_bindings", lambda: None)
    found = syscall_filter.status.__wrapped__(PYTHON)
    assert not found.active
    assert "libseccomp" in found.reason
    assert found.describe().startswith("no system-call filter (libseccomp")
    assert "keyrings and IPC objects are removed after every case" in found.describe()
    monkeypatch.setenv(syscall_filter.OFF_ENV, "1")
    assert syscall_filter.OFF_ENV in syscall_filter.status.__wrapped__(PYTHON).reason


def test_the_loader_fails_closed_when_the_kernel_refuses_the_filter() -> None:
    done = filtered(b"\0" * 8, "-c", "print('ran')")  # one instruction, not a valid program
    assert done.returncode == syscall_filter.LOADER_FAILED
    assert "could not be installed" in done.stderr and "ran" not in done.stdout


FILE_KEYS = r'''
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
add_key, keyctl = int(sys.argv[1]), int(sys.argv[2])
persistent = libc.syscall(keyctl, 22, ctypes.c_long(-1), ctypes.c_long(-2))
for ring in (-4, -5, persistent):
    assert libc.syscall(add_key, b"user", b"gg-keyrings-test", b"answer", 6,
                        ctypes.c_long(ring)) >= 0
'''


@pytest.mark.skipif(os.geteuid() != 0 or keyrings.keyctl_number() is None or NUMBERS is None,
                    reason="needs root, and keyctl's number on this architecture")
def test_emptying_a_users_keyrings_removes_every_key_a_case_filed(tmp_path: Path) -> None:
    from harness.sandbox.users import lease_user, pool
    if not pool():
        pytest.skip("no sandbox user")
    assert NUMBERS is not None
    lease = lease_user(pool())
    try:
        entry = pwd.getpwuid(lease.uid)
        subprocess.run([PYTHON, "-I", "-S", "-c", FILE_KEYS, str(NUMBERS["add_key"]),
                        str(keyrings.keyctl_number())], user=lease.uid, group=entry.pw_gid,
                       extra_groups=[], check=True, cwd="/")
        found = keyrings.user_keys(lease.uid, entry.pw_gid, PYTHON)
        assert {ring for ring, keys in found.items()
                if any("gg-keyrings-test" in key for key in keys)} == \
            {"user", "user-session", "persistent"}
        assert keyrings.clear_user_keyrings(lease.uid, entry.pw_gid, PYTHON) >= 3
        assert not any(keyrings.user_keys(lease.uid, entry.pw_gid, PYTHON).values())
    finally:
        lease.release()


def test_debians_bindings_build_the_same_filter(monkeypatch: pytest.MonkeyPatch,
                                                program: bytes) -> None:
    monkeypatch.setitem(sys.modules, "pyseccomp", None)  # import pyseccomp now fails
    monkeypatch.delitem(sys.modules, "seccomp", raising=False)
    before = list(sys.path)
    found = syscall_filter._bindings()
    assert sys.path == before  # Debian's folder was on it for that import only
    if found is None:
        pytest.skip("Debian's python3-seccomp is not installed")
    assert found.__name__ == "seccomp"
    assert syscall_filter.build_program() == program


def test_extra_refusals_are_added_once(program: bytes) -> None:
    """A bound of the launch may ask for more (memfd_create where no memory group counts what
    it holds); what the filter refuses already is not added twice."""
    extra = (("memfd_create", None), ("unshare", (0, 0x10000000)), ("clone", (0, 0x10000000)),
             ("clone3", None))
    assert syscall_filter.build_program(extra[1:]) == program
    more = syscall_filter.build_program(extra)
    assert more != program
    check = "import ctypes, os; print(ctypes.CDLL(None, use_errno=True).memfd_create(b'x', 0))"
    assert filtered(program, "-c", check).stdout.strip() != "-1"
    assert filtered(more, "-c", check).stdout.strip() == "-1"
