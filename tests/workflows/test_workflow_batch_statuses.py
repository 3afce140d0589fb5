"""Batch statuses: a submission that cannot be graded says why in the gradebook and the report
(syntax error with its line, refused at intake), and a student in two submissions is marked."""
from __future__ import annotations

import csv

import pytest
from gg_testing import make_deep_folder, remove_deep_folder
from workflow_support import ASSIGNMENT, SOLUTION, gamegrader, mutant_text, small_root

pytestmark = pytest.mark.slow

METADATA = """\
submission_1:
  :submitters:
  - {":name": Ada Lovelace, ":email": ada@example.edu}
submission_2:
  :submitters:
  - {":name": Ada Lovelace, ":email": ada@example.edu}
  - {":name": Bob Bishop, ":email": bob@example.edu}
submission_3:
  :submitters:
  - {":name": Cy Young, ":email": cy@example.edu}
submission_4:
  :submitters:
  - {":name": Dee Deep, ":email": dee@example.edu}
"""
BROKEN_LINE = "    def get_best_move(self, vertical, limit):\n"


def test_ungradable_submissions_and_duplicate_students_are_marked(tmp_path):
    env = small_root(tmp_path / "root")
    export = tmp_path / "export"
    for key in ("submission_1", "submission_2", "submission_3", "submission_4"):
        (export / key).mkdir(parents=True)
    (export / "submission_metadata.yml").write_text(METADATA)
    (export / "submission_1" / "adversarial_search.py").write_text(SOLUTION.read_text())
    (export / "submission_2" / "adversarial_search.py").write_text(SOLUTION.read_text())
    broken = mutant_text(BROKEN_LINE, BROKEN_LINE.replace("):", ")"))
    line = broken.splitlines().index(BROKEN_LINE.replace("):", ")").rstrip("\n")) + 1
    (export / "submission_3" / "adversarial_search.py").write_text(broken)
    (export / "submission_4" / "adversarial_search.py").write_text(SOLUTION.read_text())
    make_deep_folder(export / "submission_4", 1100)
    try:
        done = gamegrader("batch", "--assignment", ASSIGNMENT, str(export), "--out",
                          str(tmp_path / "out"), "--workers", "2", "--no-progress", env=env)
    finally:
        remove_deep_folder(export / "submission_4")
    assert done.returncode == 0, done.stderr[-3000:]  # students' faults are not the grader's
    assert "4 submissions: 4 graded" in done.stdout, done.stdout + done.stderr[-2000:]
    with (tmp_path / "out" / "gradebook.csv").open(newline="") as stream:
        status = {row["submission"]: row["status"] for row in csv.DictReader(stream)}
    assert status == {
        "submission_1": "graded; same student also in submission_2",
        "submission_2": "graded; same student also in submission_1",
        "submission_3": f"ungradable: syntax error at line {line}",
        "submission_4": "ungradable: submission refused: its folders are nested more than 32 "
                        "deep"}
    report = (tmp_path / "out" / "report.html").read_text()
    assert f"ungradable: syntax error at line {line}" in report
    assert "same student also in submission_2" in report
    assert "ungradable: submission refused: its folders are nested more than 32 deep" in report
