"""The instructor-insight parts of the batch report: the class's common mistakes by reason,
whose grade moved since an earlier run, and the similarity pages (ranked pairs, and each pair
side by side with the shared code highlighted). Same rules as ``html_report``: self-contained
pages, every text from a submission escaped (the highlighted code is escaped by the similarity
module, which adds only ``<mark>`` tags)."""
from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Sequence
from urllib.parse import quote

from harness.batch.failures import ReasonGroup
from harness.batch.regrade import StudentChange, signed
from harness.batch.similarity import MAX_COMPARED_CHARS, Document, Pair
from harness.batch.store import SUBMISSIONS
from harness.grading.feedback import points_text
from harness.pages.layout import page, table

SIMILARITY_PAGE = "similarity.html"
PAIR_FOLDER = "similarity"
PAIRS_IN_REPORT = 10
PAIRS_LISTED = 200


def _share(value: float) -> str:
    return f"{value:.0%}"


def _names(items: Sequence[str], shown: int = 6, joint: str = "; ") -> str:
    more = len(items) - shown
    return escape(joint.join(items[:shown])) + (f' <span class="muted">and {more} more</span>'
                                               if more > 0 else "")


def _linked(group: ReasonGroup, shown: int = 6) -> str:
    """The group's students, each linked to their submission's feedback page."""
    links = [f'<a href="{SUBMISSIONS}/{quote(key)}/feedback.html">{escape(name)}</a>'
             for name, key in zip(group.students[:shown], group.submissions)]
    more = len(group.students) - shown
    return "; ".join(links) + (f' <span class="muted">and {more} more</span>' if more > 0 else "")


def mistakes_section(groups: Sequence[ReasonGroup], apart: str = "") -> str:
    """The class's failures grouped by reason (diagnosis, else verdict and what was wrong), the
    reason most students hit first; ``apart`` says which submissions are not counted here
    (e.g. "1 ungradable")."""
    note = (f'<p class="muted">Not counted here: {escape(apart)} (see Students).</p>'
            if apart else "")
    if not groups:
        return '<p class="muted">No test failed.</p>' + note
    rows = []
    for group in groups:
        numbers = [number for number, _ in group.tests]
        titles = "; ".join(f"{number} {name}" for number, name in group.tests)
        tests = (f'<span title="{escape(titles)}">{len(group.tests)}: '
                 f"{_names(numbers, 8, ', ')}</span>")
        rows.append([escape(group.reason),
                     f"{len(group.students)}: {_linked(group)}", tests])
    return (table(["reason", "who (submissions)", "tests"], rows, "common-mistakes") + note
            + '<p class="muted">Each test\'s failures, with the students, are in '
              '<a href="failures.csv">failures.csv</a>.</p>')


def changes_section(changes: Sequence[StudentChange], compared_with: str) -> str:
    if not changes:
        return (f'<p id="changes">No score or test outcome changed since '
                f"{escape(compared_with)}.</p>")
    rows = []
    for change in changes:
        tests = "; ".join(
            f"{t.number} {t.name}: {t.old.describe() if t.old else 'absent'} → "
            f"{t.new.describe() if t.new else 'absent'}" for t in change.tests[:6])
        more = f" (+{len(change.tests) - 6} more)" if len(change.tests) > 6 else ""
        old = "–" if change.old_score is None else points_text(change.old_score)
        new = "–" if change.new_score is None else points_text(change.new_score)
        rows.append([escape(change.label), f"{old} → {new}", signed(change.delta),
                     escape(f"{change.presence} submission" if change.presence
                            else tests + more)])
    return (f'<p class="muted">Compared with {escape(compared_with)}; every change is also in '
            '<a href="changes.csv">changes.csv</a>.</p>'
            + table(["student", "score", "change", "tests that changed"], rows, "changes",
                    frozenset({1, 2})))


def _pair_link(index: int) -> str:
    return f"{PAIR_FOLDER}/pair-{index + 1:03d}.html"


def _pairs_table(pairs: Sequence[Pair]) -> str:
    """The pairs ranked, each linked to its side-by-side page, one header per column."""
    rows = [[f'<a href="{_pair_link(i)}">{_share(p.score)}</a>',
             escape(p.left.label), _share(p.left_share),
             escape(p.right.label) + (' <span class="muted">(earlier term)</span>'
                                      if p.right.is_reference else ""),
             _share(p.right_share)] for i, p in enumerate(pairs)]
    return table(["similarity", "submission A", "A's code shared", "submission B",
                  "B's code shared"], rows, "similar-pairs", frozenset({0, 2, 4}),
                 label="similar pairs")


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
            + _pairs_table(pairs[:PAIRS_IN_REPORT])
            + f'<p class="muted">All pairs: <a href="{SIMILARITY_PAGE}">{SIMILARITY_PAGE}</a>.</p>')


def remove_similarity_pages(out: Path) -> None:
    """Remove the similarity pages an earlier run wrote in ``out`` (the pair pages it names,
    and the folder when nothing else is in it), so that no page outlives the run it came
    from: a batch run without ``--similarity``, or with fewer pairs listed."""
    (out / SIMILARITY_PAGE).unlink(missing_ok=True)
    folder = out / PAIR_FOLDER
    if not folder.is_dir():
        return
    for stale in folder.glob("pair-[0-9][0-9][0-9]*.html"):
        stale.unlink(missing_ok=True)
    if not any(folder.iterdir()):
        folder.rmdir()


def write_similarity_pages(out: Path, pairs: Sequence[Pair], assignment: str,
                           skipped: Sequence[Document] = (), in_batch: bool = False) -> Path:
    """``out/similarity.html`` (pairs ranked, and the submissions too large to compare) and
    one side-by-side page per listed pair; ``in_batch``: they link the batch's report."""
    report = [("report.html", "class report")] if in_batch else []
    listed = list(pairs[:PAIRS_LISTED])
    remove_similarity_pages(out)
    folder = out / PAIR_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    for index, pair in enumerate(listed):
        left_html, right_html = pair.highlighted()
        body = ('<div class="side-by-side">'
                f'<div><h2>{escape(pair.left.label)} ({_share(pair.left_share)} shared)</h2>'
                f'<pre class="code">{left_html}</pre></div>'
                f'<div><h2>{escape(pair.right.label)} ({_share(pair.right_share)} shared)</h2>'
                f'<pre class="code">{right_html}</pre></div></div>')
        summary = f"<span>similarity {_share(pair.score)}</span>"
        (out / _pair_link(index)).write_text(page(
            f"{assignment}: similar pair {index + 1}", "Shared code",
            "highlighted: code both submissions share beyond the template", summary, body,
            kind="similarity", nav=[(f"../{SIMILARITY_PAGE}", "all pairs"),
                                    *((f"../{href}", label) for href, label in report)]),
            encoding="utf-8")
    body = (_pairs_table(listed) if listed else
            '<p class="muted">No two submissions share code beyond the template.</p>')
    more = len(pairs) - len(listed)
    note = f'<p class="muted">and {more} less similar pairs</p>' if more > 0 else ""
    target = out / SIMILARITY_PAGE
    target.write_text(page(
        f"{assignment}: similarity", "Similar submissions",
        "pairs of submissions ranked by the share of code they have in common, template "
        "excluded", f"<span>{len(pairs)} pairs share code</span>",
        _not_compared(skipped) + body + note, kind="similarity", nav=report),
        encoding="utf-8")
    return target
