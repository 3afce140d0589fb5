"""The sandbox on real processes, at every isolation level this machine offers."""
from __future__ import annotations

import json
import os
import pwd
import re
import shutil
import signal
import socket
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest
from gg_testing import shared_folder

from harness.compare import observations_from_reply
from harness.sandbox import Isolation, Level, Sandbox, execution, forkserver
from harness.sandbox.cleanup import kernel_children, namespace_init, terminate
from harness.sandbox.forkserver import ForkedProgram
from harness.sandbox.levels import _works, candidates
from harness.sandbox.session import NO_ZYGOTE_ENV

# The USER level kills leftovers by uid, which would kill other tests' student processes running
# in parallel under the shared sandbox user; it is tested under a user of its own, when present.
SOLO_USER = "gg-student-solo"


def _levels() -> list:
    levels = []
    for option in candidates():
        if option.level is Level.USER:
            continue
        if option.level not in [o.level for o in levels] and (
                (option.level is Level.PROCESS and not option.own_user) or _works(option)):
            levels.append(option)
    try:
        solo = pwd.getpwnam(SOLO_USER)
    except KeyError:
        return levels
    for python in ("/usr/bin/python3", sys.executable):
        option = Isolation(Level.USER, python, (), solo.pw_uid, solo.pw_gid, switch_user=True,
                           sweep_uid=True)
        if _works(option):
            return [*levels, option]
    return levels


LEVELS = _levels()
# One xdist worker runs this whole module, so the uid sweep never meets another test's processes.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("sandbox-levels")]

STUDENT = '''
import os, signal, sys, time
print("printed at import")

def add(a, b):
    return a + b

def ignore_signals():
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGALRM):
        signal.signal(sig, signal.SIG_IGN)

def ignore_signals_and_spin():
    ignore_signals()
    while True:
        pass

def ignore_signals_and_sleep():
    ignore_signals()
    while True:
        time.sleep(1)

def orphan_writer(path, escape):
    if os.fork() == 0:
        if escape:
            os.setsid()
            if os.fork():
                os._exit(0)
        while True:  # a heartbeat: one byte every 20 ms for as long as it lives
            with open(path, "a") as f:
                f.write(".")
            time.sleep(0.02)
    deadline = time.monotonic() + 10
    while not os.path.exists(path) and time.monotonic() < deadline:
        time.sleep(0.01)
    return "forked" if os.path.exists(path) else "never started"

def flood():
    chunk = "x" * 65536
    for _ in range(800):
        sys.stdout.write(chunk)
        os.write(1, chunk.encode())
    return "done"

def eat_memory():
    blocks = []
    while True:
        blocks.append(bytearray(50 * 1024 * 1024))

def read_input():
    return input()

def take_a_descriptor_of_the_parent():
    """What a case forked from the zygote gets when it asks the kernel for the zygote's
    descriptors (pidfd_getfd), as an attack on the zygote's control socket would."""
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    pidfd = os.pidfd_open(os.getppid())
    taken = [libc.syscall(438, pidfd, fd, 0) for fd in range(3, 12)]
    return [fd for fd in taken if fd >= 0], ctypes.get_errno()

def dumpable():
    import ctypes
    return ctypes.CDLL(None).prctl(3, 0, 0, 0, 0)  # PR_GET_DUMPABLE
'''


@pytest.fixture(params=LEVELS, ids=[option.level.name for option in LEVELS])
def sandbox(request, tmp_path):
    source = tmp_path / "student.py"
    source.write_text(STUDENT)
    box = Sandbox("student", {"student.py": source}, isolation=request.param)
    yield box
    box.close()


def test_examples_return_values_and_captured_output(sandbox):
    raw = sandbox.run_examples(["add(1, 2)", "add((1,), (2,))"], timeout=5)
    first, second = observations_from_reply(raw.reply.observations)
    assert first.value == 3
    assert second.value == (1, 2) and type(second.value) is tuple
    assert "printed at import" in raw.output


def test_signal_ignoring_loop_is_killed_at_the_deadline(sandbox):
    started = time.monotonic()
    raw = sandbox.run_examples(["ignore_signals_and_spin()"], timeout=1)
    assert raw.timed_out and raw.reply is None
    assert time.monotonic() - started < 5


