"""run_autograder in a folder laid out like Gradescope's /autograder (no Docker engine here)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from gg_testing import ROOT

pytestmark = pytest.mark.slow

SCHEMA = json.loads((ROOT / "harness/data/results_schema.json").read_text())
SOLUTION = ROOT / "assignments/adversarial_search/solution/adversarial_search.py"


def layout(tmp_path: Path, assignment: str | None) -> Path:
    root = tmp_path / "autograder"
    for part in ("source", "submission/nested", "results"):
        (root / part).mkdir(parents=True)
    if assignment:
        (root / "source" / "ASSIGNMENT").write_text(assignment + "\n")
    (root / "submission_metadata.json").write_text(json.dumps({"id": 1, "users": []}))
    return root


def run_autograder(root: Path, extra: dict[str, str] | None = None
                   ) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "AUTOGRADER_ROOT": str(root),
           "GAMEGRADER_VENV": str(Path(sys.executable).parent.parent), **(extra or {})}
    return subprocess.run(["bash", str(ROOT / "run_autograder")], env=env, text=True,
                          capture_output=True, timeout=600)


def test_run_autograder_grades_the_submission_into_results(tmp_path):
    root = layout(tmp_path, "adversarial_search")
    (root / "submission/nested/adversarial_search (2).py").write_text(SOLUTION.read_text())
    done = run_autograder(root)
    assert done.returncode == 0, done.stderr[-2000:]
    document = json.loads((root / "results/results.json").read_text())
    jsonschema.validate(document, SCHEMA)
    assert document["score"] == 40
    assert "Found adversarial_search.py as nested/adversarial_search (2).py." in document["output"]


def test_an_empty_submission_still_gives_valid_results_with_every_test(tmp_path):
    root = layout(tmp_path, "adversarial_search")
    assert run_autograder(root).returncode == 0
    document = json.loads((root / "results/results.json").read_text())
    jsonschema.validate(document, SCHEMA)
    from harness.spec import find_assignment
    from harness.spec.loader import load_all_cases
    every_case = load_all_cases(find_assignment("adversarial_search"))
    assert document["score"] == 0 and len(document["tests"]) == len(every_case) > 80
    assert sum(t["max_score"] for t in document["tests"]) == 40
    assert "adversarial_search.py was not found" in document["output"]  # once, at the top
    assert "not run (see above: adversarial_search.py)" in document["tests"][-1]["output"]


def test_an_unconfigured_autograder_still_writes_valid_results(tmp_path):
    root = layout(tmp_path, None)
    assert run_autograder(root).returncode == 2
    document = json.loads((root / "results/results.json").read_text())
    jsonschema.validate(document, SCHEMA)
    assert document["output"].startswith("The autograder is misconfigured; your submission was "
                                         "not graded.")
    assert "no assignment name is configured" in document["output"]


POLICY = """
policy:
  rate_limit: {submissions: 1, hours: 24}
  late: {percent: 10, per: day}
"""


def policy_root(tmp_path: Path) -> dict[str, str]:
    """A GAMEGRADER_ROOT whose adversarial_search has its hand-written cases and a policy."""
    from harness.release.validate import subset_root
    from harness.spec import find_assignment
    root = subset_root(find_assignment("adversarial_search"),
                       ["01_infrastructure", "02_get_best_move"], tmp_path / "specs",
                       generated=False)
    with open(root / "assignments/adversarial_search/assignment.yaml", "a") as spec:
        spec.write(POLICY)
    return {"GAMEGRADER_ROOT": str(root)}


def test_run_autograder_applies_the_policy_from_the_metadata_and_a_regrade_repeats_it(tmp_path):
    env = policy_root(tmp_path)
    root = layout(tmp_path, "adversarial_search")
    (root / "submission/adversarial_search.py").write_text(SOLUTION.read_text())
    first = {"id": 1, "created_at": "2026-11-21T09:00:00-05:00",
             "assignment": {"due_date": "2026-11-20T23:59:00-05:00", "late_due_date": None},
             "users": [{"email": "ada@example.edu", "id": 1, "name": "Ada"}],
             "previous_submissions": []}
    (root / "submission_metadata.json").write_text(json.dumps(first))
    assert run_autograder(root, env).returncode == 0
    graded = json.loads((root / "results/results.json").read_text())
    jsonschema.validate(graded, SCHEMA)
    raw = graded["extra_data"]["raw_score"]
    assert raw > 0 and graded["score"] == round(raw * 0.9, 4)  # late by 9 hours: one day
    assert graded["output"].startswith("Policy: Graded submission 1 of at most 1 in any 24 h.\n"
                                       "Policy: Late by 9 h 1 min")

    # A regrade from the same metadata writes the same decision.
    (root / "results/results.json").unlink()
    assert run_autograder(root, env).returncode == 0
    again = json.loads((root / "results/results.json").read_text())
    assert (again["score"], again["output"]) == (graded["score"], graded["output"])

    # The next submission within the day is over the limit: not graded (an empty submission,
    # which would score 0), the last results come back with the time the next grading is free.
    (root / "submission/adversarial_search.py").unlink()
    second = dict(first, created_at="2026-11-21T12:00:00-05:00", previous_submissions=[
        {"submission_time": first["created_at"], "score": graded["score"],
         "autograder_error": False, "results": graded}])
    (root / "submission_metadata.json").write_text(json.dumps(second))
    done = run_autograder(root, env)
    refused = json.loads((root / "results/results.json").read_text())
    jsonschema.validate(refused, SCHEMA)
    assert refused["score"] == graded["score"] and refused["tests"] == graded["tests"]
    assert refused["output"].startswith("Policy: This submission was not graded") and \
        "available from 2026-11-22 09:00 -05:00" in refused["output"]
    assert "Graded adversarial_search" in done.stderr
