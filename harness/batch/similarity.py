"""Who copied from whom: every pair of a batch's submissions compared by winnowed fingerprints.

The fingerprinting is copydetect's (tokens normalised so renamed variables and functions look
alike, k-gram hashes winnowed, so reordered functions still match); this module only decides
what a submission's text is, which fingerprints are boilerplate (everything in the student
template and the starter modules, so two students who keep the skeleton do not look alike), and
which pairs are compared (earlier-term "reference" submissions are compared with this batch but
not with each other).
"""
from __future__ import annotations

import html
import io
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

from harness.batch.discover import Submission
from harness.intake.reading import take

# copydetect's own defaults: matches shorter than 25 normalised characters are noise, and
# every match of 25 or more is found (window of 1 over the k-grams).
NOISE = 25
WINDOW = 1
# A submission's Python text is fingerprinted only up to this size. Fingerprinting costs about
# 10 s and 150 MB of memory per MB of text, and a side-by-side page holds both texts: one
# submission of 16 MB (the intake's cap) padded with code every classmate shares took a minute
# and a gigabyte with 8 MB and twelve classmates, and its highlighted copy was kept for every pair.
# Honest submissions are a few tens of kilobytes; a larger one is listed as not compared.
MAX_COMPARED_CHARS = 1_000_000


class SimilarityUnavailable(ImportError):
    """copydetect (the ``insights`` extra) is not installed."""


def _copydetect() -> Any:
    os.environ.setdefault("MPLBACKEND", "Agg")  # copydetect imports matplotlib at import time
    logging.getLogger("matplotlib").setLevel(logging.WARNING)
    try:
        import copydetect.detector as detector
    except ImportError as exc:
        raise SimilarityUnavailable(
            "similarity needs copydetect: pip install 'gamegrader[insights]'") from exc
    return detector


def require() -> None:
    """Raise SimilarityUnavailable now rather than after a long batch."""
    _copydetect()


@dataclass(frozen=True)
class Document:
    """One submission's code as one text: its Python files in path order, each under a header."""

    key: str
    label: str
    text: str
    is_reference: bool = False

    @property
    def too_large(self) -> bool:
        """Over :data:`MAX_COMPARED_CHARS`: not compared, listed as such."""
        return len(self.text) > MAX_COMPARED_CHARS


@dataclass(frozen=True)
class Pair:
    """Two documents and how much of each is covered by code they share.

    ``score`` is the larger of the two shares: a submission that copied all of another and added
    more still ranks high. The slices are the shared regions of each text; the highlighted
    texts are made only for the pairs shown (:meth:`highlighted`), so memory does not grow with
    the number of pairs times the size of the texts.
    """

    left: Document
    right: Document
    left_share: float
    right_share: float
    left_slices: Any
    right_slices: Any

    @property
    def score(self) -> float:
        return max(self.left_share, self.right_share)

    def highlighted(self) -> tuple[str, str]:
        """Both texts HTML-escaped, with the shared regions wrapped in ``<mark>``."""
        return (marked_html(self.left.text, self.left_slices),
                marked_html(self.right.text, self.right_slices))


def marked_html(text: str, slices: Any) -> str:
    """``text`` HTML-escaped, with each ``[start, end)`` column of ``slices`` wrapped in
    ``<mark>``.

    Written here rather than taken from copydetect's ``highlight_overlap``: that function returns
    the student's text unescaped when there is nothing to highlight, so the page's safety would
    hang on every caller skipping such pairs. Here every character of the text passes through
    ``html.escape``, whatever the slices hold (out of range, overlapping, unsorted or empty).
    """
    pieces: list[str] = []
    position = 0
    for start, end in sorted(zip(*slices)) if len(slices) else ():
        start, end = max(int(start), position), min(int(end), len(text))
        if start >= end:
            continue
        pieces += [html.escape(text[position:start]), "<mark>", html.escape(text[start:end]),
                   "</mark>"]
        position = end
    pieces.append(html.escape(text[position:]))
    return "".join(pieces)


def _python_files(root: Path, excluded: frozenset[str]) -> Iterable[tuple[str, bytes]]:
    """The submission's Python files as grading takes them (``harness.intake.reading``: regular
    files only, no link followed, bounded), minus the ``excluded`` names, in path order."""
    for file in sorted(take(root).files, key=lambda f: f.path.as_posix()):
        if file.name not in excluded:
            yield file.path.as_posix(), file.data


def document_of(submission: Submission, excluded: frozenset[str] = frozenset(),
                is_reference: bool = False) -> Document:
    """The submission's Python files (minus ``excluded`` names, the starter files the grader
    supplies) as one document."""
    parts = [f"# ---- {name} ----\n{data.decode('utf-8', errors='replace')}\n"
             for name, data in _python_files(submission.path, excluded)]
    return Document(submission.key, submission.student_label, "".join(parts), is_reference)


def template_boilerplate(folders: Sequence[Path]) -> Any:
    """The fingerprints of every Python file in ``folders`` (the student template and starter
    modules): shared with everyone, so never evidence of copying."""
    detector = _copydetect()
    import numpy as np
    hashes: list[int] = []
    for folder in folders:
        for path in sorted(folder.rglob("*.py")) if folder.is_dir() else [folder]:
            text = path.read_text(encoding="utf-8", errors="replace")
            template = detector.CodeFingerprint("template.py", NOISE, 1, fp=io.StringIO(text))
            hashes.extend(template.hashes)
    return np.unique(np.array(hashes, dtype=np.int64))


def compare(documents: Sequence[Document], boilerplate: Any = None,
            references: Sequence[Document] = ()) -> list[Pair]:
    """Every pair among ``documents``, and each document against each of ``references``,
    most similar first. Pairs sharing nothing are left out, and so are documents that are
    :attr:`Document.too_large` (see :func:`not_compared`)."""
    detector = _copydetect()
    documents = [d for d in documents if not d.too_large]
    references = [d for d in references if not d.too_large]

    def fingerprint(document: Document) -> Any:
        return detector.CodeFingerprint(f"{document.key}.py", NOISE, WINDOW,
                                        boilerplate=boilerplate, fp=io.StringIO(document.text))

    prints = [fingerprint(d) for d in documents]
    reference_prints = [fingerprint(d) for d in references]
    pairs = []
    candidates = [(i, j, prints[j], documents[j]) for i in range(len(documents))
                  for j in range(i + 1, len(documents))]
    candidates += [(i, j, reference_prints[j], references[j]) for i in range(len(documents))
                   for j in range(len(references))]
    for i, _, right_print, right in candidates:
        left_print, left = prints[i], documents[i]
        if not left_print.hashes or not right_print.hashes:
            continue
        overlap, (left_share, right_share), (left_slices, right_slices) = \
            detector.compare_files(left_print, right_print)
        if overlap == 0:
            continue
        pairs.append(Pair(left, right, float(left_share), float(right_share), left_slices,
                          right_slices))
    pairs.sort(key=lambda p: (-p.score, p.left.key, p.right.key))
    return pairs


def not_compared(documents: Sequence[Document]) -> list[Document]:
    """The documents :func:`compare` leaves out for their size, for the report to name."""
    return [d for d in documents if d.too_large]