def test_a_timed_out_case_s_time_ends_at_its_deadline_not_after_the_cleanup(sandbox,
                                                                              monkeypatch):
    """The time shown for a case is the student's: a slow kill (a loaded machine tearing down a
    namespace) is the grader's time, charged to the run's budget but not to the case."""
    real_terminate = terminate

    def slow_terminate(*args, **kwargs):
        time.sleep(3)
        real_terminate(*args, **kwargs)

    for module in (forkserver, execution):
        monkeypatch.setattr(module, "terminate", slow_terminate)
    started = time.monotonic()
    # A sleeper, not a spinner: it outlives its deadline all the same, without burning a CPU
    # for the slow kill's 3 s on each level.
    raw = sandbox.run_examples(["ignore_signals_and_sleep()"], timeout=0.5)
    assert raw.timed_out and time.monotonic() - started >= 3  # the kill was slow
    assert raw.seconds < 0.5 + 1.5, raw.seconds


def child_survived(sandbox, escape: bool) -> bool:
    """Start a child that beats every 20 ms (the case returns once it has beaten); report whether
    it still beats after the case ended. Killing is part of the case's end, so a beat later than
    a short grace (the kernel's, LATE) means it survived."""
    folder = shared_folder()
    marker = folder / "mark"
    try:
        raw = sandbox.run_examples([f"orphan_writer({str(marker)!r}, {escape})"], timeout=15)
        assert observations_from_reply(raw.reply.observations)[0].value == "forked", raw.output
        time.sleep(LATE)
        beats = marker.stat().st_size
        time.sleep(0.5)
        return marker.stat().st_size != beats
    finally:
        shutil.rmtree(folder)


LATE = 0.3
"""Seconds after a case's end within which the kernel may still be killing what it started."""


def test_children_in_the_process_group_die_with_the_case(sandbox):
    assert not child_survived(sandbox, escape=False)


def test_double_forked_orphans_die_with_the_case(sandbox):
    """A setsid, double-forked orphan leaves the process group: a pid namespace kills it, and
    without one the grader (a child subreaper) adopts it and kills it."""
    assert not child_survived(sandbox, escape=True)


def test_output_flood_is_capped(sandbox):
    raw = sandbox.run_examples(["flood()"], timeout=20)
    observation = observations_from_reply(raw.reply.observations)[0]
    assert observation.value == "done"
    assert len(raw.output) < 20_000 and "more bytes of output not kept" in raw.output
    assert "more characters not kept" in observation.stdout


def test_memory_bomb_raises_memory_error_inside_the_limit(sandbox):
    raw = sandbox.run_examples(["eat_memory()"], timeout=30)
    assert raw.reply is not None, (raw.timed_out, raw.exit_status, raw.output)
    assert raw.reply.observations[0].error.type == "MemoryError"


def test_set_user_id_programs_give_student_code_no_new_privileges(sandbox):
    if shutil.which("setpriv") is None:
        pytest.skip("setpriv (util-linux) is not installed: no_new_privs cannot be set")
    raw = sandbox.run_examples(["[line.split()[1] for line in open('/proc/self/status') "
                                "if line.startswith('NoNewPrivs:')]"], timeout=5)
    assert observations_from_reply(raw.reply.observations)[0].value == ["1"]


def test_stdin_is_closed_unless_the_case_supplies_input(sandbox):
    raw = sandbox.run_examples(["read_input()"], timeout=5)
    assert raw.reply.observations[0].error.type == "EOFError"
    raw = sandbox.run_examples(["read_input()"], timeout=5, stdin="3\n")
    assert observations_from_reply(raw.reply.observations)[0].value == "3"


def test_call_server_answers_then_dies_on_timeout(sandbox):
    with sandbox.start_server() as server:
        assert server.import_error == ""
        result = server.call("add", [(1, 2), (3,)], timeout=5)
        assert result.ok and result.value == (1, 2, 3)
        assert server.call("ignore_signals_and_spin", [], timeout=0.5).timed_out
        assert server.call("add", [1, 2], timeout=5).crashed


def test_closing_a_call_server_twice_leaves_a_reused_descriptor_alone(sandbox):
    """A call that times out closes the server, and its runner closes it again: the second
    close once closed the replies pipe's number a second time, by then another pipe's (a
    later server's calls pipe in a grading: "Bad file descriptor")."""
    server = sandbox.start_server()
    replies = server._replies_fd
    assert server.call("ignore_signals_and_spin", [], timeout=0.5).timed_out  # closes it
    opened = []
    while not any(replies in pair for pair in opened) and len(opened) < 64:
        opened.append(os.pipe())  # the lowest free number first: soon the replies' old one
    try:
        server.close()
        for pair in opened:
            for fd in pair:
                os.fstat(fd)  # still open
    finally:
        for pair in opened:
            for fd in pair:
                try:
                    os.close(fd)
                except OSError:
                    pass


