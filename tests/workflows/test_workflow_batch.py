"""``gamegrader batch`` black-box through the command line, on a Gradescope export folder."""
from __future__ import annotations

import csv
from pathlib import Path

from workflow_support import (
    ASSIGNMENT, LEAVES_TWICE, SMALL_TOTAL, SOLUTION, TEMPLATE, comparable, gamegrader,
    mutant_text, read_json, small_root)

METADATA = """\
submission_1001:
  :submitters:
  - :name: Ada Lovelace
    :sid: '1'
    :email: ada@example.edu
  :created_at: 2024-10-01 12:00:00.000000000 -07:00
  :score: !ruby/object:BigDecimal 18:0.4e2
  :status: processed
submission_1002:
  :submitters:
  - :name: Bob Bishop
    :sid: '2'
    :email: bob@example.edu
  - :name: Carol Chen
    :sid: '3'
    :email: carol@example.edu
  :created_at: 2024-10-02 09:30:00.000000000 -07:00
submission_1003:
  :submitters:
  - :name: Dan Dunn
    :email: dan@example.edu
"""


def export_folder(folder: Path) -> Path:
    """Gradescope's export layout: metadata beside one folder per submission."""
    (folder / "submission_1001").mkdir(parents=True)
    (folder / "submission_1001" / "adversarial_search.py").write_text(SOLUTION.read_text())
    nested = folder / "submission_1002" / "nested"
    nested.mkdir(parents=True)
    (nested / "adversarial_search (1).py").write_text(mutant_text(*LEAVES_TWICE))
    (folder / "submission_1003").mkdir()
    (folder / "submission_1003" / "adversarial_search.py").write_text(TEMPLATE.read_text())
    (folder / "submission_metadata.yml").write_text(METADATA)
    return folder


def batch(export: Path, out: Path, env: dict[str, str], *extra: str):
    done = gamegrader("batch", "--assignment", ASSIGNMENT, str(export), "--out", str(out),
                      "--workers", "2", *extra, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def test_batch_grades_each_submission_as_grade_would_and_resumes(tmp_path):
    env = small_root(tmp_path / "root")
    export = export_folder(tmp_path / "export")
    out = tmp_path / "out"

    done = batch(export, out, env)
    assert "3 submissions: 3 graded, 0 unchanged (kept), 0 without a result" in done.stdout
    assert "3/3" in done.stderr and "ETA" in done.stderr  # the progress bar is on stderr

    scores = {key: read_json(out / "submissions" / key / "results.json")["score"]
              for key in ("submission_1001", "submission_1002", "submission_1003")}
    assert scores == {"submission_1001": SMALL_TOTAL, "submission_1002": 5.3333,
                      "submission_1003": 0.0}

    # Identical verdicts to a single `gamegrader grade` of the same folder.
    single = tmp_path / "single.json"
    graded = gamegrader("grade", "--assignment", ASSIGNMENT, "--submission",
                        str(export / "submission_1002"), "--output", str(single), "--quiet",
                        env=env)
    assert graded.returncode == 0, graded.stderr[-2000:]
    in_batch = read_json(out / "submissions" / "submission_1002" / "results.json")
    assert comparable(in_batch) == comparable(read_json(single))
    assert "Found adversarial_search.py as nested/adversarial_search (1).py." in in_batch["output"]

    with (out / "gradebook.csv").open(newline="") as stream:
        rows = list(csv.DictReader(stream))
    by_student = {row["student"]: row for row in rows}
    assert set(by_student) == {"Ada Lovelace", "Bob Bishop; Carol Chen", "Dan Dunn"}
    assert by_student["Bob Bishop; Carol Chen"]["email"] == "bob@example.edu; carol@example.edu"
    assert by_student["Ada Lovelace"]["sid"] == "1"
    assert [row["score"] for row in rows] == ["8", "5.3333", "0"]
    test_columns = [c for c in rows[0] if c[0].isdigit()]
    assert len(test_columns) == 20 and test_columns[0].startswith("1.1 infrastructure: ")
    handout = next(c for c in test_columns if c.startswith("2.1 get_best_move: "))
    assert by_student["Bob Bishop; Carol Chen"][handout] == "2.6667"  # move and value right

    report = (out / "report.html").read_text()
    assert all(name in report for name in ("Ada Lovelace", "Bob Bishop; Carol Chen", "Dan Dunn"))
    assert '<svg id="histogram"' in report
    assert 'href="submissions/submission_1002/feedback.html"' in report
    feedback = (out / "submissions" / "submission_1002" / "feedback.html").read_text()
    assert "leaf count wrong (expected 6, got 12)" in feedback

    # A rerun grades nothing; a changed submission is regraded alone; --only regrades one.
    stamp = (out / "submissions" / "submission_1001" / "results.json").stat().st_mtime_ns
    assert "0 graded, 3 unchanged" in batch(export, out, env).stdout
    assert (out / "submissions" / "submission_1001" / "results.json").stat().st_mtime_ns == stamp

    (export / "submission_1003" / "adversarial_search.py").write_text(SOLUTION.read_text())
    assert "1 graded, 2 unchanged" in batch(export, out, env).stdout
    assert read_json(out / "submissions" / "submission_1003" / "results.json")["score"] == 8

    again = batch(export, out, env, "--only", "ADA@example.edu")
    assert "1 graded, 0 unchanged" in again.stdout
    assert (out / "submissions" / "submission_1001" / "results.json").stat().st_mtime_ns != stamp
    with (out / "gradebook.csv").open(newline="") as stream:
        assert len(list(csv.DictReader(stream))) == 3  # the gradebook still lists everyone


def test_only_naming_nobody_is_refused_without_grading(tmp_path):
    env = small_root(tmp_path / "root")
    export = export_folder(tmp_path / "export")
    done = gamegrader("batch", "--assignment", ASSIGNMENT, str(export), "--out",
                      str(tmp_path / "out"), "--only", "nobody@example.edu", env=env)
    assert done.returncode == 2
    assert "no submission belongs to 'nobody@example.edu'" in done.stderr
    assert not (tmp_path / "out" / "submissions").exists()
