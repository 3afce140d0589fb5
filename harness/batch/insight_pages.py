"""The instructor-insight parts of the batch report: common failures per test, whose grade
moved since an earlier run, and the similarity pages (ranked pairs, and each pair side by side
with the shared code highlighted). Same rules as ``html_report``: self-contained pages, every
text from a submission escaped (the highlighted code is escaped by the similarity module, which
adds only ``<mark>`` tags)."""
from __future__ import annotations

from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Sequence

from harness.batch.failures import FailureGroup, as_rows
from harness.batch.html_report import page, table
from harness.batch.regrade import StudentChange
from harness.batch.similarity import MAX_COMPARED_CHARS, Document, Pair

SIMILARITY_PAGE = "similarity.html"
PAIR_FOLDER = "similarity"
PAIRS_IN_REPORT = 10
PAIRS_LISTED = 200


@dataclass(frozen=True)
class Insights:
    """What the class report shows beyond scores (each part optional)."""

    failures: Sequence[FailureGroup] = ()
    changes: Sequence[StudentChange] | None = None
    compared_with: str = ""
    pairs: Sequence[Pair] | None = None


def _share(value: float) -> str:
    return f"{value:.0%}"


def failures_section(groups: Sequence[FailureGroup]) -> str:
    rows = [[escape(r["number"]), escape(r["test"]), escape(r["pattern"]),
             f'{r["count"]} student{"s" if r["count"] != 1 else ""}']
            for r in as_rows(groups)]
    if not rows:
        return '<p class="muted">No test failed.</p>'
    return (table(["#", "test", "failure", "how many"], rows, "common-failures", frozenset({3}))
            + '<p class="muted">The three most common kinds of failure of each test; all of '
              'them, with the students, are in <a href="failures.csv">failures.csv</a>.</p>')


def changes_section(changes: Sequence[StudentChange], compared_with: str) -> str:
    if not changes:
        return ('<p id="changes">No score or test outcome changed since '
                f'{escape(compared_with)}.</p>')
    rows = []
    for change in changes:
        tests = "; ".join(
            f"{t.number} {t.name}: {t.old.describe() if t.old else 'absent'} → "
            f"{t.new.describe() if t.new else 'absent'}" for t in change.tests[:6])
        more = f" (+{len(change.tests) - 6} more)" if len(change.tests) > 6 else ""
        old = "–" if change.old_score is None else f"{change.old_score:g}"
        new = "–" if change.new_score is None else f"{change.new_score:g}"
        rows.append([escape(change.label), f"{old} → {new}", f"{change.delta:+g}",
                     escape(tests + more)])
    return (f'<p class="muted">Compared with {escape(compared_with)}; every change is also in '
            '<a href="changes.csv">changes.csv</a>.</p>'
            + table(["student", "score", "change", "tests that changed"], rows, "changes",
                    frozenset({1, 2})))


def _pair_link(index: int) -> str:
    return f"{PAIR_FOLDER}/pair-{index + 1:03d}.html"


def _pair_rows(pairs: Sequence[Pair], prefix: str = "") -> list[list[str]]:
    return [[f'<a href="{prefix}{_pair_link(i)}">{_share(p.score)}</a>',
             escape(p.left.label), _share(p.left_share),
             escape(p.right.label) + (' <span class="muted">(earlier term)</span>'
                                      if p.right.is_reference else ""),
             _share(p.right_share)] for i, p in enumerate(pairs)]


def _not_compared(skipped: Sequence[Document]) -> str:
    """The submissions too large to compare, named (a place to look, like a high score)."""
    if not skipped:
        return ""
    names = "; ".join(f"{escape(d.label)} ({len(d.text) / 1e6:.1f} M characters)"
                      for d in skipped)
    return (f'<p class="bad" id="not-compared">Not compared (over {MAX_COMPARED_CHARS:,} '
            f'characters of Python): {names}.</p>')


def similarity_section(pairs: Sequence[Pair], skipped: Sequence[Document] = ()) -> str:
    if not pairs:
        return ('<p class="muted">No two submissions share code beyond the template.</p>'
                + _not_compared(skipped))
    return (_not_compared(skipped)
            + table(["similarity", "submission", "shared", "other", "shared"],
                    _pair_rows(pairs[:PAIRS_IN_REPORT]), "similar-pairs", frozenset({0, 2, 4}))
            + f'<p class="muted">All pairs: <a href="{SIMILARITY_PAGE}">{SIMILARITY_PAGE}</a>.</p>')


def write_similarity_pages(out: Path, pairs: Sequence[Pair], assignment: str,
                           skipped: Sequence[Document] = ()) -> Path:
    """``out/similarity.html`` (pairs ranked, and the submissions too large to compare) and
    one side-by-side page per listed pair."""
    listed = list(pairs[:PAIRS_LISTED])
    folder = out / PAIR_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    for index, pair in enumerate(listed):
        left_html, right_html = pair.highlighted()
        body = ('<div class="side-by-side">'
                f'<div><h2>{escape(pair.left.label)} ({_share(pair.left_share)} shared)</h2>'
                f'<pre class="code">{left_html}</pre></div>'
                f'<div><h2>{escape(pair.right.label)} ({_share(pair.right_share)} shared)</h2>'
                f'<pre class="code">{right_html}</pre></div></div>')
        summary = (f'<span>similarity {_share(pair.score)}</span>'
                   f'<span><a href="../{SIMILARITY_PAGE}">all pairs</a> · '
                   '<a href="../report.html">class report</a></span>')
        (out / _pair_link(index)).write_text(page(
            f"{assignment}: similar pair {index + 1}", "Shared code",
            "highlighted: code both submissions share beyond the template", summary, body),
            encoding="utf-8")
    body = (table(["similarity", "submission", "shared", "other", "shared"], _pair_rows(listed),
                  "similar-pairs", frozenset({0, 2, 4}))
            if listed
            else '<p class="muted">No two submissions share code beyond the template.</p>')
    more = len(pairs) - len(listed)
    note = f'<p class="muted">and {more} less similar pairs</p>' if more > 0 else ""
    target = out / SIMILARITY_PAGE
    target.write_text(page(
        f"{assignment}: similarity", "Similar submissions",
        "pairs of submissions ranked by the share of code they have in common, template "
        "excluded", f"<span>{len(pairs)} pairs share code</span>",
        _not_compared(skipped) + body + note),
        encoding="utf-8")
    return target