def test_program_speaks_a_line_protocol(tmp_path):
    script = tmp_path / "echo.py"
    script.write_text("import sys\nprint('NAME')\nfor line in sys.stdin:\n"
                      "    print(line.strip().upper())\n")
    with Sandbox("echo", {"echo.py": script}) as box:
        with box.start_program() as program:
            assert program.read_line(5) == "NAME"
            assert program.send_line("hello")
            assert program.read_line(5) == "HELLO"
            with pytest.raises(TimeoutError):
                program.read_line(0.3)
        assert program.returncode is not None


PROGRAM = """import atexit, os, sys, threading, time
print(__name__, sys.argv, os.path.basename(__file__), os.path.isabs(__file__),
      sys.path[0] == os.getcwd(), sorted(os.listdir('/tmp')))
open('/tmp/left-behind', 'w').close()
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        time.sleep(60)  # an orphan that outlives the program unless the sandbox kills it
    os._exit(0)
atexit.register(lambda: print('exit handler'))
line = input()
def late():
    time.sleep(0.1)
    print('thread ended')
threading.Thread(target=late).start()
if line == 'crash':
    raise ValueError('boom')
sys.exit(3)
"""


def _run_program(box, line):
    """A program's whole transcript: its stdout lines, exit status and stderr."""
    with box.start_program(args=["one", "two"]) as program:
        lines = [program.read_line(10)]
        program.send_line(line)
        while lines[-1] is not None:
            lines.append(program.read_line(10))
        status = program.process.wait(10)
        stderr = re.sub(r"/[^\s\"]*/(case-[-\d]+)/", "/FOLDER/", program.stderr_tail())
        return lines[:-1], status, stderr, program.process


@pytest.mark.parametrize("line", ["fine", "crash"])
def test_a_program_forked_from_the_zygote_runs_as_a_fresh_interpreter_would(
        tmp_path, monkeypatch, line):
    """Programs are forked from a lane's zygote where it is the first process of a pid
    namespace (milliseconds instead of tens): same output, status, exit handlers, threads and
    traceback as ``python -u SCRIPT ARGS``, and nothing it leaves (an orphan, a file in /tmp)
    reaches the next program."""
    script = tmp_path / "prog.py"
    script.write_text(PROGRAM)
    with Sandbox("prog", {"prog.py": script}) as box:
        box.run_examples(["1"], timeout=10)  # a case starts the zygote, as a grading's do
        forked = [_run_program(box, line) for _ in range(2)]
        zygote = box._lanes[0].zygote
        leftovers = kernel_children(namespace_init(zygote.process)) if zygote else None
        namespaced = box.isolation.has_pid_namespace
    monkeypatch.setenv(NO_ZYGOTE_ENV, "1")
    with Sandbox("prog", {"prog.py": script}) as box:
        fresh = _run_program(box, line)
    if namespaced:
        assert all(isinstance(run[3], ForkedProgram) for run in forked)
        assert leftovers == []  # the orphans are gone, the zygote lives on
    assert not isinstance(fresh[3], ForkedProgram)
    for run in forked:
        assert run[:3] == fresh[:3]
    lines, status, stderr, _ = fresh
    assert lines[0] == "__main__ ['prog.py', 'one', 'two'] prog.py True True []"
    assert lines[1:] == ["thread ended", "exit handler"]
    if line == "fine":
        assert (status, stderr) == (3, "")
    else:
        assert status == 1 and "ValueError: boom" in stderr and "worker" not in stderr


def test_a_program_that_ends_at_once_is_still_forked_and_signalled_only_through_its_pidfd(
        tmp_path, monkeypatch):
    """The zygote reaps a forked program itself, so its pid may belong to another process once
    it has ended: the child waits at a gate until the grader holds a pidfd on it, and a program
    reported ended is never signalled again."""
    script = tmp_path / "quick.py"
    script.write_text("import sys\nsys.exit(5)\n")
    with Sandbox("quick", {"quick.py": script}) as box:
        if not box.isolation.has_pid_namespace:
            pytest.skip("programs are forked only from a zygote with a pid namespace")
        box.run_examples(["1"], timeout=10)
        find_pid = forkserver._host_pid

        def slow_find_pid(*args):  # a loaded grader: the program would be long gone
            time.sleep(0.3)
            return find_pid(*args)

        monkeypatch.setattr(forkserver, "_host_pid", slow_find_pid)
        sent = []
        monkeypatch.setattr(signal, "pidfd_send_signal", lambda *args: sent.append(args))
        for _ in range(5):
            with box.start_program() as program:
                assert isinstance(program.process, ForkedProgram)
                assert program.process.wait(10) == 5
                sent.clear()
            assert sent == []  # closing an ended program sends nothing


