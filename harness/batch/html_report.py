"""The batch's HTML pages: ``report.html`` for the class and ``feedback.html`` per submission.

The report is laid out for a TA with ten seconds: the score distribution, then the students
(sortable, failing ones first, each linked to their feedback page), then the class's common
mistakes grouped by reason; per-test statistics and timings come last, folded. An ungradable
submission (no case could run) is counted apart and listed once, among the students, with why.

Pages share the look of every gamegrader page (``harness.pages``), are self-contained (inline
CSS, SVG and the table sorter, nothing fetched) and link to each other with relative paths, so
the output folder can be zipped and opened anywhere. Every text that came from a submission or
a results document is HTML-escaped.
"""
from __future__ import annotations

import datetime
import statistics
from collections import Counter
from html import escape
from pathlib import Path
from typing import Any, Sequence
from urllib.parse import quote

from harness.batch.failures import reason_of
from harness.batch.gradebook import number_key, test_columns
from harness.batch.statuses import base_status, is_ungradable, statuses
from harness.batch.store import SUBMISSIONS, Record
from harness.grading.feedback import output_text, points_text
from harness.intake.python_version import NEWER_PYTHON
from harness.pages.boards import board_tables
from harness.pages.layout import Cell, Row, page, table
from harness.timing.calibration import summarised

HISTOGRAM_BINS = 10
LISTED = 15
REASONS_PER_STUDENT = 2

__all__ = ["histogram_svg", "page", "render_feedback", "render_report", "table", "write_pages"]


def _g(value: float | None) -> str:
    """Points as people read them (two decimals; the CSV files keep four)."""
    return "–" if value is None else points_text(value)


def _link(record: Record, name: str) -> str:
    return f"{SUBMISSIONS}/{quote(record.submission.key)}/{name}"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def histogram_svg(scores: Sequence[float], maximum: float, bins: int = HISTOGRAM_BINS) -> str:
    """An inline SVG bar chart of ``scores`` in ``bins`` equal bins over ``[0, maximum]``.

    Each bar is a ``rect`` of class ``bin`` with a ``data-count`` attribute and a tooltip; a
    score equal to ``maximum`` falls in the last bin.
    """
    width, height, left, bottom, top = 640, 150, 36, 30, 16
    upper = maximum if maximum > 0 else max([*scores, 1.0])
    counts = [0] * bins
    for score in scores:
        index = min(bins - 1, max(0, int(score / upper * bins)))
        counts[index] += 1
    tallest = max(counts) or 1
    slot = (width - left - 8) / bins
    parts = [f'<svg id="histogram" xmlns="http://www.w3.org/2000/svg" width="{width}" '
             f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="Histogram of {len(scores)} scores out of {_g(upper)}">',
             f'<line x1="{left}" y1="{height - bottom}" x2="{width - 8}" y2="{height - bottom}" '
             'stroke="#999"/>']
    for index, count in enumerate(counts):
        low, high = upper * index / bins, upper * (index + 1) / bins
        bar = (height - bottom - top) * count / tallest
        x = left + index * slot + 2
        y = height - bottom - bar
        label = f"{_g(low)}–{_g(high)}: {_plural(count, 'submission')}"
        parts.append(f'<rect class="bin" data-count="{count}" x="{x:.1f}" y="{y:.1f}" '
                     f'width="{slot - 4:.1f}" height="{bar:.1f}"><title>{escape(label)}</title>'
                     '</rect>')
        if count:
            parts.append(f'<text x="{x + (slot - 4) / 2:.1f}" y="{y - 3:.1f}" '
                         f'text-anchor="middle">{count}</text>')
        parts.append(f'<text x="{x + (slot - 4) / 2:.1f}" y="{height - bottom + 14}" '
                     f'text-anchor="middle">{_g(low)}</text>')
    parts.append(f'<text x="{width - 8}" y="{height - 4}" text-anchor="end">score (max '
                 f'{_g(upper)})</text></svg>')
    return "\n".join(parts)


def _failed_tests(record: Record) -> list[dict[str, Any]]:
    return [t for t in (record.document or {}).get("tests", []) if t.get("status") != "passed"]


def _kind(record: Record) -> str:
    """``error`` (no final result: the grader's problem), ``ungradable`` or ``graded``."""
    if record.problem and not is_ungradable(record):
        return "error"
    return "ungradable" if is_ungradable(record) else "graded"


