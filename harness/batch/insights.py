"""Compose the instructor insights of a batch: failures (always), regrade changes (when an earlier
output is given) and similarity (when asked), written as CSV files and report sections."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from harness.batch import failures, insight_pages, regrade, similarity
from harness.batch.discover import Submission, discover
from harness.batch.gradebook import write_csv
from harness.batch.html_report import apart
from harness.batch.store import Record
from harness.paths import templates_root
from harness.records.spec import Assignment

CHANGES_CSV = "changes.csv"
SIMILARITY_CSV = "similarity.csv"


@dataclass(frozen=True)
class InsightOptions:
    """Which insights to compute.

    Attributes:
        similarity: compare every pair of submissions.
        similarity_reference: a folder of earlier-term submissions, compared with this batch's
            but not with each other.
        compare: an earlier batch output folder to list grade changes against.
    """

    similarity: bool = False
    similarity_reference: Path | None = None
    compare: Path | None = None


def similar_pairs(assignment: Assignment, submissions: Sequence[Submission],
                  reference: Path | None = None
                  ) -> tuple[list[similarity.Pair], list[similarity.Document]]:
    """Every pair of ``submissions`` (and each against the earlier-term ``reference`` folder),
    with the assignment's template and starter modules as boilerplate; and the documents too
    large to compare."""
    starters = frozenset(p.name for p in assignment.support_files)
    boilerplate = similarity.template_boilerplate(
        [templates_root() / assignment.name, *assignment.support_files])
    documents = [similarity.document_of(s, starters) for s in submissions]
    earlier = [similarity.document_of(s, starters, is_reference=True)
               for s in (discover(reference) if reference else [])]
    return (similarity.compare(documents, boilerplate, earlier),
            similarity.not_compared([*documents, *earlier]))


def write_similarity_csv(path: Path, pairs: Sequence[similarity.Pair]) -> None:
    write_csv(path, ["similarity", "submission", "student", "shared", "other", "other_student",
                     "other_shared", "other_is_earlier_term"],
              ([f"{p.score:.3f}", p.left.key, p.left.label, f"{p.left_share:.3f}", p.right.key,
                p.right.label, f"{p.right_share:.3f}", "yes" if p.right.is_reference else ""]
               for p in pairs))


def write_insights(out: Path, records: Sequence[Record], assignment: Assignment,
                   options: InsightOptions) -> list[tuple[str, str, str]]:
    """Write failures.csv (and changes.csv, similarity.csv and pages when asked); return the
    report sections as (anchor, heading, HTML).

    Raises:
        regrade.NotABatchFolder: ``options.compare`` is not a batch output folder.
        similarity.SimilarityUnavailable: similarity asked for without copydetect installed.
    """
    # What this run was not asked for is removed, so no file from an earlier run on the same
    # folder passes for this run's (a re-run without --compare or --similarity).
    for name in (CHANGES_CSV, SIMILARITY_CSV):
        (out / name).unlink(missing_ok=True)
    insight_pages.remove_similarity_pages(out)
    failures.write_failures_csv(out / "failures.csv", failures.failure_groups(records))
    sections = [("mistakes", "Common mistakes", insight_pages.mistakes_section(
        failures.reason_groups(records), apart(records)))]
    if options.compare is not None:
        changes = regrade.compare_batches(options.compare, out)
        regrade.write_changes_csv(out / CHANGES_CSV, changes)
        sections.append(("changes", "Grade changes",
                         insight_pages.changes_section(changes, str(options.compare))))
    if options.similarity:
        pairs, skipped = similar_pairs(assignment, [r.submission for r in records],
                                       options.similarity_reference)
        write_similarity_csv(out / SIMILARITY_CSV, pairs)
        insight_pages.write_similarity_pages(out, pairs, assignment.name, skipped, in_batch=True)
        sections.append(("similarity", "Most similar submissions",
                         insight_pages.similarity_section(pairs, skipped)))
    return sections