def test_without_pidfds_programs_start_afresh_and_the_zygote_is_lost_once_at_most(
        tmp_path, monkeypatch):
    script = tmp_path / "echo.py"
    script.write_text("print(input().upper())\n")
    with Sandbox("echo", {"echo.py": script}) as box:
        if not box.isolation.has_pid_namespace:
            pytest.skip("programs are forked only from a zygote with a pid namespace")

        def no_pidfd(pid):
            raise OSError(38, "Function not implemented")  # an old kernel

        monkeypatch.setattr(os, "pidfd_open", no_pidfd)
        zygotes = []
        for _ in range(3):
            box.run_examples(["1"], timeout=10)
            zygotes.append(box._lanes[0].zygote.process.pid)
            with box.start_program() as program:
                assert not isinstance(program.process, ForkedProgram)
                assert program.send_line("hi") and program.read_line(10) == "HI"
        assert not box.fork_long_lived
        assert zygotes[1] == zygotes[2]  # replaced after the first failure only


SERVED = """import os, sys, time
print('printed at import')
def add(a, b):
    print('adding')
    return a + b
def leave_orphan():
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            time.sleep(60)
        os._exit(0)
    return sorted(os.listdir('/tmp'))
def spin():
    while True:
        pass
"""


def test_a_call_server_is_forked_from_the_zygote_as_programs_are(tmp_path, monkeypatch):
    """A call server forked from the zygote answers as a fresh one does, a timeout kills it
    alone (the next one is forked again), and what it leaves is gone when it is closed."""
    module = tmp_path / "served.py"
    module.write_text(SERVED)

    def serve(box):
        server = box.start_server()
        answers = [server.call("add", [1, 2], timeout=10), server.call("leave_orphan", [], 10)]
        spun = server.call("spin", [], timeout=0.5)
        server.close()
        return server.process, [(a.ok, a.value, a.stdout) for a in answers], spun

    with Sandbox("served", {"served.py": module}) as box:
        box.run_examples(["1"], timeout=10)  # a case starts the zygote, as a grading's do
        forked = [serve(box) for _ in range(2)]
        zygote = box._lanes[0].zygote
        leftovers = kernel_children(namespace_init(zygote.process)) if zygote else None
        namespaced = box.isolation.has_pid_namespace
    monkeypatch.setenv(NO_ZYGOTE_ENV, "1")
    with Sandbox("served", {"served.py": module}) as box:
        fresh = serve(box)
    assert fresh[1] == [(True, 3, "adding\n"), (True, [], "")] and fresh[2].timed_out
    for process, answers, spun in forked:
        assert answers == fresh[1] and spun.timed_out
        assert isinstance(process, ForkedProgram) == namespaced
    if namespaced:
        assert leftovers == []


def test_the_stderr_of_a_program_that_ended_is_read_to_its_end(tmp_path, monkeypatch):
    """What a crashing program wrote to stderr just before it exited (a traceback) is in the tail
    read as soon as its end of output is seen, even when the grader's stderr reader is slow (a
    loaded machine; simulated here by a reader that starts late)."""
    import harness.sandbox.programs as programs
    collect = programs._collect

    def late_collect(stream, sink):
        time.sleep(0.1)
        collect(stream, sink)

    monkeypatch.setattr(programs, "_collect", late_collect)
    script = tmp_path / "crash.py"
    script.write_text("import sys\nsys.stderr.write('late words')\nsys.exit(1)\n")
    with Sandbox("crash", {"crash.py": script}) as box:
        with box.start_program() as program:
            assert program.read_line(10) is None
            assert "late words" in program.stderr_tail()


