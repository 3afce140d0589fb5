"""The insights through ``gamegrader batch``: failures, similarity and a regrade comparison on a
small class, and the pages rendered by headless Chromium."""
from __future__ import annotations

import csv
from pathlib import Path

import pytest
from gg_browser import chromium_tab, loaded_dom
from gg_testing import CHROMIUM, NO_CHROMIUM, run_gamegrader
from insight_support import HONEST_A, HONEST_B, MAIN, TEMPLATE, renamed_copy

# One worker runs this module: its fixture's two batch runs are not kept gradings, and two
# workers would each run them.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("batch_insights")]

BATCH = ["batch", "--assignment", "adversarial_search", "--workers", "2", "--no-progress",
         "--timeout-cap", "10"]


def write_class(root: Path, alice: str) -> Path:
    texts = {"alice": alice, "bob": renamed_copy(HONEST_A.read_text(encoding="utf-8")),
             "carol": HONEST_B.read_text(encoding="utf-8"),
             "erin": TEMPLATE.read_text(encoding="utf-8")}
    for student, text in texts.items():
        (root / student).mkdir(parents=True, exist_ok=True)
        (root / student / MAIN).write_text(text, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    """A batch with --similarity, then a regrade after alice breaks her tie-breaking."""
    root = tmp_path_factory.mktemp("insights")
    honest = HONEST_A.read_text(encoding="utf-8")
    first = root / "out1"
    done = run_gamegrader(*BATCH, str(write_class(root / "class", honest)), "--out", str(first),
                          "--similarity")
    assert done.returncode == 0, done.stderr[-3000:]
    broken = honest.replace("if child_value > value:", "if child_value >= value:")
    assert broken != honest
    second = root / "out2"
    done = run_gamegrader(*BATCH, str(write_class(root / "class", broken)), "--out",
                          str(second), "--compare", str(first))
    assert done.returncode == 0, done.stderr[-3000:]
    return first, second, done.stdout


def test_failures_table_counts_the_template_s_failures(two_runs):
    first, _, _ = two_runs
    rows = list(csv.DictReader((first / "failures.csv").open(encoding="utf-8")))
    assert rows and all(r["who"] == "erin" for r in rows)  # only the template fails
    report = (first / "report.html").read_text(encoding="utf-8")
    assert 'id="common-mistakes"' in report and 'id="similarity"' in report


def test_similarity_in_a_batch_ranks_the_copy_first(two_runs):
    first, _, _ = two_runs
    pairs = list(csv.DictReader((first / "similarity.csv").open(encoding="utf-8")))
    assert {pairs[0]["submission"], pairs[0]["other"]} == {"alice", "bob"}
    assert float(pairs[0]["similarity"]) > 0.9
    assert all("erin" not in (p["submission"], p["other"]) or float(p["similarity"]) < 0.1
               for p in pairs)


def test_compare_lists_only_the_student_whose_grade_moved(two_runs):
    first, second, stdout = two_runs
    assert "1 submission changed" in stdout and "alice [alice]" in stdout
    rows = list(csv.DictReader((second / "changes.csv").open(encoding="utf-8")))
    assert rows and {r["submission"] for r in rows} == {"alice"}
    assert float(rows[0]["new_score"]) < float(rows[0]["old_score"])
    assert 'id="changes"' in (second / "report.html").read_text(encoding="utf-8")


def test_compare_with_a_folder_that_is_not_a_batch_is_refused_before_grading(tmp_path):
    done = run_gamegrader(*BATCH, str(tmp_path), "--out", str(tmp_path / "out"), "--compare",
                          str(tmp_path / "nothing"))
    assert done.returncode == 2 and "not a batch output folder" in done.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.skipif(CHROMIUM is None, reason=NO_CHROMIUM)
def test_report_and_similarity_pages_render_in_headless_chromium(two_runs, tmp_path):
    first, second, _ = two_runs
    pair_page = first / "similarity" / "pair-001.html"
    with chromium_tab() as tab:
        report = loaded_dom(tab, second / "report.html")
        changes = report[report.index('<table id="changes"'):]
        assert changes.count('<tr role="row" class="row">', 0, changes.index("</table>")) == 1
        assert '<table id="common-mistakes"' in report
        assert loaded_dom(tab, pair_page).count("<mark>") >= 2
        shot = tmp_path / "pair.png"
        tab.screenshot(path=str(shot))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
