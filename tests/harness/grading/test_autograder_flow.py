"""run_autograder in a folder laid out like Gradescope's /autograder (no Docker engine here)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
from gg_testing import ROOT

SCHEMA = json.loads((ROOT / "harness/data/results_schema.json").read_text())
SOLUTION = ROOT / "reference/solutions/adversarial_search/adversarial_search.py"


def layout(tmp_path: Path, assignment: str | None) -> Path:
    root = tmp_path / "autograder"
    for part in ("source", "submission/nested", "results"):
        (root / part).mkdir(parents=True)
    if assignment:
        (root / "source" / "ASSIGNMENT").write_text(assignment + "\n")
    (root / "submission_metadata.json").write_text(json.dumps({"id": 1, "users": []}))
    return root


def run_autograder(root: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "AUTOGRADER_ROOT": str(root),
           "GAMEGRADER_VENV": str(Path(sys.executable).parent.parent)}
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
    assert document["score"] == 0 and len(document["tests"]) == 86
    assert sum(t["max_score"] for t in document["tests"]) == 40
    assert "adversarial_search.py was not found" in document["output"]  # once, at the top
    assert "not run (see above: adversarial_search.py)" in document["tests"][-1]["output"]


def test_an_unconfigured_autograder_still_writes_valid_results(tmp_path):
    root = layout(tmp_path, None)
    assert run_autograder(root).returncode == 0
    document = json.loads((root / "results/results.json").read_text())
    jsonschema.validate(document, SCHEMA)
    assert "not configured" in document["output"]