def test_each_case_gets_fresh_files(tmp_path):
    source = tmp_path / "eraser.py"
    source.write_text("import os\ndef erase():\n    os.remove('eraser.py')\n    return 1\n")
    with Sandbox("eraser", {"eraser.py": source}) as box:
        assert box.run_examples(["erase()"], timeout=5).reply.observations[0].value == [1]
        assert box.run_examples(["erase()"], timeout=5).reply.observations[0].value == [1]
    assert Path(source).exists()


def _keep_the_zygote_s_end(monkeypatch) -> list:
    """Keep a second descriptor of each zygote's end of its control socket, as a case that got
    hold of it would have, to send the grader events the zygote never sent."""
    kept: list = []
    real = socket.socketpair

    def keeping(*args):
        ours, theirs = real(*args)
        kept.append(socket.socket(fileno=os.dup(theirs.fileno())))
        return ours, theirs

    monkeypatch.setattr(forkserver.socket, "socketpair", keeping)
    return kept


EXITED = json.dumps({"event": "exited", "status": 0}).encode()


def test_a_case_forked_from_the_zygote_cannot_take_its_descriptors(sandbox):
    """The zygote is not dumpable, so a case (its child, same user) cannot take the control
    socket with pidfd_getfd; the case itself is dumpable again, as a fresh process is. Where
    the case is root of a user namespace of its own (NAMESPACED under a grader that is not
    root), it could: the next tests' check of the events covers that level."""
    sandbox.run_examples(["1"], timeout=10)
    if sandbox._lanes[0].zygote is None:
        pytest.skip("cases run in fresh processes at this level: there is no zygote to rob")
    raw = sandbox.run_examples(["take_a_descriptor_of_the_parent()", "dumpable()"], timeout=10)
    (taken, error), mine = (o.value for o in observations_from_reply(raw.reply.observations))
    if sandbox.isolation.level is not Level.NAMESPACED or os.geteuid() == 0:  # no capability
        assert (taken, error) == ([], 1), raw.output  # EPERM
    assert mine == 1


def test_an_exit_forged_on_the_zygote_s_socket_costs_no_case_its_answer(sandbox, monkeypatch):
    """An "exited" queued before a case's "started", or sent while the case runs (in a pid
    namespace, where the zygote reports an end only once the case's processes are gone), is
    not believed: the zygote is killed and the case runs again in a fresh process."""
    kept = _keep_the_zygote_s_end(monkeypatch)
    sandbox.run_examples(["1"], timeout=10)
    if not kept:
        pytest.skip("cases run in fresh processes at this level: there is no zygote socket")
    zygote = sandbox._lanes[0].zygote
    kept[-1].send(EXITED)
    raw = sandbox.run_examples(["add(2, 3)"], timeout=10)
    assert observations_from_reply(raw.reply.observations)[0].value == 5, raw.output
    assert not zygote.alive


def test_an_exit_forged_while_the_case_runs_costs_it_nothing(sandbox, monkeypatch):
    kept = _keep_the_zygote_s_end(monkeypatch)
    sandbox.run_examples(["1"], timeout=10)
    if not kept or not sandbox.isolation.has_pid_namespace:
        pytest.skip("only a zygote in a pid namespace vouches that a case's processes are gone")
    zygote = sandbox._lanes[0].zygote
    started = json.dumps({"event": "started", "pid": 2}).encode()
    forger = threading.Timer(0.5, lambda: (kept[-1].send(started), kept[-1].send(EXITED)))
    forger.start()
    raw = sandbox.run_examples(["__import__('time').sleep(1.5)", "add(3, 4)"], timeout=10)
    forger.join()
    assert observations_from_reply(raw.reply.observations)[1].value == 7, raw.output
    assert not zygote.alive


# --- memory and disk bounds of a sandbox (issue 40) ---------------------------------------------

BOUNDED_STUDENT = '''
import os

def add(a, b):
    return a + b

def where_am_i():
    """The memory group and out-of-memory score of this process and of a child it forks."""
    def mine():
        with open("/proc/self/cgroup") as groups, open("/proc/self/oom_score_adj") as score:
            memory = [line for line in groups if ":memory:" in line or line.startswith("0::")]
            return memory[0].strip(), score.read().strip()
    reader, writer = os.pipe()
    if os.fork() == 0:
        os.write(writer, repr(mine()).encode())
        os._exit(0)
    os.close(writer)
    child = eval(os.read(reader, 4096).decode())
    return mine(), child

def hoard_unmapped(megabytes):
    """Memory no process maps: memfd files written with write(), 8 MB each."""
    held = []
    for _ in range(megabytes // 8):
        held.append(os.memfd_create("hoard"))
        os.write(held[-1], b"\\1" * (8 * 1024 * 1024))
    return "held"

def write_files(megabytes):
    for number in range(megabytes // 4):
        with open(f"filler-{number}", "wb") as handle:
            handle.write(b"\\1" * (4 * 1024 * 1024))
    return "written"
'''
SMALL_BOUNDS = {"sandbox_memory_mb": 96, "disk_mb": 8}


