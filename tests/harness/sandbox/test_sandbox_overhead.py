"""What makes a case cheap keeps every case's isolation: the overhead profile's step times, the
background removal of used case folders, and the modules the zygote imports ahead."""
from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from harness.sandbox import Sandbox
from harness.sandbox.packages import PRELOADED_STANDARD_MODULES, imported_packages
from harness.sandbox.stages import STAGES, Stages
from harness.sandbox.workspace import RUNTIME_PACKAGE, copy_worker
from harness.wire.protocol import Exited, WorkerReply, ZygoteEvent, decode, value_of

pytestmark = pytest.mark.slow

STUDENT = '''
import random
import os

def draw():
    return random.random()

def leave_a_file(name):
    with open(name, "w") as handle:
        handle.write("left by an earlier case")
    return sorted(os.listdir("."))

def module_file():
    return random.__file__.startswith(os.getcwd())
'''


@pytest.fixture
def sandbox(tmp_path: Path):
    source = tmp_path / "student.py"
    source.write_text(STUDENT)
    with Sandbox("student", {"student.py": source}) as box:
        yield box


def _value(raw, index: int = 0):
    assert raw.reply is not None and raw.reply.observations is not None, raw.output
    observation = raw.reply.observations[index]
    assert observation.error is None, observation.error
    return value_of(observation.value)


def test_stage_marks_split_a_span_in_order_and_merge_missing_ones():
    stages = Stages()
    stages.add_marks(0.0, [("a", 1.0), ("b", None), ("c", 3.0)], 4.0, "last")
    assert stages.seconds == {}  # off: nothing is counted
    stages.enabled = True
    stages.add_marks(0.0, [("a", 1.0), ("b", None), ("c", 3.0), ("d", 2.5)], 4.0, "last")
    assert stages.seconds == {"a": 1.0, "c": 2.0, "last": 1.0}  # d is out of order: merged
    stages.add("a", 10.0, 10.5)
    assert stages.seconds["a"] == 1.5


def test_steps_done_before_the_grader_read_its_clock_are_kept_at_zero_length():
    """On a busy machine the child can fork, set up and import before the grader, descheduled
    right after sending, reads the time the wait starts from: those steps still appear."""
    stages = Stages()
    stages.enabled = True
    stages.add_marks(5.0, [("read", 3.0), ("imported", 4.0), ("ran", 6.5)], 7.0, "exit")
    assert stages.seconds == {"read": 0.0, "imported": 0.0, "ran": 1.5, "exit": 0.5}


def test_traced_case_reports_its_steps_in_order_and_untraced_reports_none(sandbox):
    assert sandbox.run_examples(["1 + 1"], timeout=10).reply.trace is None
    STAGES.reset()
    STAGES.enabled = True
    try:
        raw = sandbox.run_examples(["1 + 1"], timeout=10)
    finally:
        STAGES.enabled = False
    trace = raw.reply.trace
    steps = ["setup", "imported", "ran"]
    if sandbox.use_zygote:
        steps = ["forked", "read", *steps]
    assert [step for step in steps if step in trace] == steps
    assert [trace[step] for step in steps] == sorted(trace[step] for step in steps)
    assert {"import student file", "run examples + encode", "case folder mkdir",
            "case folder removal"} <= set(STAGES.seconds)
    STAGES.reset()


def test_trace_fields_are_bounded_like_every_reply_field():
    reply = decode(b'{"mode": "run", "trace": {"ran": 1.5}}', WorkerReply)
    assert reply.trace == {"ran": 1.5}
    event = decode(b'{"event": "exited", "status": 0, "trace": {"reaped": 2.0}}', ZygoteEvent)
    assert event == Exited(0, {"reaped": 2.0})
    too_many = "{" + ", ".join(f'"s{n}": 1.0' for n in range(17)) + "}"
    with pytest.raises(ValueError):
        decode(f'{{"mode": "run", "trace": {too_many}}}'.encode(), WorkerReply)


def test_a_used_case_folder_is_out_of_reach_at_once_and_removed_by_close(sandbox):
    workspace = sandbox.workspace
    folder = workspace.new_case_folder()
    (folder / "left.txt").write_text("x")
    workspace.discard(folder)
    assert not folder.exists()
    trash = workspace.root / "trash"
    info = os.lstat(trash)
    assert (info.st_uid, stat.S_IMODE(info.st_mode)) == (os.geteuid(), 0o700)  # no student enters
    root = workspace.root
    sandbox.close()
    assert not root.exists()


def test_each_case_still_starts_in_a_fresh_folder(sandbox):
    first = _value(sandbox.run_examples(["leave_a_file('mine.txt')"], timeout=10))
    second = _value(sandbox.run_examples(["leave_a_file('other.txt')"], timeout=10))
    assert "mine.txt" in first and "mine.txt" not in second


def test_a_module_imported_ahead_is_fresh_in_every_case(sandbox):
    if not sandbox.use_zygote:
        pytest.skip("no zygote at this isolation level")
    assert "random" in sandbox.preload_standard
    draws = {_value(sandbox.run_examples(["draw()"], timeout=10)) for _ in range(3)}
    assert len(draws) == 3  # each forked case reseeds: no two cases share a sequence


def test_a_student_file_named_like_a_standard_module_is_never_imported_ahead(tmp_path):
    own = tmp_path / "random.py"
    own.write_text("def random():\n    return 4\n")
    main = tmp_path / "student.py"
    main.write_text(STUDENT)
    files = {"student.py": main, "random.py": own}
    assert "random" not in imported_packages(files, PRELOADED_STANDARD_MODULES)
    with Sandbox("student", files) as box:
        assert _value(box.run_examples(["draw()"], timeout=10)) == 4
        assert _value(box.run_examples(["module_file()"], timeout=10)) is True


# In a fresh interpreter as the sandbox starts one (-I -S): the zygote's set-up, then what each
# forked child does first; prints the modules the child imported that the zygote had not.
CHILD_IMPORTS = f"""
import sys
sys.path.insert(0, sys.argv[1])
from {RUNTIME_PACKAGE} import zygote
zygote.prepare_zygote()
before = set(sys.modules)
zygote.become_case_process()
print(sorted(set(sys.modules) - before))
"""


def test_a_forked_case_imports_nothing_its_zygote_has_not(tmp_path):
    """Every case is a fork of the zygote, so a module its set-up imports is imported again in
    every case: importing ``platform`` there once made each case's fork 3.3 ms instead of 0.9."""
    copy_worker(tmp_path)
    done = subprocess.run([sys.executable, "-I", "-S", "-c", CHILD_IMPORTS, str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
