"""Every platform from real gradings: the same reference, template, buggy and hostile
submissions give the same points on each (scaled as each platform scales them), each file
passes its platform's contract, Gradescope's file is byte for byte the grading's own, and
PrairieLearn's job runs end to end in a folder laid out like /grade."""
from __future__ import annotations

import base64
import csv
import io
import json
import shutil
from pathlib import Path

import pytest
from gg_testing import ROOT, run_gamegrader
from PIL import Image
from platform_schemas import check_classroom50, check_junit, check_prairielearn, tap14_problems

from harness.platforms import formats
from harness.platforms.outcome import from_document
from harness.platforms.prairielearn_build import question_entries
from harness.release.build import write_folder
from harness.spec import find_assignment

pytestmark = pytest.mark.slow

SOLUTION = ROOT / "assignments/adversarial_search/solution/adversarial_search.py"
TEMPLATE = ROOT / "assignments/adversarial_search/template/adversarial_search.py"
BUGGY = ("if child_value > value:", "if child_value >= value:")
HOSTILE = ("def get_best_move(self, vertical, limit):\n",
           "def get_best_move(self, vertical, limit):\n"
           "        print('</testcase>]]>\\x00\\x1b[2J # not ok 99\\n  ...\\n---' * 300)\n")


def submission(tmp_path: Path, kind: str) -> Path:
    folder = tmp_path / kind
    folder.mkdir()
    text = (TEMPLATE if kind == "template" else SOLUTION).read_text(encoding="utf-8")
    for edit in {"buggy": [BUGGY], "hostile": [HOSTILE]}.get(kind, []):
        assert edit[0] in text, edit
        text = text.replace(*edit)
    if kind == "syntax":
        text += "\ndef broken(:\n"
    if kind == "refused":
        text = "import requests\n" + text
    if kind != "missing":
        (folder / "adversarial_search.py").write_text(text, encoding="utf-8")
    return folder


@pytest.mark.parametrize("kind", ["reference", "template", "buggy", "hostile"])
def test_each_platform_gets_the_same_points_and_gradescope_the_same_bytes(tmp_path, kind):
    output = tmp_path / "results.json"
    done = run_gamegrader("grade", "--assignment", "adversarial_search", "--submission",
                          str(submission(tmp_path, kind)), "--output", str(output), "--quiet")
    assert done.returncode == 0, done.stderr[-2000:]
    written = output.read_bytes()
    graded = from_document(json.loads(written), "adversarial_search", "2026-11-21T14:00:00Z")
    again = tmp_path / "again.json"
    formats.write("gradescope", graded, again)
    assert again.read_bytes() == written  # Gradescope's file: the grading's own, unchanged
    score, maximum = graded.score, graded.max_score
    assert maximum == 40 and (score == 40) is (kind in ("reference", "hostile"))  # prints only
    pl = json.loads(formats.render("prairielearn", graded))
    check_prairielearn(pl)
    assert pl["gradable"] is True  # something ran in each
    assert pl["score"] == pytest.approx(score / maximum)
    assert sum(t["points"] for t in pl["tests"]) == pytest.approx(score, abs=1e-3)
    c50 = json.loads(formats.render("classroom50", graded))
    check_classroom50(c50)
    assert (c50["score"], c50["max-score"]) == (score, maximum)
    check_junit(formats.render("junit", graded))
    assert tap14_problems(formats.render("tap", graded).decode("utf-8")) == []
    assert float(formats.capture_points_line(graded)) == pytest.approx(score / maximum, abs=1e-6)


