"""Sandbox users are leased host-wide: one lock per user, held for the sandbox's lifetime.

The lease logic is tested on users every Linux system has (root, nobody, daemon) in a lock folder
of the test's own, so it never touches the real pool; processes on both sides are real.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest

from harness.sandbox import users

pytestmark = pytest.mark.slow

NAMES = ["root", "nobody", "daemon"]

HOLDER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from harness.sandbox.users import lease_user
    lease = lease_user([sys.argv[2]], folder=Path(sys.argv[1]), wait_seconds=5)
    print(lease.name, flush=True)
    time.sleep(60)
""")


@pytest.fixture
def holder(tmp_path):
    """Start another process that leases one user of the folder and keeps it until killed."""
    started = []

    def start(name: str) -> subprocess.Popen[str]:
        process = subprocess.Popen([sys.executable, "-c", HOLDER, str(tmp_path), name],
                                   stdout=subprocess.PIPE, text=True)
        started.append(process)
        assert process.stdout is not None and process.stdout.readline().strip() == name
        return process

    yield start
    for process in started:
        process.kill()
        process.wait()


def test_leases_in_one_process_are_distinct_and_come_back(tmp_path):
    first = users.lease_user(NAMES, folder=tmp_path)
    second = users.lease_user(NAMES, folder=tmp_path)
    assert (first.name, second.name) == ("root", "nobody")
    first.release()
    again = users.lease_user(NAMES[:2], folder=tmp_path, wait_seconds=0)
    assert again.name == "root"
    for lease in (second, again):
        lease.release()


def test_a_user_leased_by_another_process_is_skipped(tmp_path, holder):
    holder("root")
    lease = users.lease_user(NAMES, folder=tmp_path)
    assert lease.name == "nobody"
    lease.release()


def test_a_lease_dies_with_its_process(tmp_path, holder):
    process = holder("root")
    with pytest.raises(users.NoFreeUser):
        users.lease_user(["root"], folder=tmp_path, wait_seconds=0)
    process.send_signal(signal.SIGKILL)
    process.wait()
    lease = users.lease_user(["root"], folder=tmp_path, wait_seconds=5)
    assert lease.name == "root"
    lease.release()


def test_when_every_user_is_busy_it_waits_then_says_why(tmp_path, holder):
    holder("root")
    told: list[str] = []
    with pytest.raises(users.NoFreeUser) as error:
        users.lease_user(["root"], folder=tmp_path, wait_seconds=0.5, on_wait=told.append)
    assert told and "waiting up to 0.5 s" in told[0]
    assert "root" in str(error.value) and "scripts/sandbox_users.sh" in str(error.value)


def test_a_lock_folder_others_can_write_in_is_refused(tmp_path):
    os.chmod(tmp_path, 0o777)
    with pytest.raises(PermissionError, match="writable by root only"):
        users.lease_user(NAMES, folder=tmp_path)


def test_the_pool_lists_existing_users_only(monkeypatch):
    assert users.pool("root", 3) == ["root"]
    assert users.pool("no-such-user-here", 3) == []


def test_a_forced_user_is_used_as_it_is_and_a_sandbox_leases_otherwise(tmp_path, monkeypatch):
    """GAMEGRADER_SANDBOX_USER names the one user (no lease); without it, a Sandbox at a
    dedicated-user level holds the lock of the pool user it runs as until it closes."""
    import pwd
    from pathlib import Path

    from harness.sandbox import Sandbox
    from harness.sandbox.levels import detect
    script = tmp_path / "s.py"
    script.write_text("X = 1\n")
    option = detect.__wrapped__()
    if not option.dedicated_user:
        pytest.skip("needs root and the sandbox users (setup.sh)")
    # The user the levels were probed with (a leased pool user: not always the first one when
    # another grading holds that one).
    forced = pwd.getpwuid(option.uid).pw_name
    monkeypatch.setenv(users.SANDBOX_USER_ENV, forced)
    with Sandbox("s", {"s.py": Path(script)}, isolation=option) as box:
        assert box.isolation.uid == pwd.getpwnam(forced).pw_uid and box._lease is None
    monkeypatch.delenv(users.SANDBOX_USER_ENV)
    with Sandbox("s", {"s.py": Path(script)}, isolation=option) as box:
        lease = box._lease
        assert lease is not None and box.isolation.uid == lease.uid
        with pytest.raises(users.NoFreeUser):  # the lock is really held meanwhile
            users.lease_user([lease.name], wait_seconds=0)
    assert box._lease is None  # released at close (another grading may take it at once)


def _killed(process: subprocess.Popen) -> bool:
    """Whether ``process`` (a ``sleep 300``, which never ends by itself here) was killed, whoever
    reaped it. Once any sandbox without a pid namespace has run in this test process, the
    process is a child subreaper, and the sweep rightly reaps a child of the pool user it did
    not start as an orphan; ``Popen.wait`` then finds no child to wait for and reports 0, not
    -SIGKILL (which tests ran earlier on this worker decides, so it failed only now and then)."""
    try:
        returncode = process.wait(timeout=5)  # the kill is sent before the sandbox is returned
    except subprocess.TimeoutExpired:
        return False
    return returncode in (-signal.SIGKILL, 0)


def test_leasing_a_user_kills_what_an_earlier_holder_left_running(tmp_path, monkeypatch):
    """A grader killed at its deadline (a batch job, a tournament game) cannot sweep its
    students' processes; without a pid namespace they run on as the pool user. The next
    Sandbox to lease that user kills them, tagged or not, before any student code of its own
    runs, and its own close kills every process of the user again."""
    import pwd
    from pathlib import Path

    from harness.sandbox import Sandbox, session
    from harness.sandbox.levels import detect
    option = detect.__wrapped__()
    if not option.dedicated_user:
        pytest.skip("needs root and the sandbox users (setup.sh)")
    monkeypatch.delenv(users.SANDBOX_USER_ENV, raising=False)
    lease = users.lease_user(users.pool())  # a pool user nobody else is using now
    entry = pwd.getpwnam(lease.name)
    leftover = subprocess.Popen(  # untagged, in a session of its own, as a dead grader leaves it
        ["sleep", "300"], user=entry.pw_uid, group=entry.pw_gid, extra_groups=[],
        start_new_session=True, env={})
    lease.release()
    monkeypatch.setattr(session, "pool", lambda: [lease.name])  # the next lease takes it
    script = tmp_path / "s.py"
    script.write_text("X = 1\n")
    late = None
    try:
        with Sandbox("s", {"s.py": Path(script)}, isolation=option) as box:
            assert box.isolation.uid == entry.pw_uid
            assert _killed(leftover)
            late = subprocess.Popen(["sleep", "300"], user=entry.pw_uid, group=entry.pw_gid,
                                    extra_groups=[], start_new_session=True, env={})
        assert _killed(late)  # the sandbox's close swept it
    finally:
        for process in (leftover, late):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait()
