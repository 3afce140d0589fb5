"""``gamegrader batch`` on a Gradescope export decides the policy from the export's metadata."""
from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest
from gg_testing import ROOT

from harness.batch.discover import read_entries
from harness.batch.export_metadata import gradescope_metadata
from harness.policy.metadata import read_facts

SOLUTION = ROOT / "reference/solutions/adversarial_search/adversarial_search.py"
EXPORT = """\
submission_1001:
  :submitters:
  - :name: Ada Lovelace
    :sid: '1'
    :email: ada@example.edu
  :created_at: 2026-11-21 09:00:00.000000000 -05:00
  :score: !ruby/object:BigDecimal 18:0.4e2
  :history:
  - :id: 998
    :created_at: 2026-11-19 10:00:00.000000000 -05:00
    :score: !ruby/object:BigDecimal 18:0.3e2
  - :id: 999
    :created_at: '2026-11-20T10:00:00.5-05:00'
    :score: 35.5
submission_1002:
  :submitters:
  - :name: Bob Bishop
  :created_at: 2026-11-20 22:00:00.000000000 -05:00
"""
MINUS_FIVE = timezone(timedelta(hours=-5))


def test_an_export_entry_reads_as_gradescope_metadata(tmp_path):
    (tmp_path / "submission_metadata.yml").write_text(EXPORT)
    entries = read_entries(tmp_path / "submission_metadata.yml")
    metadata = gradescope_metadata(entries["submission_1001"])
    json.dumps(metadata)  # plain data: a job carries it to a worker
    facts = read_facts(metadata)
    assert facts.created_at == datetime(2026, 11, 21, 9, tzinfo=MINUS_FIVE)
    assert [(p.time.isoformat(), p.score) for p in facts.previous] == [
        ("2026-11-19T10:00:00-05:00", 30.0), ("2026-11-20T10:00:00.500000-05:00", 35.5)]
    assert facts.users == ("1",) and facts.due_date is None
    assert read_facts(gradescope_metadata(entries["submission_1002"])).previous == ()
    assert gradescope_metadata("just text") == {} and read_facts({}).created_at is None


@pytest.mark.slow
def test_batch_applies_the_late_policy_from_the_export(tmp_path, monkeypatch):
    from harness.batch.run import BatchOptions, run_batch
    from harness.release.validate import subset_root
    from harness.spec import find_assignment
    root = subset_root(find_assignment("adversarial_search"),
                       ["01_infrastructure", "02_get_best_move"], tmp_path / "specs",
                       generated=False)
    with open(root / "test_specs/adversarial_search/assignment.yaml", "a") as spec:
        spec.write('policy:\n  late: {percent: 25, per: day}\n'
                   '  due_date: "2026-11-20T23:59:00-05:00"\n')
    monkeypatch.setenv("GAMEGRADER_ROOT", str(root))
    export = tmp_path / "export"
    for key in ("submission_1001", "submission_1002"):
        (export / key).mkdir(parents=True)
        (export / key / "adversarial_search.py").write_text(SOLUTION.read_text())
    (export / "submission_metadata.yml").write_text(EXPORT)
    summary = run_batch(BatchOptions("adversarial_search", export, tmp_path / "out",
                                     workers=2, progress=False))
    assert not summary.failed
    late, on_time = (json.loads((tmp_path / "out/submissions" / key / "results.json")
                                .read_text()) for key in ("submission_1001", "submission_1002"))
    raw = on_time["extra_data"]["raw_score"]
    assert raw > 0 and on_time["score"] == raw and "Policy: On time" in on_time["output"]
    assert late["extra_data"]["raw_score"] == raw and late["score"] == round(raw * 0.75, 4)
    assert "1 day × 25% = 25% off" in late["output"]
