"""Every scenario of this folder, graded through the real entry point (see README.md here)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from conftest import ROOT

HERE = Path(__file__).parent
SCENARIOS = sorted(HERE.glob("*.yaml"))
BASES = {
    "adversarial_search": {
        "solution": ROOT / "reference/solutions/adversarial_search/adversarial_search.py",
        "template": ROOT / "student_template/adversarial_search/adversarial_search.py",
    },
}


def build_submission(spec: dict, folder: Path) -> Path:
    """Write the scenario's submission file into ``folder`` and return its path."""
    if "source" in spec:
        text = spec["source"]
        name = spec.get("file", f"{spec['assignment']}.py")
    else:
        base = BASES[spec["assignment"]][spec["base"]]
        text, name = base.read_text(encoding="utf-8"), base.name
        for old, new in spec.get("replace", []):
            assert old in text, f"{old!r} not in {base}"
            text = text.replace(old, new)
        text = spec.get("prepend", "") + text
    target = folder / name
    target.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return target


def group_of(test: dict) -> str:
    return test["name"].split(": ", 1)[0]


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_hostile_submission(path, grade, tmp_path):
    spec = yaml.safe_load(path.read_text())
    folder = tmp_path / "submission"
    folder.mkdir()
    submission = build_submission(spec, folder)
    options = spec.get("grade", {})
    document = grade(spec["assignment"], submission, budget=options.get("budget"),
                     timeout_cap=options.get("timeout_cap"))
    expect = spec["expect"]
    text = json.dumps(document)
    if "total" in expect:
        assert document["score"] == expect["total"]
    if "max_total" in expect:
        assert document["score"] <= expect["max_total"]
    if "max_score" in expect:
        assert sum(t["max_score"] for t in document["tests"]) == expect["max_score"]
    for group, allowed in expect.get("verdicts", {}).items():
        seen = {t["extra_data"]["verdict"] for t in document["tests"] if group_of(t) == group}
        assert seen and seen <= set(allowed), (group, seen)
    for group in expect.get("all_passed", []):
        tests = [t for t in document["tests"] if group_of(t) == group]
        assert tests and all(t["status"] == "passed" for t in tests), group
    for snippet in expect.get("output_contains", []):
        assert snippet in text, snippet
    for snippet in expect.get("not_contains", []):
        assert snippet not in text, snippet
