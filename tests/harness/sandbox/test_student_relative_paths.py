"""Tracebacks and messages name the student's own files, never the sandbox's scratch folder.

Every way student code reaches people (a case's error and output in ``check`` and grade
feedback, a program's stderr in a game's feedback, a served module's error in ``play`` and
replays) passes through the sandbox, which takes its case folder out of the paths.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from harness.compare import observations_from_reply
from harness.sandbox import Sandbox
from harness.wire.safe_text import student_relative

pytestmark = pytest.mark.slow

STUDENT = '''import sys

def missing():
    return open(__file__ + ".missing").read()

def warn():
    print(__file__, file=sys.stderr)
    return 1

if __name__ == "__main__":
    print("name", flush=True)
    missing()
'''


def leaked(text: str) -> bool:
    """Whether ``text`` shows the sandbox's scratch layout (its root or a case folder)."""
    return "scratch" in text or "case-0" in text


def test_student_relative_takes_the_folder_out_of_paths() -> None:
    text = 'File "/scratch/x/case-0001/agent.py", line 3\n/scratch/x/case-0001 is the folder'
    assert student_relative(text, "/scratch/x/case-0001/") == \
        'File "agent.py", line 3\n. is the folder'
    assert student_relative(text, "") == text


def test_no_scratch_path_reaches_a_message(tmp_path: Path) -> None:
    source = tmp_path / "agent.py"
    source.write_text(STUDENT)
    with Sandbox("agent", {"agent.py": source}) as box:
        raw = box.run_examples(["missing()"], timeout=10)
        error = observations_from_reply(raw.reply.observations)[0].error
        assert error is not None and "agent.py.missing" in error.message
        assert not leaked(error.message) and "/" not in error.message

        raw = box.run_examples(["warn()"], timeout=10)
        assert "agent.py" in raw.output and not leaked(raw.output)

        with box.start_program() as program:
            assert program.read_line(10) == "name"
            assert program.read_line(10) is None
            tail = program.stderr_tail()
        assert 'File "agent.py", line' in tail and not leaked(tail)

        server = box.start_server()
        try:
            result = server.call("missing", [], 10)
        finally:
            server.close()
        assert not result.ok and "agent.py.missing" in result.error
        assert not leaked(result.error)