def _graded(records: Sequence[Record]) -> list[Record]:
    return [r for r in records if _kind(r) == "graded"]


def apart(records: Sequence[Record]) -> str:
    """How many submissions are counted apart from the class's statistics, in words ("" for
    none), e.g. "1 ungradable and 2 without a result"."""
    ungradable = sum(1 for r in records if _kind(r) == "ungradable")
    errors = sum(1 for r in records if _kind(r) == "error")
    parts = ([f"{ungradable} ungradable"] if ungradable else []) + (
        [f"{errors} without a result"] if errors else [])
    return " and ".join(parts)


def _student_cell(record: Record) -> Cell:
    emails = "; ".join(s.email for s in record.submission.students if s.email)
    name = escape(record.submission.student_label)
    html = f'<a href="{_link(record, "feedback.html")}">{name}</a>'
    if emails:
        html += f'<br><span class="muted">{escape(emails)}</span>'
    return Cell(html, record.submission.student_label.lower())


def _score_cell(record: Record) -> Cell:
    if _kind(record) == "error":
        return Cell('<span class="bad">no result</span>', -2)
    share = (record.score or 0.0) / record.max_score if record.max_score else 0.0
    if _kind(record) == "ungradable":
        return Cell(f'<span class="bad">{_g(record.score)}/{_g(record.max_score)}</span>', -1)
    return Cell(f'<span class="bar" title="{share:.0%}"><span style="width:{share:.1%}">'
                f"</span></span>{_g(record.score)}/{_g(record.max_score)}", round(share, 6))


def _what_went_wrong(record: Record, status: str) -> str:
    kind = _kind(record)
    if kind != "graded":
        return f'<span class="bad">{escape(status)}</span>'
    reasons = Counter(reason_of(output_text(t)) for t in _failed_tests(record))
    if not reasons:  # not "full marks" beside a warning that Gradescope would give 0
        extra = (record.document or {}).get("extra_data")
        newer = isinstance(extra, dict) and extra.get(NEWER_PYTHON)
        text = "" if newer else '<span class="good">full marks</span>'
    else:
        shown = [f"{escape(reason)} <span class=\"muted\">({_plural(count, 'test')})</span>"
                 for reason, count in reasons.most_common(REASONS_PER_STUDENT)]
        more = len(reasons) - REASONS_PER_STUDENT
        text = "<br>".join(shown) + (f' <span class="muted">and {more} more</span>'
                                      if more > 0 else "")
    if status != "graded":  # e.g. "graded; same student also in ..."
        text += ("<br>" if text else "") + f'<span class="bad">{escape(status)}</span>'
    return text


def _order(record: Record) -> tuple[Any, ...]:
    """Failing first: no result, ungradable, then by share of the points, then by name."""
    rank = {"error": 0, "ungradable": 1, "graded": 2}[_kind(record)]
    share = (record.score or 0.0) / record.max_score if record.max_score else 0.0
    return (rank, share, record.submission.student_label.lower())


def _students(records: Sequence[Record], status: dict[str, str]) -> str:
    rows = []
    for record in sorted(records, key=_order):
        failed = _failed_tests(record)
        css = {"error": "failed", "ungradable": "ungradable"}.get(
            _kind(record), "failed" if failed else "")
        total = len((record.document or {}).get("tests", []))
        rows.append(Row([
            _student_cell(record), _score_cell(record),
            Cell(f"{len(failed)}/{total}" if _kind(record) == "graded" else "–",
                 len(failed) if _kind(record) == "graded" else -1),
            _what_went_wrong(record, status[record.submission.key]),
            Cell(f"{record.seconds:.1f} s", record.seconds),
            f'<a href="{_link(record, "results.json")}">results.json</a>'], css))
    return (table(["student", "score", "failed tests", "what went wrong", "time", "files"], rows,
                  "submissions", frozenset({1, 2, 4}), sortable=True)
            + '<p class="muted">Click a column to sort; a name opens that submission\'s '
              'feedback page, failed tests marked.</p>')


