"""``gamegrader batch`` black-box through the command line, on a Gradescope export folder."""
from __future__ import annotations

import csv
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from workflow_support import (
    ASSIGNMENT,
    LEAVES_TWICE,
    REPO,
    SMALL_TOTAL,
    SOLUTION,
    TEMPLATE,
    comparable,
    gamegrader,
    mutant_text,
    read_json,
    small_root,
)

pytestmark = pytest.mark.slow

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
    assert set(by_student) == {"Ada Lovelace", "Bob Bishop", "Carol Chen", "Dan Dunn"}
    assert by_student["Carol Chen"]["email"] == "carol@example.edu"
    assert by_student["Carol Chen"]["group"] == "Bob Bishop"
    assert by_student["Ada Lovelace"]["sid"] == "1"
    assert [row["score"] for row in rows] == ["8", "5.3333", "5.3333", "0"]
    with (out / "canvas.csv").open(newline="", encoding="utf-8") as stream:
        canvas = list(csv.reader(stream))
    assert canvas[0][:5] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
    assert [row[0] for row in canvas[2:]] == ["Ada Lovelace", "Bob Bishop", "Carol Chen"]
    assert "canvas.csv leaves out 1 student(s) Canvas could not match safely" in done.stdout
    assert "  Dan Dunn (submission submission_1003): no identifier Canvas matches on" \
        in done.stdout  # no student id in the export: Canvas would match the name
    test_columns = [c for c in rows[0] if c[0].isdigit()]
    assert len(test_columns) == 22 and test_columns[0].startswith("1.1 infrastructure: ")
    handout = next(c for c in test_columns if c.startswith("2.1 get_best_move: "))
    assert by_student["Bob Bishop"][handout] == "2.6667"  # move and value right

    report = (out / "report.html").read_text()
    assert all(name in report for name in ("Ada Lovelace", "Bob Bishop; Carol Chen", "Dan Dunn"))
    assert '<svg id="histogram"' in report
    assert 'href="submissions/submission_1002/feedback.html"' in report
    feedback = (out / "submissions" / "submission_1002" / "feedback.html").read_text()
    assert "leaf count wrong (expected 6, got 12)" in feedback

    # A rerun grades nothing (the roster gives Dan a login); a changed submission is regraded
    # alone; --only regrades one.
    stamp = (out / "submissions" / "submission_1001" / "results.json").stat().st_mtime_ns
    roster = tmp_path / "roster.csv"
    roster.write_text("email,SIS Login ID\ndan@example.edu,ddunn\nada@example.edu,alove\n")
    rerun = batch(export, out, env, "--roster", str(roster))
    assert "0 graded, 3 unchanged" in rerun.stdout
    assert "leaves out 2 student(s)" in rerun.stdout and "Bob Bishop (submission " \
        "submission_1002): not in the roster roster.csv" in rerun.stdout
    with (out / "canvas.csv").open(newline="", encoding="utf-8") as stream:
        assert [row[:4] for row in csv.reader(stream)][2:] == [
            ["Ada Lovelace", "", "", "alove"], ["Dan Dunn", "", "", "ddunn"]]
    assert (out / "submissions" / "submission_1001" / "results.json").stat().st_mtime_ns == stamp

    (export / "submission_1003" / "adversarial_search.py").write_text(SOLUTION.read_text())
    assert "1 graded, 2 unchanged" in batch(export, out, env).stdout
    assert read_json(out / "submissions" / "submission_1003" / "results.json")["score"] == 8

    again = batch(export, out, env, "--only", "ADA@example.edu")
    assert "1 graded, 0 unchanged" in again.stdout
    assert (out / "submissions" / "submission_1001" / "results.json").stat().st_mtime_ns != stamp
    with (out / "gradebook.csv").open(newline="") as stream:
        assert len(list(csv.DictReader(stream))) == 4  # the gradebook still lists everyone


def test_a_roster_canvas_cannot_use_is_refused_without_grading(tmp_path):
    env = small_root(tmp_path / "root")
    roster = tmp_path / "roster.csv"
    roster.write_text("name,score\nAda,1\n")
    done = gamegrader("batch", "--assignment", ASSIGNMENT, str(export_folder(tmp_path / "x")),
                      "--out", str(tmp_path / "out"), "--roster", str(roster), env=env)
    assert done.returncode == 2
    assert f"gamegrader: {roster}, line 1: the header needs a column that finds" in done.stderr
    assert not (tmp_path / "out" / "submissions").exists()


def test_only_naming_nobody_is_refused_without_grading(tmp_path):
    env = small_root(tmp_path / "root")
    export = export_folder(tmp_path / "export")
    done = gamegrader("batch", "--assignment", ASSIGNMENT, str(export), "--out",
                      str(tmp_path / "out"), "--only", "nobody@example.edu", env=env)
    assert done.returncode == 2
    assert "no submission belongs to 'nobody@example.edu'" in done.stderr
    assert not (tmp_path / "out" / "submissions").exists()


def test_an_interrupted_batch_keeps_what_it_finished_and_a_rerun_grades_the_rest(tmp_path):
    root = small_root(tmp_path / "root")
    submissions = tmp_path / "submissions"
    for index in range(10):
        (submissions / f"student_{index}").mkdir(parents=True)
        (submissions / f"student_{index}" / "adversarial_search.py").write_text(
            f"# {index}\n{SOLUTION.read_text()}")
    out = tmp_path / "out"
    command = [sys.executable, "-m", "harness", "batch", "--assignment", ASSIGNMENT,
               str(submissions), "--out", str(out), "--workers", "2", "--no-progress"]
    # As Ctrl-C in a terminal: SIGINT to the whole process group (not ignored, as it would be
    # for a background job of a script).
    batch_process = subprocess.Popen(
        command, cwd=REPO, env={**os.environ, **root}, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120
    while not list(out.glob("submissions/*/input.json")) and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(batch_process.pid, signal.SIGINT)
    _, stderr = batch_process.communicate(timeout=120)
    assert batch_process.returncode == 130, stderr[-2000:]
    assert "interrupted; finished results are kept" in stderr
    assert (out / "gradebook.csv").is_file() and (out / "report.html").is_file()
    finished = sum(1 for path in out.glob("submissions/*/results.json")
                   if read_json(path)["extra_data"].get("final"))
    assert 1 <= finished < 10

    rerun = gamegrader("batch", "--assignment", ASSIGNMENT, str(submissions), "--out", str(out),
                       "--workers", "2", env=root)
    assert rerun.returncode == 0, rerun.stderr[-2000:]
    assert f"{10 - finished} graded, {finished} unchanged" in rerun.stdout
