"""Issue 53, item 3: every status says what happened, in the gradebook, the report and the
student's own total. A file whose import hangs or raises is ``ungradable`` with the reason (it was
``graded`` 0/8, its tests "not run (see above)" with nothing above in the report); code that needs
a newer Python than Gradescope's keeps its score here but says it would score 0 there; scores
print with at most two decimals where people read them."""
from __future__ import annotations

import csv
import re

import pytest
from workflow_support import ASSIGNMENT, SOLUTION, gamegrader, small_root

from harness.batch.discover import Student, Submission
from harness.batch.html_report import render_feedback
from harness.batch.store import Record
from harness.grading.report import render

pytestmark = pytest.mark.slow

NEWER_PYTHON = SOLUTION.read_text() + (
    "\n\ndef _never_called():\n    try:\n        pass\n    except* ValueError:\n        pass\n")
SUBMISSIONS = {
    "hangs": "import time\ntime.sleep(1000)\n" + SOLUTION.read_text(),
    "raises": "raise RuntimeError('not ready yet')\n" + SOLUTION.read_text(),
    "newer_python": NEWER_PYTHON,
}
ZERO_THERE = "would score 0 on Gradescope's Python 3.10"


def test_the_gradebook_report_and_totals_say_what_stopped_or_flags_a_submission(tmp_path):
    env = small_root(tmp_path / "root")
    submissions = tmp_path / "class"
    for name, text in SUBMISSIONS.items():
        (submissions / name).mkdir(parents=True)
        (submissions / name / "adversarial_search.py").write_text(text)
    out = tmp_path / "out"
    done = gamegrader("batch", "--assignment", ASSIGNMENT, str(submissions), "--out", str(out),
                      "--timeout-cap", "2", "--no-progress", env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    with (out / "gradebook.csv").open(newline="", encoding="utf-8") as stream:
        status = {row["submission"]: row["status"] for row in csv.DictReader(stream)}
    assert status["hangs"].startswith("ungradable: importing adversarial_search.py did not "
                                      "finish within")
    assert status["raises"] == ("ungradable: importing adversarial_search.py raised "
                                "RuntimeError: not ready yet")
    assert status["newer_python"] == f"graded; {ZERO_THERE}"
    report = (out / "report.html").read_text(encoding="utf-8")
    assert ZERO_THERE.replace("'", "&#x27;") in report
    row = re.search(r"<tr[^>]*>(?:(?!</tr>).)*newer_python(?:(?!</tr>).)*</tr>", report,
                    flags=re.S)
    assert row and "full marks" not in row.group(0)  # not beside "would score 0"
    assert "ungradable: importing adversarial_search.py did not finish" in report

    student = tmp_path / "mine" / "adversarial_search.py"
    student.parent.mkdir()
    student.write_text(NEWER_PYTHON)
    checked = gamegrader("check", str(student), env=env)
    assert f"Total on the cases run here: 8/8 points ({ZERO_THERE})" in checked.stdout
    graded = gamegrader("grade", "--assignment", ASSIGNMENT, "--submission", str(student),
                        "--output", str(tmp_path / "r.json"), "--quiet", env=env)
    assert f"Score: 8/8 points ({ZERO_THERE})" in graded.stdout


def test_scores_print_with_at_most_two_decimals_for_people():
    document = {"output": "", "tests": [
        {"name": "a", "number": "1.1", "score": 0.333333, "max_score": 0.5, "status": "failed",
         "output": "Wrong answer\nwrong"},
        {"name": "b", "number": "1.2", "score": 32.833367, "max_score": 39.5,
         "status": "failed", "output": "Wrong answer\nwrong"}]}
    shown = render(document)
    assert "[0.33/0.5]" in shown and "[32.83/39.5]" in shown
    assert "Total on the cases run here: 33.17/40 points" in shown
    assert "0.333333" not in shown and "33.1667" not in shown


def test_a_feedback_page_shows_the_verdict_without_markdown_marks_and_two_decimals(tmp_path):
    test = {"name": "b", "number": "1.2", "score": 0.333333, "max_score": 0.5,
            "status": "failed", "output_format": "md",
            "output": "**Wrong answer** (0.33/0.5 points)\n\n```\nleaf count wrong\n```\n"}
    record = Record(Submission("s1", tmp_path / "s1", (Student("Ada"),)),
                    {"score": 0.333333, "output": "", "tests": [test],
                     "extra_data": {"final": True}}, 1.0, "")
    page = render_feedback(record, "adversarial_search")
    assert "Wrong answer (0.33/0.5 points)" in page and "**" not in page
    assert "0.33/0.5" in page and "0.3333" not in page