def _per_test(records: Sequence[Record]) -> str:
    """Pass rate and most common reason of every test someone failed, hardest first."""
    graded = _graded(records)
    rows: list[tuple[float, tuple[int, ...], list[str | Cell]]] = []
    untouched = 0
    for number, title in test_columns(graded):
        tests = [t for r in graded for t in (r.document or {}).get("tests", [])
                 if str(t.get("number")) == number]
        failed = [t for t in tests if t.get("status") != "passed"]
        if not failed:
            untouched += 1
            continue
        rate = (len(tests) - len(failed)) / len(tests)
        reason, count = Counter(reason_of(output_text(t)) for t in failed).most_common(1)[0]
        rows.append((rate, number_key(number), [
            escape(number), escape(title.split(" ", 1)[-1]),
            escape(str(tests[0].get("visibility", ""))),
            Cell(f"{len(tests) - len(failed)}/{len(tests)}", rate),
            Cell(f'<span class="bar"><span style="width:{rate:.1%}"></span></span>{rate:.0%}',
                 rate),
            f"{escape(reason)} <span class=\"muted\">({count})</span>"]))
    rows.sort(key=lambda item: (item[0], item[1]))
    note = (f'<p class="muted">{_plural(untouched, "other test")} passed by every graded '
            'submission; every failure of every test, with the students, is in '
            '<a href="failures.csv">failures.csv</a>.</p>')
    if not rows:
        return note
    return table(["#", "test", "visibility", "passed", "pass rate", "most common failure"],
                 [cells for _, _, cells in rows], "pass-rates", frozenset({3}),
                 sortable=True) + note


def _slowest(records: Sequence[Record]) -> str:
    timed = sorted((r for r in records if r.seconds), key=lambda r: -r.seconds)[:LISTED]
    rows: list[list[str | Cell]] = [
        [_student_cell(r), f"{r.seconds:.1f} s",
         f"{float((r.document or {}).get('execution_time', 0)):.1f} s", _g(r.score)]
        for r in timed]
    return table(["student", "wall time", "grading time (results.json)", "score"], rows,
                 "slowest", frozenset({1, 2, 3}))


def _summary(records: Sequence[Record]) -> str:
    graded = _graded(records)
    scores = [r.score for r in graded if r.score is not None]
    maximum = max((r.max_score for r in records if r.document), default=0.0)
    ungradable = sum(1 for r in records if _kind(r) == "ungradable")
    errors = sum(1 for r in records if _kind(r) == "error")
    students = sum(len(r.submission.students) for r in records)
    chips = [(f"{_plural(len(records), 'submission')} ({_plural(students, 'student')})", ""),
             (f"{len(graded)} graded", ""),
             (f"{ungradable} ungradable", "bad" if ungradable else ""),
             (f"{errors} without a result", "bad" if errors else ""),
             (f"median {_g(statistics.median(scores)) if scores else '–'} of {_g(maximum)}", ""),
             (f"mean {_g(round(statistics.mean(scores), 2)) if scores else '–'}", ""),
             (f"full marks: {sum(1 for s in scores if maximum and s >= maximum)}", "")]
    return "".join(f'<span class="{css}">{escape(text)}</span>' if css else
                   f"<span>{escape(text)}</span>" for text, css in chips)


def render_report(records: Sequence[Record], assignment: str, title: str,
                  sections: Sequence[tuple[str, str, str]] = ()) -> str:
    """The class report: summary, score distribution, students, then ``sections`` (anchor,
    heading, HTML: the common mistakes, grade changes, similarity), then per-test statistics
    and the slowest submissions, folded."""
    status = statuses(records)
    graded = _graded(records)
    maximum = max((r.max_score for r in records if r.document), default=0.0)
    elsewhere = apart(records)
    drawn = (f'<p class="muted">The {_plural(len(graded), "graded submission")}'
             + (f"; {elsewhere} counted apart (see Students)" if elsewhere else "") + ".</p>")
    body = "\n".join([
        '<h2 id="distribution">Score distribution</h2>',
        histogram_svg([r.score for r in graded if r.score is not None], maximum), drawn,
        '<h2 id="students">Students</h2>', _students(records, status),
        *(f'<h2 id="{escape(anchor)}">{escape(heading)}</h2>\n{html}'
          for anchor, heading, html in sections),
        '<h2 id="statistics">Statistics</h2>',
        '<details id="per-test"><summary>Pass rate per test (tests someone failed, hardest '
        f"first)</summary>{_per_test(records)}</details>",
        f'<details id="timings"><summary>Slowest submissions</summary>{_slowest(records)}'
        "</details>"])
    stamp = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    speed = summarised(r.document for r in records if r.document)
    nav = [("gradebook.csv", "gradebook.csv"), ("canvas.csv", "canvas.csv"),
           ("failures.csv", "failures.csv")]
    if any(anchor == "similarity" for anchor, _, _ in sections):
        nav.append(("similarity.html", "similarity"))
    return page(f"{assignment}: batch report", title,
                f"assignment {assignment}, generated {stamp} by gamegrader batch"
                + (f"; {speed}" if speed else ""), _summary(records), body,
                kind="batch report", nav=nav)


