"""A process's children and adopted orphans (``harness.sandbox.cleanup``): found through the
kernel's lists, and a process is a child subreaper only while a sandbox of it needs one, reaping
what it adopted (real processes, so the full tier)."""
from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest
from gg_testing import ROOT

from harness.sandbox import cleanup

pytestmark = pytest.mark.slow


def test_a_process_s_children_come_from_the_kernel_s_lists_as_a_scan_would_find_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # children started from two threads: the kernel lists each under the thread that forked it
    started: list[subprocess.Popen[bytes]] = []

    def start() -> None:
        started.append(subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"]))

    try:
        start()
        helper = threading.Thread(target=start)
        helper.start()
        helper.join()
        listed = cleanup.kernel_children(os.getpid())
        if listed is None:
            pytest.skip("this kernel keeps no per-thread children lists")
        monkeypatch.setattr(cleanup, "kernel_children", lambda parent: None)
        scanned = cleanup._children(os.getpid())
        ours = {p.pid for p in started}
        assert ours <= set(listed) and ours <= set(scanned)
        assert cleanup._children(started[0].pid) == []
    finally:
        for process in started:
            process.kill()
            process.wait()
    monkeypatch.undo()
    assert cleanup.kernel_children(started[0].pid) == []  # gone


SUBREAPER_SCRIPT = r"""
import ctypes, os, sys, time
from harness.sandbox import cleanup

def subreaper():
    value = ctypes.c_int(0)
    ctypes.CDLL(None).prctl(37, ctypes.byref(value), 0, 0, 0)  # PR_GET_CHILD_SUBREAPER
    return value.value

def orphan_of_another_user():
    # a child (as nobody) whose own child outlives it: that grandchild is adopted by us
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:
        os.setgid(65534); os.setuid(65534)
        if os.fork() == 0:
            os.write(writer, str(os.getpid()).encode())
            time.sleep(0.3)
            os._exit(0)
        os._exit(0)
    os.waitpid(child, 0)
    return int(os.read(reader, 32))

cleanup.become_subreaper()
cleanup.become_subreaper()  # two sandboxes of this process need it
orphan = orphan_of_another_user()
deadline = time.monotonic() + 10
while (cleanup._stat(orphan) or ("Z", 0))[0] != "Z" and time.monotonic() < deadline:
    time.sleep(0.02)
adopted = (cleanup._stat(orphan) or ("", 0))[1] == os.getpid()
cleanup.leave_subreaper()
still = subreaper()
cleanup.leave_subreaper()
print(adopted, still, subreaper(), cleanup._stat(orphan))
"""


def test_a_process_is_a_subreaper_only_while_a_sandbox_needs_it_and_reaps_what_it_adopted(
        ) -> None:
    """A process that stayed a subreaper (a test worker, a tournament) adopted the orphans of
    every later grading it started and never reaped them: each zombie counted against its
    sandbox user's process limit, until a later grading's zygote could not fork."""
    if os.geteuid() != 0:
        pytest.skip("a child of another user needs root")
    done = subprocess.run([sys.executable, "-c", SUBREAPER_SCRIPT], capture_output=True,
                          text=True, timeout=60, cwd=str(ROOT))
    assert done.returncode == 0, done.stderr
    # adopted while needed; still one after the first sandbox left; none after the last, and
    # the adopted zombie was reaped then (its pid is gone)
    assert done.stdout.split() == ["True", "1", "0", "None"], done.stdout
