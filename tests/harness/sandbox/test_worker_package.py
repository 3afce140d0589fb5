"""The worker is a package in the sandbox, yet a student's helper modules named like its modules
(``run.py``, ``encode.py`` ...) are the ones the student's code imports, in a fresh process, a
forked one and a call server alike."""
from __future__ import annotations

import os

import pytest

from harness.compare import observations_from_reply
from harness.sandbox import Sandbox
from harness.sandbox.workspace import RUNTIME_PACKAGE, WORKER_FILES, WORKER_PACKAGE, copy_worker

pytestmark = pytest.mark.slow  # starts sandboxes

NAMES = [name[:-3] for name in WORKER_FILES if name != "__init__.py"]
STUDENT = "".join(f"import {name}\n" for name in NAMES) + (
    "\ndef mine():\n    return [" + ", ".join(f"{name}.MINE" for name in NAMES) + "]\n")


@pytest.mark.parametrize("forked", [True, False], ids=["forked", "fresh"])
def test_helpers_named_like_the_worker_s_modules_are_the_student_s(tmp_path, forked):
    files = {"student.py": tmp_path / "student.py"}
    (tmp_path / "student.py").write_text(STUDENT)
    for name in NAMES:
        (tmp_path / f"{name}.py").write_text(f"MINE = {name!r}\n")
        files[f"{name}.py"] = tmp_path / f"{name}.py"
    with Sandbox("student", files) as box:
        box.use_zygote = box.use_zygote and forked
        raw = box.run_examples(["mine()"], timeout=20)
        with box.start_server() as server:
            called = server.call("mine", [], timeout=20)
    assert raw.reply is not None, raw.reply_problem
    assert [o.value for o in observations_from_reply(raw.reply.observations)] == [NAMES]
    assert called.ok and called.value == NAMES


def test_the_runtime_copy_holds_every_module_with_compiled_copies_it_can_use(tmp_path):
    entry = copy_worker(tmp_path)
    package = tmp_path / RUNTIME_PACKAGE
    assert entry == package / "main.py"
    assert sorted(os.listdir(package)) == sorted([*WORKER_FILES, "__pycache__"])
    for name in WORKER_FILES:  # the interpreter takes a compiled copy only at the same time
        assert os.stat(package / name).st_mtime == os.stat(WORKER_PACKAGE / name).st_mtime
        assert os.stat(package / name).st_mode & 0o777 == 0o644