def _test_rows(tests: Sequence[dict[str, Any]]) -> list[Row]:
    rows = []
    for test in sorted(tests, key=lambda t: number_key(t.get("number", ""))):
        passed = test.get("status") == "passed"
        status = escape(str(test.get("status", "")))
        number = escape(str(test.get("number", "")))
        rows.append(Row([
            f'<span id="test-{number}">{number}</span>', escape(str(test.get("name", ""))),
            status if passed else f'<span class="bad">{status}</span>',
            f"{_g(test.get('score', 0))}/{_g(test.get('max_score', 0))}",
            escape(str(test.get("visibility", "visible"))),
            f"<pre>{escape(output_text(test))}</pre>"
            + board_tables(output_text(test))], "" if passed else "failed"))
    return rows


def render_feedback(record: Record, assignment: str) -> str:
    """One submission's page: what went wrong at the top, its overall output, and every test's
    score and feedback, failed rows marked (hidden tests included: this page is for staff).
    An ungradable submission's blocked tests are listed by name under one reason."""
    document = record.document or {}
    tests = document.get("tests", [])
    failed = _failed_tests(record)
    summary = "".join([
        f"<span>score {escape(_g(record.score))}/{escape(_g(record.max_score))}</span>",
        f'<span class="bad">{len(failed)} of {len(tests)} tests failed</span>' if failed
        else f"<span>all {len(tests)} tests passed</span>" if tests else "<span>no tests</span>",
        f"<span>{record.seconds:.1f} s</span>"])
    parts = []
    status = base_status(record)
    if status != "graded":
        parts.append(f'<p class="bad" id="problem">{escape(status)}</p>')
    if failed and _kind(record) == "graded":
        links = ", ".join(f'<a href="#test-{escape(str(t.get("number", "")))}">'
                          f'{escape(str(t.get("number", "")))}</a>' for t in failed)
        parts.append(f'<p id="failed-list">Failed: {links}</p>')
    parts.append(f"<h2>Output</h2><pre>{escape(str(document.get('output', '')))}</pre>")
    parts.append("<h2>Tests</h2>")
    if _kind(record) == "ungradable" and tests:
        reasons = Counter(output_text(t) for t in tests)
        reason, _ = reasons.most_common(1)[0]
        names = "".join(f"<li>{escape(str(t.get('number', '')))} "
                        f"{escape(str(t.get('name', '')))}</li>" for t in tests)
        parts.append(f'<p>None of the {len(tests)} tests could run:</p><pre>{escape(reason)}'
                     f"</pre><details><summary>the tests</summary><ol>{names}</ol></details>")
    else:
        parts.append(table(["#", "test", "status", "points", "visibility", "feedback"],
                           _test_rows(tests), "tests", frozenset({0, 3}), sortable=True))
    label = record.submission.student_label
    return page(f"{label}: {assignment}", label,
                f"submission {record.submission.key} of {assignment}", summary,
                "\n".join(parts), kind="feedback",
                nav=[("../../report.html", "class report"), ("results.json", "results.json")])


def write_pages(out: Path, records: Sequence[Record], assignment: str, title: str,
                sections: Sequence[tuple[str, str, str]] = ()) -> Path:
    """Write every feedback page and ``out/report.html`` (with ``sections``, see
    ``render_report``); return the report's path."""
    for record in records:
        if record.document is not None:
            target = record.folder(out) / "feedback.html"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(render_feedback(record, assignment), encoding="utf-8")
    report = out / "report.html"
    report.write_text(render_report(records, assignment, title, sections), encoding="utf-8")
    return report