def test_grade_format_writes_the_platform_file_and_codegrade_reads_the_last_line(tmp_path):
    folder = submission(tmp_path, "buggy")
    xml = tmp_path / "junit.xml"
    done = run_gamegrader("grade", "--assignment", "adversarial_search", "--submission",
                          str(folder), "--output", str(xml), "--quiet", "--format", "codegrade")
    assert done.returncode == 0, done.stderr[-2000:]
    check_junit(xml.read_bytes())
    fraction = float(done.stdout.strip().split("\n")[-1])
    assert 0 < fraction < 1
    result = tmp_path / "result.json"
    done = run_gamegrader("grade", "--assignment", "adversarial_search", "--submission",
                          str(folder), "--output", str(result), "--quiet", "--format",
                          "classroom50", "--submitted-at", "2026-11-21T14:00:00Z")
    assert done.returncode == 0, done.stderr[-2000:]
    c50 = json.loads(result.read_text())
    check_classroom50(c50)
    assert c50["submitted-at"] == "2026-11-21T14:00:00Z"
    assert c50["score"] / c50["max-score"] == pytest.approx(fraction, abs=1e-6)


def grade_root(tmp_path: Path, kind: str) -> Path:
    """A /grade folder as PrairieLearn lays it out for the question the build writes (its
    tests/ folder), without the results folder."""
    root = tmp_path / "grade"
    question = tmp_path / "built" / "questions" / "adversarial_search"
    write_folder(tmp_path / "built", question_entries(find_assignment("adversarial_search"),
                                                      "gamegrader-test"))
    shutil.copytree(question / "tests", root / "tests")
    (root / "data").mkdir()
    (root / "serverFilesCourse").mkdir()
    submission(tmp_path, kind).rename(root / "student")
    (root / "data" / "data.json").write_text(json.dumps({"params": {}, "submitted_answers": {}}))
    return root


def prairielearn_job(tmp_path: Path, kind: str) -> dict[str, object]:
    root = grade_root(tmp_path, kind)
    done = run_gamegrader("prairielearn", "--root", str(root))
    assert done.returncode == 0, done.stderr[-2000:]
    results = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    check_prairielearn(results)
    return results


def test_a_prairielearn_job_grades_an_honest_submission_with_every_point(tmp_path):
    results = prairielearn_job(tmp_path, "reference")
    assert results["gradable"] is True and results["score"] == 1
    assert results["tests"][-1]["name"] == "Hidden cases"
    assert "no detail" in results["tests"][-1]["message"]


def test_a_prairielearn_job_draws_the_boards_of_failed_cases_as_pngs(tmp_path):
    results = prairielearn_job(tmp_path, "buggy")
    assert results["gradable"] is True and 0 < results["score"] < 1
    images = [image for test in results["tests"] for image in test.get("images", [])]
    assert images
    for image in images:
        picture = Image.open(io.BytesIO(base64.b64decode(image["url"].split(",", 1)[1])))
        picture.load()
        assert picture.format == "PNG"


@pytest.mark.parametrize("kind,why", [("syntax", "syntax error"), ("missing", "not found"),
                                      ("refused", "requests")])
def test_a_prairielearn_job_of_a_broken_submission_is_not_gradable(tmp_path, kind, why):
    results = prairielearn_job(tmp_path, kind)
    assert results["gradable"] is False, results
    assert why in results["format_errors"][0] + results.get("output", "")


def test_a_prairielearn_job_of_a_hostile_submission_writes_valid_results(tmp_path):
    results = prairielearn_job(tmp_path, "hostile")
    assert results["gradable"] is True
    assert len(json.dumps(results).encode()) <= 1_000_000


def test_batch_format_writes_a_platform_file_per_submission_and_a_summary(tmp_path):
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    for kind in ("reference", "syntax"):
        submission(tmp_path, kind).rename(submissions / kind)
    out = tmp_path / "out"
    done = run_gamegrader("batch", "--assignment", "adversarial_search", str(submissions),
                          "--out", str(out), "--format", "tap", "--no-progress", "--workers",
                          "2")
    assert done.returncode == 0, done.stderr[-2000:]
    with open(out / "platform-tap" / "summary.csv", newline="") as stream:
        rows = {row["submission"]: row for row in csv.DictReader(stream)}
    assert rows["reference"]["fraction"] == "1.000000" and rows["reference"]["status"] == "graded"
    assert rows["syntax"]["status"].startswith("ungradable: syntax error")
    for row in rows.values():
        assert tap14_problems((out / row["file"]).read_text(encoding="utf-8")) == []
