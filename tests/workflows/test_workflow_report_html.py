"""The batch's HTML report rendered by headless Chromium (Debian's ``chromium`` package), read
as a TA reads it: students before statistics, the ungradable submission listed once, failures
with their reason, feedback pages with their failed rows marked.

scripts/test.sh installs Chromium when run as root (as CI is); elsewhere these tests are skipped
with the reason shown. The records are made from the real Dominoes cases with chosen
verdicts, so no grading is needed.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

import pytest
from gg_browser import chromium_tab, loaded_dom
from gg_testing import CHROMIUM, NO_CHROMIUM
from workflow_support import ASSIGNMENT

from harness.batch.discover import Student, Submission
from harness.batch.html_report import histogram_svg, write_pages
from harness.batch.insights import InsightOptions, write_insights
from harness.batch.store import Record
from harness.grading import results as results_file
from harness.records.verdicts import CaseResult, Verdict
from harness.spec import find_assignment
from harness.spec.loader import load_all_cases

pytestmark = pytest.mark.slow

NAMES = ["Ada Lovelace", "Zoë <script>alert(1)</script>", "Bob Bishop", "Carol Chen"]
CALL = ">>> g.get_best_move(True, 3)"
REASON = "move right; value differs (yours: {}), lower than the reference's"
SYNTAX = ("not run: this case uses adversarial_search.py: importing it raised SyntaxError "
          "(the message at the top of the results says where and why)")
SCREEN = 900  # the height of the window the pages are looked at in


def class_records(folder: Path) -> list[Record]:
    """Four graded submissions (each failing every k-th case, the first none), one ungradable
    (a syntax error blocks every case) and one without a result."""
    cases = load_all_cases(find_assignment(ASSIGNMENT))
    records = []
    for number, name in enumerate(NAMES):
        results = [CaseResult(case, Verdict.WRONG_ANSWER, 0.0, f"{CALL}\n  {REASON.format(index)}")
                   if number and index % (number + 1) == 0
                   else CaseResult(case, Verdict.PASSED, case.points)
                   for index, case in enumerate(cases)]
        document = results_file.build(results, output=f"graded {name}", execution_time=number + 1)
        submission = Submission(f"student_{number}", folder / f"s{number}",
                                (Student(name, f"s{number}@example.edu"),))
        records.append(Record(submission, document, 2.0 + number, ""))
    blocked = results_file.build(results_file.not_run(cases, SYNTAX), output="SyntaxError",
                                 execution_time=1, extra={"ungradable": "syntax error at line 25"})
    records.append(Record(Submission("student_8", folder / "s8", (Student("Eve Evans"),)),
                          blocked, 1.0, ""))
    broken = Submission("student_9", folder / "s9", (Student("Dan Dunn"),))
    records.append(Record(broken, results_file.provisional("stopped"), 0.0,
                          "the grading process exited with status 1"))
    return records


def test_histogram_puts_each_score_in_one_bin_and_full_marks_in_the_last():
    svg = histogram_svg([0.0, 3.9, 4.0, 40.0, 40.0], 40.0)
    counts = [int(c) for c in re.findall(r'data-count="(\d+)"', svg)]
    assert counts == [2, 1, 0, 0, 0, 0, 0, 0, 0, 2]


@pytest.fixture
def tab() -> Iterator[Any]:
    """A tab of the screen's size, for every page the test reads."""
    with chromium_tab(1200, SCREEN) as opened:
        yield opened


STUDENTS_TOP = 'document.getElementById("submissions").getBoundingClientRect().top'
SORTED_BY_SCORE = ('(() => { const b = document.querySelectorAll("#submissions th button")[1]; '
                   'b.click(); b.click(); return Array.from(document.querySelectorAll('
                   '"#submissions tbody tr")).map((r) => r.cells[0].textContent.slice(0, 3))'
                   '.join(","); })()')


@pytest.mark.skipif(CHROMIUM is None, reason=NO_CHROMIUM)
def test_report_shows_students_first_failing_first_and_the_ungradable_once(tmp_path: Path,
                                                                          tab: Any) -> None:
    out = tmp_path / "out"
    records = class_records(tmp_path)
    for record in records:
        results_file.write(record.folder(out) / "results.json", record.document)
    sections = write_insights(out, records, find_assignment(ASSIGNMENT), InsightOptions())
    report = write_pages(out, records, ASSIGNMENT, "Dominoes", sections)

    dom = loaded_dom(tab, report)
    assert dom.index('id="histogram"') < dom.index('id="submissions"') \
        < dom.index('id="common-mistakes"') < dom.index('id="pass-rates"')
    table = dom[dom.index('<table id="submissions"'):]
    table = table[:table.index("</table>")]
    rows = re.findall(r'<tr role="row" class="row[^"]*">(.*?)</tr>', table, flags=re.S)
    assert len(rows) == 6
    order = [next(n for n in [*NAMES, "Eve Evans", "Dan Dunn"]
                  if n.replace("<", "&lt;").replace(">", "&gt;") in row) for row in rows]
    assert order == ["Dan Dunn", "Eve Evans", "Zoë <script>alert(1)</script>", "Bob Bishop",
                     "Carol Chen", "Ada Lovelace"]  # failing first, the lowest score first
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in dom and "<script>alert(1)" not in dom
    # The ungradable submission: listed once, with its reason, and in no statistic.
    assert dom.count("syntax error at line 25") == 1 and "Not run" not in dom
    assert "SyntaxError" not in dom
    bins = [int(c) for c in re.findall(r'<rect class="bin" data-count="(\d+)"', dom)]
    assert len(bins) == 10 and sum(bins) == 4 and bins[-1] == 1  # Ada has full marks
    # Failures with their reason, not cut to the call; grouped across tests.
    mistakes = dom[dom.index('<table id="common-mistakes"'):]
    mistakes = mistakes[:mistakes.index("</table>")]
    assert "value differs (yours: …), lower than the reference's" in mistakes
    assert "get_best_move" not in re.split(r"<td[^>]*>", mistakes.split("<tbody")[1])[1]
    assert mistakes.count('<tr role="row" class="row">') == 1
    assert all(f'href="submissions/student_{n}/feedback.html"' in mistakes for n in (1, 2, 3))
    links = re.findall(r'href="(submissions/[^"]+)"', dom)
    assert links and all((out / link).is_file() for link in links)
    assert "the grading process exited with status 1" in dom

    # The students table starts within the first screen, and sorts when its header is clicked.
    assert float(tab.evaluate(STUDENTS_TOP)) < SCREEN * 0.6
    assert tab.evaluate(SORTED_BY_SCORE) == \
        "Ada,Car,Bob,Zoë,Eve,Dan"  # clicked twice: highest score first

    page = out / "submissions" / "student_1" / "feedback.html"
    feedback = loaded_dom(tab, page)
    failed = feedback.count('<tr role="row" class="row failed">')
    assert failed == 43 and feedback.count('<tr role="row" class="row">') == 85 - 43
    assert feedback.count("lower than the reference") == failed
    blocked = out / "submissions" / "student_8" / "feedback.html"
    text = loaded_dom(tab, blocked)
    assert text.count(SYNTAX) == 1 and "None of the 85 tests could run" in text

    for name, shown in [("report", report), ("feedback", page), ("blocked", blocked)]:
        shot = tmp_path / f"{name}.png"
        tab.goto(shown.as_uri())
        tab.screenshot(path=str(shot))
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
