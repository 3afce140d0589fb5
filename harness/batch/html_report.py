"""The batch's HTML pages: ``report.html`` for the class and ``feedback.html`` per submission.

Pages are self-contained (inline CSS and SVG, no script, no server, nothing fetched) and link to
each other with relative paths, so the output folder can be zipped and opened anywhere. Every
text that came from a submission or a results document is HTML-escaped.
"""
from __future__ import annotations

import datetime
import statistics
from html import escape
from pathlib import Path
from string import Template
from typing import Any, Sequence
from urllib.parse import quote

from harness.batch.gradebook import number_key, test_columns
from harness.batch.statuses import statuses
from harness.batch.store import SUBMISSIONS, Record
from harness.timing.calibration import summarised

TEMPLATE = Path(__file__).resolve().parent.parent / "data" / "report_template.html"
HISTOGRAM_BINS = 10
LISTED = 15
FAILING_LISTED = 50


def page(title: str, heading: str, subtitle: str, summary: str, body: str) -> str:
    template = Template(TEMPLATE.read_text(encoding="utf-8"))
    return template.substitute(title=escape(title), heading=escape(heading),
                               subtitle=escape(subtitle), summary=summary, body=body)


def _g(value: float | None) -> str:
    return "–" if value is None else f"{value:.4f}".rstrip("0").rstrip(".")


def _link(record: Record, name: str) -> str:
    return f"{SUBMISSIONS}/{quote(record.submission.key)}/{name}"


def table(headers: Sequence[str], rows: Sequence[Sequence[str]], table_id: str,
           numeric: frozenset[int] = frozenset()) -> str:
    """An HTML table; cells are already-escaped HTML."""
    head = "".join(f'<th class="num">{h}</th>' if i in numeric else f"<th>{h}</th>"
                   for i, h in enumerate(headers))
    body = "\n".join('<tr class="row">' + "".join(
        f'<td class="num">{c}</td>' if i in numeric else f"<td>{c}</td>"
        for i, c in enumerate(row)) + "</tr>" for row in rows)
    return f'<table id="{table_id}"><thead><tr>{head}</tr></thead><tbody>\n{body}\n</tbody></table>'


def histogram_svg(scores: Sequence[float], maximum: float, bins: int = HISTOGRAM_BINS) -> str:
    """An inline SVG bar chart of ``scores`` in ``bins`` equal bins over ``[0, maximum]``.

    Each bar is a ``rect`` of class ``bin`` with a ``data-count`` attribute and a tooltip; a
    score equal to ``maximum`` falls in the last bin.
    """
    width, height, left, bottom, top = 640, 220, 36, 30, 16
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
        label = f"{_g(low)}–{_g(high)}: {count} submission{'s' if count != 1 else ''}"
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


def _pass_rates(records: Sequence[Record]) -> str:
    graded = [r for r in records if r.score is not None]
    rows = []
    for number, title in test_columns(graded):
        tests = [t for r in graded for t in (r.document or {}).get("tests", [])
                 if str(t.get("number")) == number]
        passed = sum(1 for t in tests if t.get("status") == "passed")
        rate = passed / len(tests) if tests else 0.0
        visibility = escape(str(tests[0].get("visibility", "")) if tests else "")
        rows.append([escape(number), escape(title.split(" ", 1)[-1]), visibility,
                     f"{passed}/{len(tests)}",
                     f'<span class="bar" title="{rate:.0%}"><span style="width:{rate:.1%}">'
                     f'</span></span> {rate:.0%}'])
    return table(["#", "test", "visibility", "passed", "pass rate"], rows, "pass-rates",
                  frozenset({3}))


def _student_cell(record: Record) -> str:
    return (f'<a href="{_link(record, "feedback.html")}">'
            f"{escape(record.submission.student_label)}</a>")


def _failed_tests(record: Record) -> list[dict[str, Any]]:
    return [t for t in (record.document or {}).get("tests", []) if t.get("status") != "passed"]


def _slowest(records: Sequence[Record]) -> str:
    timed = sorted((r for r in records if r.seconds), key=lambda r: -r.seconds)[:LISTED]
    rows = [[_student_cell(r), f"{r.seconds:.1f} s",
             f"{float((r.document or {}).get('execution_time', 0)):.1f} s", _g(r.score)]
            for r in timed]
    return table(["student", "wall time", "grading time (results.json)", "score"], rows,
                  "slowest", frozenset({1, 2, 3}))


def _failing(records: Sequence[Record], status: dict[str, str]) -> str:
    failing = [r for r in records if r.problem or _failed_tests(r)]
    failing.sort(key=lambda r: (r.score is not None, r.score or 0.0, r.submission.key))
    rows = []
    for record in failing[:FAILING_LISTED]:
        failed = _failed_tests(record)
        shown = status[record.submission.key]
        what = (f'<span class="bad">{escape(shown)}</span>' if shown != "graded" else
                escape("; ".join(str(t.get("name", "")) for t in failed[:3])
                       + (f" (+{len(failed) - 3} more)" if len(failed) > 3 else "")))
        rows.append([_student_cell(record), f"{_g(record.score)}/{_g(record.max_score)}",
                     str(len(failed)), what])
    more = len(failing) - FAILING_LISTED
    note = f'<p class="muted">and {more} more (see the gradebook)</p>' if more > 0 else ""
    return table(["student", "score", "failed tests", "first failures"], rows, "failing",
                  frozenset({1, 2})) + note


