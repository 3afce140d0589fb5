"""Warm processes (``harness.parallel.warm``): every job runs in a fresh process forked from a warm
one, gets the warm-up's state but nothing a previous job changed, hands back its value or says
how it failed, and is killed (with its process group, when asked) after its deadline.

The functions below are sent to the warm processes by reference, so they live at module level.
"""
from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Iterator, Optional

import pytest

from harness.parallel.warm import JobEnd, WarmPool
from harness.sandbox.cleanup import status_field

pytestmark = pytest.mark.slow

WARMED = False
COUNTER = [0]


def mark_warm() -> None:
    global WARMED
    WARMED = True


def mark_warm_and_start_a_thread() -> None:
    mark_warm()
    threading.Thread(target=threading.Event().wait, daemon=True).start()


def who_am_i() -> tuple[int, int, bool, int]:
    """This process, its parent, whether the warm-up ran here, and a counter bumped here."""
    COUNTER[0] += 1
    return os.getpid(), os.getppid(), WARMED, COUNTER[0]


def fail() -> None:
    raise ValueError("no such move")


def die() -> None:
    os._exit(3)


def start_sleeper(pid_file: str, then_hang: bool) -> int:
    """Start ``sleep`` in this job's process group, note its pid, then hang or return it."""
    sleeper = subprocess.Popen(["sleep", "600"])
    Path(pid_file).write_text(str(sleeper.pid))
    if then_hang:
        threading.Event().wait()
    return sleeper.pid


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


