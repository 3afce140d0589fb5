"""The batch's HTML report rendered by headless Chromium (Debian's ``chromium`` package).

scripts/test.sh installs Chromium when run as root (as CI is); elsewhere these tests are skipped
with the reason shown. The records are made from the real Dominoes cases with chosen
verdicts, so no grading is needed.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from gg_testing import CHROMIUM, NO_CHROMIUM, chromium
from workflow_support import ASSIGNMENT

from harness.batch.discover import Student, Submission
from harness.batch.html_report import histogram_svg, write_pages
from harness.batch.store import Record
from harness.grading import results as results_file
from harness.grading.verdicts import CaseResult, Verdict
from harness.spec import find_assignment
from harness.spec.loader import load_all_cases

pytestmark = pytest.mark.slow

NAMES = ["Ada Lovelace", "Zoë <script>alert(1)</script>", "Bob Bishop", "Carol Chen"]


def class_records(folder: Path) -> list[Record]:
    """Four graded submissions (each failing every k-th case) and one without a result."""
    cases = load_all_cases(find_assignment(ASSIGNMENT))
    records = []
    for number, name in enumerate(NAMES):
        results = [CaseResult(case, Verdict.WRONG_ANSWER, 0.0, "wrong move")
                   if number and index % (number + 1) == 0
                   else CaseResult(case, Verdict.PASSED, case.points)
                   for index, case in enumerate(cases)]
        document = results_file.build(results, output=f"graded {name}", execution_time=number + 1)
        submission = Submission(f"student_{number}", folder / f"s{number}",
                                (Student(name, f"s{number}@example.edu"),))
        records.append(Record(submission, document, 2.0 + number, ""))
    broken = Submission("student_9", folder / "s9", (Student("Dan Dunn"),))
    records.append(Record(broken, results_file.provisional("stopped"), 0.0,
                          "the grading process exited with status 1"))
    return records


def test_histogram_puts_each_score_in_one_bin_and_full_marks_in_the_last():
    svg = histogram_svg([0.0, 3.9, 4.0, 40.0, 40.0], 40.0)
    counts = [int(c) for c in re.findall(r'data-count="(\d+)"', svg)]
    assert counts == [2, 1, 0, 0, 0, 0, 0, 0, 0, 2]


@pytest.mark.skipif(CHROMIUM is None, reason=NO_CHROMIUM)
def test_report_renders_in_headless_chromium_with_rows_histogram_and_links(tmp_path):
    out = tmp_path / "out"
    records = class_records(tmp_path)
    for record in records:
        results_file.write(record.folder(out) / "results.json", record.document)
    report = write_pages(out, records, ASSIGNMENT, "Dominoes")

    done = chromium("--dump-dom", report.as_uri(), profile=tmp_path / "profile")
    assert done.returncode == 0, done.stderr[-2000:]
    dom = done.stdout
    table = dom[dom.index('<table id="submissions"'):]
    table = table[:table.index("</table>")]
    rows = re.findall(r'<tr class="row">(.*?)</tr>', table, flags=re.S)
    assert len(rows) == 5
    assert "Ada Lovelace" in rows[0] and "Dan Dunn" in rows[3]  # sorted by name
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in dom and "<script" not in dom
    bins = [int(c) for c in re.findall(r'<rect class="bin" data-count="(\d+)"', dom)]
    assert len(bins) == 10 and sum(bins) == 4 and bins[-1] == 1  # Ada has full marks
    assert 'id="pass-rates"' in dom and dom.count('<tr class="row">') > 84
    links = re.findall(r'href="(submissions/[^"]+)"', dom)
    assert links and all((out / link).is_file() for link in links)
    assert "the grading process exited with status 1" in dom  # listed among the failing

    page = out / "submissions" / "student_1" / "feedback.html"
    feedback = chromium("--dump-dom", page.as_uri(), profile=tmp_path / "profile").stdout
    assert feedback.count('<tr class="row">') == 86 and "wrong move" in feedback

    shot = tmp_path / "report.png"
    chromium(f"--screenshot={shot}", "--window-size=1200,1600", report.as_uri(),
             profile=tmp_path / "profile")
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
