"""Similarity through the command line: disguised copies rank on top; two honest, independent
solutions and the untouched template do not."""
from __future__ import annotations

import ast
import csv
from pathlib import Path

import pytest
from gg_testing import run_gamegrader
from insight_support import HONEST_A, HONEST_B, class_folder, renamed_copy, reordered_copy

pytestmark = pytest.mark.slow


def read_pairs(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as stream:
        return list(csv.DictReader(stream))


def test_disguises_really_change_the_text_and_keep_the_program_valid():
    a, b = HONEST_A.read_text(encoding="utf-8"), HONEST_B.read_text(encoding="utf-8")
    renamed, reordered = renamed_copy(a), reordered_copy(b)
    assert renamed != a and "max_value" not in renamed and "leaves" not in renamed
    ast.parse(renamed)
    names = [n.name for n in ast.parse(reordered).body if isinstance(n, ast.FunctionDef)]
    assert names == ["second_square", "create_dominoes_game"]


def test_copies_rank_on_top_and_honest_pairs_and_template_do_not(tmp_path):
    folder = class_folder(tmp_path / "class")
    out = tmp_path / "out"
    done = run_gamegrader("similarity", str(folder), "--assignment", "adversarial_search",
                          "--out", str(out))
    assert done.returncode == 0, done.stderr[-2000:]
    pairs = read_pairs(out / "similarity.csv")
    ranked = [frozenset((p["submission"], p["other"])) for p in pairs]
    assert set(ranked[:2]) == {frozenset({"alice", "bob"}), frozenset({"carol", "dave"})}
    scores = {frozenset((p["submission"], p["other"])): float(p["similarity"]) for p in pairs}
    copies = min(scores[frozenset({"alice", "bob"})], scores[frozenset({"carol", "dave"})])
    assert copies > 0.8
    honest = scores.get(frozenset({"alice", "carol"}), 0.0)
    assert honest < 0.5 and honest < copies
    assert all(score < 0.1 for pair, score in scores.items() if "erin" in pair)
    assert "alice" in done.stdout and "bob" in done.stdout
    page = (out / "similarity.html").read_text(encoding="utf-8")
    assert page.count('<tr role="row" class="row">') == len(pairs)
    first = (out / "similarity" / "pair-001.html").read_text(encoding="utf-8")
    assert first.count("<mark>") >= 2 and "<script" not in first


def test_earlier_term_submissions_are_compared_with_the_class_but_not_among_themselves(tmp_path):
    folder, earlier = tmp_path / "class", tmp_path / "earlier"
    copy = renamed_copy(HONEST_A.read_text(encoding="utf-8"))
    for root, student, text in [(folder, "alice", HONEST_A.read_text(encoding="utf-8")),
                                (folder, "carol", HONEST_B.read_text(encoding="utf-8")),
                                (earlier, "old1", copy), (earlier, "old2", copy)]:
        (root / student).mkdir(parents=True)
        (root / student / "adversarial_search.py").write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    done = run_gamegrader("similarity", str(folder), "--assignment", "adversarial_search",
                          "--out", str(out), "--reference", str(earlier))
    assert done.returncode == 0, done.stderr[-2000:]
    pairs = read_pairs(out / "similarity.csv")
    named = {(p["submission"], p["other"]): p for p in pairs}
    assert ("old1", "old2") not in named and ("old2", "old1") not in named
    assert [p["other"] for p in pairs[:2]] == ["old1", "old2"]
    assert all(p["submission"] == "alice" and p["other_is_earlier_term"] == "yes"
               for p in pairs[:2])
    assert "(earlier term)" in (out / "similarity.html").read_text(encoding="utf-8")


def test_a_submission_too_large_to_compare_is_named_not_fingerprinted(tmp_path):
    """Fingerprinting costs about 10 s and 150 MB per MB of text, and each side-by-side page
    holds both texts: a submission padded to the intake's 16 MB with code every classmate
    shares (8 MB and twelve classmates took a minute and a gigabyte, and wrote 144 MB of
    pages) is listed as not compared instead."""
    folder = class_folder(tmp_path / "class")
    copy = HONEST_A.read_text(encoding="utf-8")
    (folder / "zed").mkdir()
    (folder / "zed" / "adversarial_search.py").write_text(copy, encoding="utf-8")
    (folder / "zed" / "padding.py").write_text(
        copy * (1_000_000 // len(copy) + 1), encoding="utf-8")
    out = tmp_path / "out"
    done = run_gamegrader("similarity", str(folder), "--assignment", "adversarial_search",
                          "--out", str(out))
    assert done.returncode == 0, done.stderr[-2000:]
    pairs = read_pairs(out / "similarity.csv")
    assert pairs and all("zed" not in (p["submission"], p["other"]) for p in pairs)
    assert "not compared (over 1,000,000 characters of Python): zed" in done.stdout
    page = (out / "similarity.html").read_text(encoding="utf-8")
    assert "Not compared (over 1,000,000 characters of Python): zed (" in page
    assert sum(f.stat().st_size for f in (out / "similarity").iterdir()) < 1_000_000


def test_a_missing_folder_is_a_command_line_error(tmp_path):
    done = run_gamegrader("similarity", str(tmp_path / "nope"), "--assignment",
                          "adversarial_search", "--out", str(tmp_path / "out"))
    assert done.returncode == 2 and "not a folder" in done.stderr


def test_every_highlighted_page_text_is_escaped_whatever_the_overlap():
    """Defence in depth: the pair pages' code is escaped even where nothing is shared (copydetect's
    own highlighter returns the text unescaped then), and for slices out of range or overlapping."""
    import numpy as np

    from harness.batch.similarity import marked_html

    code = '</pre><script>alert("x")</script> & <b>'
    for slices in (np.zeros((2, 0), dtype=np.int64), np.array([[5, 3, 900], [20, 12, 950]]),
                   np.array([[30], [10]])):
        page = marked_html(code, slices)
        assert "<script" not in page and "</pre>" not in page and "<b>" not in page
        assert page.replace("<mark>", "").replace("</mark>", "") == \
            code.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace(
                '"', "&quot;")
    assert marked_html("abcdef", np.array([[1], [3]])) == "a<mark>bc</mark>def"