def _all_rows(records: Sequence[Record], status: dict[str, str]) -> str:
    rows = []
    for record in sorted(records, key=lambda r: r.submission.student_label.lower()):
        emails = escape("; ".join(s.email for s in record.submission.students if s.email))
        score = ('<span class="bad">error</span>' if record.problem
                 else f"{_g(record.score)}/{_g(record.max_score)}")
        shown = status[record.submission.key]
        rows.append([_student_cell(record), emails, score,
                     escape(shown) if shown == "graded" else
                     f'<span class="bad">{escape(shown)}</span>', f"{record.seconds:.1f} s",
                     f'<a href="{_link(record, "feedback.html")}">feedback</a> · '
                     f'<a href="{_link(record, "results.json")}">results.json</a>'])
    return table(["student", "email", "score", "status", "time", "files"], rows,
                 "submissions", frozenset({2, 4}))


def render_report(records: Sequence[Record], assignment: str, title: str,
                  sections: Sequence[tuple[str, str, str]] = ()) -> str:
    """The class report: summary, score histogram, pass rate per test, then ``sections``
    (anchor, heading, HTML) such as the insights, slowest and failing submissions, and every
    submission with links to its feedback page and results.json."""
    scores = [r.score for r in records if r.score is not None]
    status = statuses(records)
    maximum = max((r.max_score for r in records if r.document), default=0.0)
    errors = sum(1 for r in records if r.problem)
    summary = " ".join(f"<span>{escape(part)}</span>" for part in [
        f"{len(records)} submissions", f"{len(scores)} graded", f"{errors} without a result",
        f"mean {_g(statistics.mean(scores)) if scores else '–'}",
        f"median {_g(statistics.median(scores)) if scores else '–'}",
        f"out of {_g(maximum)}",
        f"full marks: {sum(1 for s in scores if maximum and s >= maximum)}"])
    body = "\n".join([
        "<h2>Score histogram</h2>", histogram_svg(scores, maximum),
        "<h2>Pass rate per test</h2>", _pass_rates(records),
        *(f'<h2 id="{escape(anchor)}">{escape(heading)}</h2>\n{html}'
          for anchor, heading, html in sections),
        "<h2>Failing submissions</h2>", _failing(records, status),
        "<h2>Slowest submissions</h2>", _slowest(records),
        "<h2>All submissions</h2>", _all_rows(records, status)])
    stamp = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    speed = summarised(r.document for r in records if r.document)
    return page(f"{assignment}: batch report", f"{title} — batch report",
                f"assignment {assignment}, generated {stamp} by gamegrader batch"
                + (f"; {speed}" if speed else ""), summary, body)


def render_feedback(record: Record, assignment: str) -> str:
    """One submission's page: its overall output and every test's score and feedback
    (hidden tests included: this page is for instructors)."""
    document = record.document or {}
    summary = (f'<span>score {escape(_g(record.score))}/{escape(_g(record.max_score))}</span>'
               f'<span>{record.seconds:.1f} s</span>'
               f'<span><a href="../../report.html">class report</a> · '
               f'<a href="results.json">results.json</a></span>')
    parts = []
    if record.problem:
        parts.append(f'<p class="bad">{escape(record.problem)}</p>')
    parts.append(f"<h2>Output</h2><pre>{escape(str(document.get('output', '')))}</pre>")
    rows = []
    for test in sorted(document.get("tests", []), key=lambda t: number_key(t.get("number", ""))):
        status = escape(str(test.get("status", "")))
        status = status if status == "passed" else f'<span class="bad">{status}</span>'
        rows.append([escape(str(test.get("number", ""))), escape(str(test.get("name", ""))),
                     status, f"{_g(test.get('score', 0))}/{_g(test.get('max_score', 0))}",
                     escape(str(test.get("visibility", "visible"))),
                     f"<pre>{escape(str(test.get('output', '')))}</pre>"])
    parts.append("<h2>Tests</h2>")
    parts.append(table(["#", "test", "status", "points", "visibility", "feedback"], rows,
                        "tests", frozenset({3})))
    label = record.submission.student_label
    return page(f"{label}: {assignment}", label,
                 f"submission {record.submission.key} of {assignment}", summary, "\n".join(parts))


def write_pages(out: Path, records: Sequence[Record], assignment: str, title: str,
                sections: Sequence[tuple[str, str, str]] = ()) -> Path:
    """Write every feedback page and ``out/report.html`` (with ``sections``, see
    ``render_report``); return the report's path."""
    for record in records:
        if record.document is not None:
            page = record.folder(out) / "feedback.html"
            page.parent.mkdir(parents=True, exist_ok=True)
            page.write_text(render_feedback(record, assignment), encoding="utf-8")
    report = out / "report.html"
    report.write_text(render_report(records, assignment, title, sections), encoding="utf-8")
    return report