def _gone_within(pid: int, seconds: float = 30.0) -> bool:
    deadline = time.monotonic() + seconds
    while _running(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not _running(pid)


def _wait_for(path: Path, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert path.exists(), f"{path.name} never appeared"


@pytest.fixture
def pool() -> Iterator[WarmPool]:
    warm_pool = WarmPool()
    yield warm_pool
    warm_pool.close()


def test_each_job_is_a_fresh_child_of_one_warm_process_that_ran_the_warm_up(pool):
    first = pool.call(who_am_i, (), 60, warm=(mark_warm, ()))
    second = pool.call(who_am_i, (), 60, warm=(mark_warm, ()))
    assert first.status == second.status == 0 and not first.error
    (pid1, parent1, warmed1, count1), (pid2, parent2, warmed2, count2) = \
        first.value, second.value
    assert os.getpid() not in (pid1, pid2) and pid1 != pid2
    assert parent1 == parent2  # the same warm process forked both
    assert warmed1 and warmed2  # the warm-up's state reached the children
    assert count1 == count2 == 1  # what the first job changed did not reach the second


def test_a_warm_process_holding_a_thread_runs_the_job_in_a_fresh_interpreter(pool):
    outcome = pool.call(who_am_i, (), 60, warm=(mark_warm_and_start_a_thread, ()))
    assert outcome.status == 0, outcome.error
    _, _, warmed, _ = outcome.value
    assert not warmed  # not forked from the warm process: its state is not there


def test_an_exception_and_a_dying_job_come_back_as_errors(pool):
    raised = pool.call(fail, (), 60)
    assert raised.value is None and "ValueError: no such move" in raised.error
    died = pool.call(die, (), 60)
    assert died.status == 3 and died.value is None and "status 3" in died.error
    assert pool.call(who_am_i, (), 60).status == 0  # the warm process is still in service


@pytest.mark.parametrize("own_group", [True, False])
def test_an_overrunning_job_is_killed_and_with_its_group_when_it_has_one(pool, tmp_path,
                                                                          own_group):
    pid_file = tmp_path / "sleeper"
    outcome = pool.call(start_sleeper, (str(pid_file), True), 2.0, own_group=own_group)
    assert outcome.status is None and outcome.value is None and "killed" in outcome.error
    sleeper = int(pid_file.read_text())
    try:  # without a group of its own only the job is killed: Ctrl-C reaches the rest
        assert _gone_within(sleeper) if own_group else _running(sleeper)
    finally:
        _kill(sleeper)
    assert pool.call(who_am_i, (), 60).status == 0  # the warm process is still in service


def test_what_a_job_with_its_own_group_leaves_running_is_killed_when_it_returns(pool, tmp_path):
    outcome = pool.call(start_sleeper, (str(tmp_path / "sleeper"), False), 60, own_group=True)
    assert outcome.status == 0, outcome.error
    assert _gone_within(outcome.value)


def _kill(pid: Optional[int]) -> None:
    if pid is not None and _running(pid):
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


LEAKER = """
import os, time
pid = os.fork()
if pid == 0:  # a session of its own, no parent-death signal: the killed job cannot sweep it
    os.setsid()
    time.sleep(600)
    os._exit(0)
print(pid, flush=True)
time.sleep(600)
"""


def leave_a_student_process_then_hang(script: str, pid_file: str) -> None:
    """Open a sandbox whose program leaves a process in a session of its own, then hang."""
    from harness.sandbox import Sandbox
    with Sandbox("leaker", {"leaker.py": Path(script)}) as box, box.start_program() as program:
        Path(pid_file).write_text(program.read_line(30) or "")
        threading.Event().wait()


def _user_level_env() -> Optional[dict[str, str]]:
    """This environment forced to the USER level (no pid namespace), or None without it."""
    from harness.sandbox.levels import FORCE_ENV, SANDBOX_USER_ENV, detect
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(FORCE_ENV, "USER")
        patch.delenv(SANDBOX_USER_ENV, raising=False)
        try:
            if not detect.__wrapped__().dedicated_user:
                return None
        except RuntimeError:
            return None
    env = {**os.environ, FORCE_ENV: "USER"}
    env.pop(SANDBOX_USER_ENV, None)
    return env


def test_what_the_students_of_a_killed_job_left_running_is_killed_with_it(pool, tmp_path):
    """A batch grading or tournament game killed at its deadline never closes its sandboxes:
    at the USER level (no pid namespace) a student process in a session of its own ran on as
    the pool user until another job leased that user. The pool sweeps the free users at once."""
    env = _user_level_env()
    if env is None:
        pytest.skip("needs the USER level (root and the sandbox users)")
    script, pid_file = tmp_path / "leaker.py", tmp_path / "leftover"
    script.write_text(LEAKER)
    outcome = pool.call(leave_a_student_process_then_hang, (str(script), str(pid_file)), 8.0,
                        own_group=True, env=env)
    assert outcome.status is None, outcome.error
    leftover = int(pid_file.read_text())
    try:
        assert _gone_within(leftover, 5.0)
    finally:
        _kill(leftover)


def note_then_sleep(note: str, seconds: float) -> float:
    """Write ``note`` (the job has started), then sleep ``seconds`` and return them."""
    Path(note).write_text("started")
    time.sleep(seconds)
    return seconds


def test_the_kill_after_an_interrupt_spares_the_next_job_of_the_same_warm_process(pool,
                                                                                  tmp_path):
    """An interrupted job that ends in time is not killed later, nor is the job its warm
    process runs next (a dask worker's next batch within the grace: a loaded run's re-run lost
    a grading that way, its warm process killed by the earlier run's timer)."""
    note = tmp_path / "started"
    outcomes = []
    first = threading.Thread(target=lambda: outcomes.append(
        pool.call(note_then_sleep, (str(note), 60.0), 120)))
    first.start()
    _wait_for(note)
    pool.interrupt(grace=1.0)
    first.join(60)
    assert outcomes and outcomes[0].interrupted and outcomes[0].value is None
    second = pool.call(note_then_sleep, (str(tmp_path / "again"), 3.0), 60)
    assert second.status == 0 and second.value == 3.0 and not second.interrupted, second


def note_sleep_and_start_a_thread(note: str, seconds: float) -> None:
    """A warm-up that leaves a thread running: the job then runs in a fresh interpreter."""
    note_then_sleep(note, seconds)
    threading.Thread(target=threading.Event().wait, daemon=True).start()


@pytest.mark.parametrize("warm_up", [note_then_sleep, note_sleep_and_start_a_thread])
def test_an_interrupt_that_comes_while_a_job_is_only_starting_stops_it(pool, tmp_path, warm_up):
    """An interrupt that comes before the job's child exists (here: during the warm-up; on a
    loaded host, any start takes a while) is held for it and reaches it; before, the warm
    process found no child to pass it to and the job ran to its end (a batch's Ctrl-C then
    waited for a whole grading, and kept it). Also when the job runs in a fresh interpreter."""
    warming = tmp_path / "warming"
    outcomes = []
    started = time.monotonic()
    job = threading.Thread(target=lambda: outcomes.append(pool.call(
        note_then_sleep, (str(tmp_path / "job"), 30.0), 120,
        warm=(warm_up, (str(warming), 1.5)))))
    job.start()
    _wait_for(warming)
    pool.interrupt(grace=60.0)
    job.join(60)
    assert outcomes and outcomes[0].interrupted, outcomes
    assert outcomes[0].value is None and "Interrupted" in outcomes[0].error, outcomes[0]
    assert time.monotonic() - started < 20  # not the job's 30 s


def masks() -> tuple[int, str, str]:
    """This process's parent and the SigBlk and SigIgn lines of its own /proc status."""
    return os.getppid(), *_masks(os.getpid())


def _masks(pid: int) -> tuple[str, str]:
    blocked, ignored = status_field(pid, "SigBlk"), status_field(pid, "SigIgn")
    assert blocked is not None and ignored is not None, f"no process {pid}"
    return blocked, ignored


def _has(mask: str, signum: int) -> bool:
    return bool(int(mask, 16) >> (signum - 1) & 1)


def test_a_warm_process_holds_ctrl_c_blocked_and_its_jobs_take_it(pool):
    """A Ctrl-C that reaches a job's child between the fork and its handlers must wait for
    them, so the warm process blocks SIGINT and SIGTERM (an ignored signal is lost at once,
    even to a child that would heed it a moment later); the job runs with both unblocked."""
    outcome = pool.call(masks, (), 60)
    warm_pid, job_blocked, job_ignored = outcome.value
    warm_blocked, warm_ignored = _masks(warm_pid)
    for signum in (signal.SIGINT, signal.SIGTERM):
        assert _has(warm_blocked, signum) and not _has(warm_ignored, signum)
        assert not _has(job_blocked, signum) and not _has(job_ignored, signum)


def prepare_then_sleep(pool: WarmPool, note: str, job: int) -> JobEnd:
    """A run's job whose thread takes a second to prepare (a batch unpacks the submission)
    before its warm process is asked to run it."""
    time.sleep(1.0)
    return pool.call(note_then_sleep, (note, 30.0), 120)


def test_a_run_stopped_while_a_thread_prepares_its_job_stops_that_job_too(pool, tmp_path):
    """Ctrl-C while a job's thread had taken it but not yet handed it to a warm process: the
    first ``stop()`` found nothing to stop, and the job ran to its end (30 s here) and was kept
    as finished. ``run_local`` asks again until its jobs have returned."""
    from harness.parallel.executors import run_local

    results: list[JobEnd] = []
    main = threading.main_thread().ident
    assert main is not None and threading.current_thread().ident == main
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    ctrl_c = threading.Timer(0.3, signal.pthread_kill, (main, signal.SIGINT))
    started = time.monotonic()
    try:
        ctrl_c.start()
        with pytest.raises(KeyboardInterrupt):
            run_local([0], 1, results.append,
                      work=lambda job: prepare_then_sleep(pool, str(tmp_path / "job"), job),
                      stop=lambda: pool.interrupt(60.0))
    finally:
        ctrl_c.cancel()
        signal.signal(signal.SIGINT, before)
    assert len(results) == 1 and results[0].interrupted, results
    assert results[0].value is None, results
    assert time.monotonic() - started < 20  # not the job's 30 s