@pytest.fixture(params=LEVELS, ids=[option.level.name for option in LEVELS])
def bounded(request, tmp_path):
    """A sandbox whose memory (96 MB) and case-folder (8 MB) bounds are small, so the tests
    exceed them without straining the host."""
    from harness.records.limits import Limits
    source = tmp_path / "student.py"
    source.write_text(BOUNDED_STUDENT)
    box = Sandbox("student", {"student.py": source}, Limits(**SMALL_BOUNDS),
                  isolation=request.param)
    if box.memory_group is None or box.workspace.disk_in_force is None:
        box.close()
        pytest.skip(f"no bound to test here: {Sandbox.bounds_text.fget(box)}")
    yield box
    box.close()


def _value(raw):
    [observation] = observations_from_reply(raw.reply.observations)
    return observation.value


def test_every_student_process_is_in_the_sandbox_s_memory_group_first_for_the_oom_killer(
        bounded):
    raw = bounded.run_examples(["where_am_i()"], timeout=10)
    (group, score), (child_group, child_score) = _value(raw)
    assert group.endswith(bounded.memory_group.path.name) and child_group == group
    assert score == child_score == "1000"
    assert f"memory {SMALL_BOUNDS['sandbox_memory_mb']} MB for the whole sandbox" \
        in bounded.bounds_text


def test_memory_no_process_maps_is_bounded_and_kills_the_case_only(bounded):
    """160 MB of memfd files, mapped by no process, against a 96 MB sandbox: before the memory
    group nothing counted them and the case answered "held"."""
    raw = bounded.run_examples(["hoard_unmapped(160)"], timeout=10)
    assert raw.memory_exceeded
    assert raw.reply is None or _value(raw) != "held"
    after = bounded.run_examples(["add(1, 2)"], timeout=10)  # the next case is untouched
    assert _value(after) == 3 and not after.memory_exceeded


def test_a_sandbox_beside_one_out_of_memory_is_untouched(bounded, tmp_path):
    """Each sandbox has a group of its own: an honest sandbox keeps answering, never counted
    out of memory, while its neighbour is killed again and again."""
    source = tmp_path / "student.py"
    honest = Sandbox("student", {"student.py": source}, bounded.limits,
                     isolation=replace(bounded.isolation, memory_procs=""))
    assert honest.memory_group is not None and honest.memory_group != bounded.memory_group
    try:
        stop = threading.Event()
        killed = []

        def attack():
            while not stop.is_set():
                killed.append(bounded.run_examples(["hoard_unmapped(160)"],
                                                   timeout=10).memory_exceeded)

        attacker = threading.Thread(target=attack)
        attacker.start()
        try:
            answers = [honest.run_examples(["add(1, 2)"], timeout=10) for _ in range(5)]
        finally:
            stop.set()
            attacker.join()
        assert [(_value(raw), raw.memory_exceeded) for raw in answers] == [(3, False)] * 5
        assert killed and all(killed)
    finally:
        honest.close()


def test_case_folders_are_bounded_in_bytes_and_the_room_comes_back(bounded):
    raw = bounded.run_examples(["write_files(16)"], timeout=10)
    assert raw.disk_full
    assert "No space left on device" in raw.reply.observations[0].error.message
    after = bounded.run_examples(["write_files(4)"], timeout=10)  # a fresh folder, room again
    assert _value(after) == "written" and not after.disk_full


def test_a_closed_sandbox_leaves_neither_its_memory_group_nor_its_mount(bounded):
    """What the next grading of the same (leased) user finds: nothing of this one's bounds."""
    bounded.run_examples(["hoard_unmapped(160)"], timeout=10)
    bounded.run_examples(["write_files(16)"], timeout=10)
    group, root = bounded.memory_group.path, bounded.workspace.root
    bounded.close()
    assert not group.exists() and not root.exists()
    assert not any(line.split()[4] == str(root)
                   for line in Path("/proc/self/mountinfo").read_text().splitlines())
