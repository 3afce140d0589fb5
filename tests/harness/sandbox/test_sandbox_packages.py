"""The allowed packages inside the sandbox: importable in every way student code runs (doctest
cases, call servers, programs), read-only, and nothing else of the grader's environment with them.

numpy must be installed for the sandbox (``gamegrader packages install``; scripts/bootstrap.sh
runs it): these tests fail, never skip, when it is not.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from harness.records.spec import AllowedPackage
from harness.sandbox import Sandbox
from harness.wire.codec import Opaque
from harness.wire.protocol import value_of

pytestmark = pytest.mark.slow

NUMPY = (AllowedPackage("numpy", "numpy"),)

STUDENT = '''
import sys
import numpy as np

def total(n):
    return np.arange(n).sum()          # an np.int64

def plain_total(n):
    return int(np.arange(n).sum())

def flags():
    return [np.bool_(True), np.float64(0.5), np.str_("x")]

def array():
    return np.zeros(2)

if __name__ == "__main__":
    print(total(5), __name__, sys.argv[1:], sys.path[0] == __import__("os").getcwd())
'''


@pytest.fixture
def sandbox(tmp_path: Path):
    source = tmp_path / "student.py"
    source.write_text(STUDENT)
    with Sandbox("student", {"student.py": source}, packages=NUMPY) as box:
        assert box.packages is not None, (
            "numpy is not installed for the sandbox: run '.venv/bin/gamegrader packages install'")
        yield box


def test_doctest_cases_import_numpy_and_its_scalars_arrive_as_python_values(sandbox):
    raw = sandbox.run_examples(["total(5)", "plain_total(5)", "flags()", "array()"], timeout=20)
    values = [value_of(o.value) for o in raw.reply.observations]
    assert values[:3] == [10, 10, [True, 0.5, "x"]]
    assert isinstance(values[3], Opaque) and values[3].type_name == "numpy.ndarray"


def test_a_file_that_uses_numpy_has_it_imported_ahead_and_others_do_not(tmp_path, sandbox):
    assert sandbox.preload == ["numpy"]
    plain = tmp_path / "plain.py"
    plain.write_text("import math\n")
    with Sandbox("plain", {"plain.py": plain}, packages=NUMPY) as box:
        assert box.preload == []
        raw = box.run_examples(["import sys", "'numpy' in sys.modules"], timeout=20)
        assert value_of(raw.reply.observations[1].value) is False


def test_a_call_server_imports_numpy(sandbox):
    with sandbox.start_server() as server:
        assert server.import_error == ""
        assert server.call("total", [4], timeout=20).value == 6


def test_a_program_runs_as_python_script_would_with_numpy_importable(sandbox):
    with sandbox.start_program(args=["a", "b"]) as program:
        line = program.read_line(timeout=20)
        assert line is not None, program.stderr_tail()
    assert line.strip() == "10 __main__ ['a', 'b'] True"


@pytest.mark.parametrize("module", ["yaml", "pytest", "jsonschema", "openskill", "_pytest"])
def test_the_graders_own_dependencies_stay_out_of_reach(sandbox, module):
    raw = sandbox.run_examples([f"import {module}"], timeout=20)
    assert raw.reply.observations[0].error.type == "ModuleNotFoundError"


def test_without_allowed_packages_numpy_is_not_importable(tmp_path):
    source = tmp_path / "student.py"
    source.write_text(STUDENT)
    with Sandbox("student", {"student.py": source}) as box:
        assert box.packages is None
        raw = box.run_examples(["1"], timeout=20)
    assert raw.reply.import_error.message == "No module named 'numpy'"


def test_student_code_cannot_change_the_packages(sandbox):
    if not sandbox.isolation.own_user:
        pytest.skip("student code runs as the grader's own user here (no root)")
    raw = sandbox.run_examples([
        "import os",
        "open(os.path.join(os.path.dirname(np.__file__), 'planted.py'), 'w')"], timeout=20)
    assert raw.reply.observations[1].error.type == "PermissionError"


def test_numpy_runs_single_threaded_under_the_sandbox_limits(sandbox):
    """OpenBLAS would start a thread per CPU, each reserving address space and counting against
    the process limit; the sandbox's environment keeps it to one."""
    raw = sandbox.run_examples([
        "product = np.ones((300, 300)) @ np.ones((300, 300))",
        "[line.split()[1] for line in open('/proc/self/status') if line.startswith('Threads')]"],
        timeout=20)
    assert value_of(raw.reply.observations[1].value) == ["1"]
