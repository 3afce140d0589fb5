"""The generic name-resolver hook: a probe binds names a student module lacks (assignment.yaml
``name_resolver``), before preflight and before examples, and its notes reach the feedback."""
from __future__ import annotations

from pathlib import Path

import pytest

from harness.intake.preflight import run_preflight
from harness.sandbox import Sandbox
from harness.spec.assignments import parse_api_entry
from harness.wire.protocol import value_of

pytestmark = pytest.mark.slow

STUDENT = '''
def my_answer():
    return 42

REGISTRY = {"answer": my_answer}
'''

RESOLVER = '''
def resolve(module):
    if hasattr(module, "answer") or "REGISTRY" not in vars(module):
        return []
    module.answer = module.REGISTRY["answer"]
    return ["answer is my_answer (from REGISTRY)"] + ["x" * 9999]
'''

BROKEN_RESOLVER = '''
def resolve(module):
    raise SystemExit("a resolver that fails leaves the module alone")
'''


def sandbox(tmp_path: Path, resolver: str) -> Sandbox:
    (tmp_path / "student.py").write_text(STUDENT)
    (tmp_path / "resolver.py").write_text(resolver)
    return Sandbox("student", {"student.py": tmp_path / "student.py",
                               "resolver.py": tmp_path / "resolver.py"},
                   name_resolver="resolver")


def test_resolver_binds_names_for_preflight_and_examples(tmp_path: Path) -> None:
    with sandbox(tmp_path, RESOLVER) as box:
        checked = run_preflight(box, (parse_api_entry("answer()"),), timeout=10)
        assert checked.import_problem == "" and checked.broken == {}
        assert checked.notes[0] == "answer is my_answer (from REGISTRY)"
        assert len(checked.notes[1]) == 500  # notes come from the student's process: bounded
        raw = box.run_examples(["answer()"], timeout=10)
        assert value_of(raw.reply.observations[0].value) == 42


def test_failing_resolver_leaves_the_module_as_it_was(tmp_path: Path) -> None:
    with sandbox(tmp_path, BROKEN_RESOLVER) as box:
        checked = run_preflight(box, (parse_api_entry("answer()"),), timeout=10)
        assert checked.notes == () and "answer is missing" in checked.broken["answer"]


@pytest.mark.parametrize("resolver, problem", [("gg_nowhere", "not one of the probe_files")])
def test_resolver_must_be_a_probe_file(tmp_path: Path, resolver: str, problem: str) -> None:
    from harness.spec.assignments import load_assignment
    from harness.spec.errors import SpecError

    folder = tmp_path / "demo"
    folder.mkdir()
    (folder / "assignment.yaml").write_text(
        f"name: demo\ntitle: Demo\nmodule: demo\nname_resolver: {resolver}\n")
    with pytest.raises(SpecError, match=problem):
        load_assignment(folder)
