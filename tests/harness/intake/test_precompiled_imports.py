"""The zygote compiles every Python file of the case folder ahead (``harness.worker.imports``,
``precompile``): a module imported from it behaves exactly as one compiled in the case, a file
changed since is compiled again, and nothing but small regular files is ever read ahead."""
from __future__ import annotations

import os

import pytest

from harness.compare import observations_from_reply
from harness.sandbox import Sandbox
from harness.worker import imports as worker

pytestmark = pytest.mark.slow

STUDENT = "import helper\n\ndef twice(x):\n    return helper.double(x)\n"
HELPER = "def double(x):\n    return 2 * x\n\n\ndef boom():\n    raise ValueError('from helper')\n"
CHANGED = "def double(x):\n    return 3 * x\n"


def test_a_helper_module_imported_in_later_cases_behaves_as_compiled_there(tmp_path):
    (tmp_path / "student.py").write_text(STUDENT)
    (tmp_path / "helper.py").write_text(HELPER)
    files = {"student.py": tmp_path / "student.py", "helper.py": tmp_path / "helper.py"}
    examples = ["twice(4)", "import os, traceback", "os.path.basename(helper.__file__)",
                "try:\n    helper.boom()\nexcept ValueError as e:\n"
                "    where = traceback.extract_tb(e.__traceback__)[-1]\n",
                "(os.path.basename(where.filename), where.lineno, where.line)"]
    with Sandbox("student", files) as box:
        runs = [box.run_examples(examples, timeout=10) for _ in range(3)]  # later: precompiled
    for raw in runs:
        assert raw.reply is not None, raw.reply_problem
        values = [o.value for o in observations_from_reply(raw.reply.observations)]
        assert values == [8, None, "helper.py", None,
                          ("helper.py", 6, "raise ValueError('from helper')")]


def test_a_module_changed_after_the_zygote_compiled_it_is_compiled_again(tmp_path):
    (tmp_path / "student.py").write_text(STUDENT)
    (tmp_path / "helper.py").write_text(HELPER)
    files = {"student.py": tmp_path / "student.py", "helper.py": tmp_path / "helper.py"}
    rewrite = [f"with open(helper.__file__, 'w') as f:\n    f.write({CHANGED!r})\n",
               "import importlib", "reload = importlib.reload(helper)"]
    with Sandbox("student", files) as box:
        box.run_examples(["twice(1)"], timeout=10)
        raw = box.run_examples([*rewrite, "twice(4)"], timeout=10)
        again = box.run_examples(["twice(4)"], timeout=10)  # a fresh copy of the original
    assert raw.reply is not None, raw.reply_problem
    assert [o.value for o in observations_from_reply(raw.reply.observations)][-1] == 12
    assert again.reply is not None
    assert [o.value for o in observations_from_reply(again.reply.observations)] == [8]


def test_only_small_regular_files_are_read_ahead(tmp_path):
    plain, large = tmp_path / "plain.py", tmp_path / "large.py"
    plain.write_text("x = 1\n")
    large.write_bytes(b"#" * 100)
    os.mkfifo(tmp_path / "fifo.py")  # opening it for reading would block the zygote
    (tmp_path / "link.py").symlink_to(plain)
    read = {name: worker._plain_file_bytes(str(tmp_path / name), 50)
            for name in ("plain.py", "large.py", "fifo.py", "link.py", "missing.py")}
    assert read == {"plain.py": b"x = 1\n", "large.py": None, "fifo.py": None,
                    "link.py": None, "missing.py": None}
