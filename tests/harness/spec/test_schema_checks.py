"""The generated schema checks (harness/schema_checks/) stand in for jsonschema on valid documents:
they are in step with their schemas, accept every spec the course ships (so grading never loads
jsonschema), and never accept what jsonschema refuses."""
from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from harness import schema_checks
from harness.grading import results
from harness.release.write_schema_checks import COMMAND, schemas, stale
from harness.spec import find_assignment, list_assignments
from harness.spec.assignments import REFERENCE_TIMES
from harness.spec.loader import (
    generated_path,
    precomputed_path,
    spec_files,
)
from harness.spec.yaml_files import read_yaml


def test_the_generated_checks_are_in_step_with_their_schemas():
    assert set(schemas()) == set(schema_checks.CHECKS)
    assert stale(write=False) == [], f"a schema changed: run `{COMMAND}` and commit the result"


def check_of(path) -> str:
    if path.name == "assignment.yaml":
        return "assignment"
    if path.name == REFERENCE_TIMES:
        return "reference_times"
    if path.name.endswith(".precomputed.yaml"):
        return "precomputed_file"
    return "generated_file" if path.parent.name == "generated" else "case_file"


def shipped_spec_files() -> list[Any]:
    """Each file once: a case file that several assignments include (37 of 210) is the same
    document under the same check for each of them."""
    return sorted({path for name in list_assignments()
                   for path in spec_files(find_assignment(name))})


@pytest.mark.parametrize("path", shipped_spec_files(), ids=lambda path: str(path).split(
    "test_specs/")[-1])
def test_every_shipped_spec_passes_the_fast_check(path):
    check = check_of(path)
    data = read_yaml(path)
    assert schema_checks.passes(check, data)
    assert jsonschema.Draft202012Validator(schemas()[check]).is_valid(data)


def test_generated_paths_are_named_as_the_checks_expect(tmp_path):
    assert check_of(generated_path(tmp_path / "cases" / "01_x.yaml", "rnd")) == "generated_file"
    assert check_of(precomputed_path(tmp_path / "cases" / "01_x.yaml")) == "precomputed_file"


CASE = {"name": "a", "doctest": ">>> 1"}
PACKAGE = {"package": "numpy", "module": "numpy"}
# Documents on the edge of what jsonschema accepts: a check may refuse more (jsonschema then
# decides), never less.
EDGES: list[tuple[str, Any]] = [
    ("case_file", {"group": "g", "cases": (CASE,)}),  # a tuple is no JSON array
    ("case_file", {"group": "g", "cases": [{**CASE, "points": True}]}),  # nor a bool a number
    ("case_file", {"group": "g", "cases": [{**CASE, "points": 1.5}]}),
    ("case_file", {"group": "g", "cases": [{**CASE, "module": "name\n"}]}),  # $ before a newline
    ("case_file", {"group": "g", "cases": [{**CASE, "pointz": 1}]}),
    ("case_file", {"group": "g", "cases": [{**CASE, "tags": ["x", 1]}]}),
    ("case_file", {"group": "", "cases": []}),
    ("case_file", {"group": "g", 1: "a key that is no string"}),
    ("generated_file", {"source": {}, "cases": [{"name": "a", "doctest": ""}]}),
    ("assignment", {"name": "demo", "title": "T", "module": "demo",
                    "allowed_packages": [PACKAGE, {"module": "numpy", "package": "numpy"}]}),
    ("assignment", {"name": "demo", "title": "T", "module": "demo",
                    "allowed_packages": [{"numpy"}]}),  # a set: the check cannot even hash it
    ("assignment", {"name": "demo", "title": "T", "module": "demo",
                    "limits": {"memory_mb": 64.0}}),  # an integral float is an integer
    ("reference_times", {"seconds": {"a::b": 0}}),
    ("reference_times", {"seconds": {"a::b": float("nan")}}),
    ("results", results.provisional("starting")),
    ("results", {"tests": [{"name": "t"}]}),  # no score anywhere
    ("results", {"tests": [{"name": "t", "score": 1}]}),
    ("results", {"score": 1, "tests": [{"name": "t", "status": None}]}),
    ("results", {"score": "10", "execution_time": 1}),
    ("results", {"score": 1, "leaderboard": [{"name": "n", "value": [1]}]}),
]


@pytest.mark.parametrize("check, data", EDGES)
def test_a_check_accepts_nothing_jsonschema_refuses(check, data):
    valid = jsonschema.Draft202012Validator(schemas()[check]).is_valid(data)
    assert schema_checks.passes(check, data) <= valid


def test_a_refused_results_document_gets_jsonschema_s_own_error(tmp_path):
    document = {"score": 1, "tests": [{"name": "t", "status": "maybe"}]}
    expected = jsonschema.Draft202012Validator(
        json.loads(results.SCHEMA_PATH.read_text())).iter_errors(document)
    with pytest.raises(jsonschema.ValidationError) as raised:
        results.write(tmp_path / "results.json", document)
    assert raised.value.message in {error.message for error in expected}
    (tmp_path / "bad.json").write_text(json.dumps(document))
    assert not results.is_final(tmp_path / "bad.json")
