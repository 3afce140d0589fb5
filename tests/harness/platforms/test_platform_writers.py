"""Each platform's writer, on documents built as the grading builds them: valid for its
platform's schema or grammar (platform_schemas), the same points everywhere, hidden cases as a
count and points only, boards as PNG images, PrairieLearn's 1 MB cap, and a wrong field caught."""
from __future__ import annotations

import argparse
import base64
import io
import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import xmlschema
from PIL import Image
from platform_schemas import (
    check_classroom50,
    check_junit,
    check_prairielearn,
    tap14_problems,
)

from harness.grading import results
from harness.platforms import FORMAT_NAMES, formats, prairielearn
from harness.platforms.cli import write_format
from harness.platforms.outcome import GradingOutcome, from_document, picture_of
from harness.records.spec import Case, Visibility
from harness.records.verdicts import CaseResult, Verdict
from harness.spec.doctests import parse_transcript

BOARD = "    0 1 2\n 0  . X .\n 1  . X .\n 2  . . .\n(your move: X)"
HOSTILE = "</failure>]]>\x00\x1b[2J # not ok 99 \\ \n  ...\n---\n\ufffe<b>\udcff"


def case(number: str, points: float, visible: bool = True) -> Case:
    return Case(id=f"g::{number}", number=number, group="g", name=f"case {number}",
                points=points, visibility=Visibility.VISIBLE if visible else Visibility.HIDDEN,
                timeout=1, file=Path("x.yaml"), examples=parse_transcript(">>> 1\n1\n"))


def document(hostile: str = "") -> dict[str, Any]:
    """A grading's document: passed, wrong with a board, partial, raised with printed text,
    not run, and two hidden cases (one passed)."""
    graded = [
        CaseResult(case("1.1", 2), Verdict.PASSED, 2.0),
        CaseResult(case("1.2", 3), Verdict.WRONG_ANSWER, 0.0, "expected (0, 1), got (1, 1)",
                   picture=BOARD),
        CaseResult(case("1.3", 4), Verdict.WRONG_ANSWER, 1.5, "one part right"),
        CaseResult(case("1.4", 1), Verdict.RAISED, 0.0, "raised ValueError" + hostile,
                   output="debug print" + hostile, picture=BOARD + hostile),
        CaseResult(case("1.5", 1), Verdict.NOT_RUN, 0.0, "not run: grading stopped"),
        CaseResult(case("2.1", 5, visible=False), Verdict.PASSED, 5.0),
        CaseResult(case("2.2", 4, visible=False), Verdict.WRONG_ANSWER, 0.0, "hidden detail"),
    ]
    return json.loads(json.dumps(results.build(graded, output="Summary" + hostile,
                                               execution_time=3.2)))


def outcome(hostile: str = "") -> GradingOutcome:
    return from_document(document(hostile), "adversarial_search", "2026-11-21T09:00:00-05:00")


@pytest.mark.parametrize("hostile", ["", HOSTILE], ids=["honest", "hostile-text"])
def test_every_writer_passes_its_schema_with_the_same_points(hostile):
    graded = outcome(hostile)
    assert (graded.score, graded.max_score) == (8.5, 20)
    pl = json.loads(formats.render("prairielearn", graded))
    check_prairielearn(pl)
    assert pl["score"] == pytest.approx(8.5 / 20)
    assert sum(t["points"] for t in pl["tests"]) == pytest.approx(8.5)
    assert sum(t["max_points"] for t in pl["tests"]) == 20
    c50 = json.loads(formats.render("classroom50", graded))
    check_classroom50(c50)
    assert (c50["score"], c50["max-score"]) == (8.5, 20)
    assert c50["submitted-at"] == "2026-11-21T09:00:00-05:00"
    assert sum(t["score"] for t in c50["tests"]) == pytest.approx(8.5)
    for name in ("junit", "codegrade"):
        xml = formats.render(name, graded)
        check_junit(xml)
        assert b'name="score" value="8.5"' in xml
        assert b'tests="6" failures="4" errors="1"' in xml  # 5 visible + the hidden together
    tap = formats.render("tap", graded).decode("utf-8")
    assert tap14_problems(tap) == [], tap
    assert tap.count("\nok ") + tap.count("\nnot ok ") == 6
    assert "# score 8.5/20" in tap
    assert formats.capture_points_line(graded) == "0.425000"
    assert tuple(sorted(formats.FORMATS)) == FORMAT_NAMES  # the command line's choices


def test_hidden_cases_show_as_a_count_and_points_on_every_platform_but_gradescope():
    graded = outcome()
    for name in ("prairielearn", "classroom50", "junit", "tap"):
        text = formats.render(name, graded).decode("utf-8")
        assert "hidden detail" not in text and "case 2.1" not in text, name
        assert "2 hidden cases: 5/9 points" in text or '"Hidden cases"' in text, name
    pl = json.loads(formats.render("prairielearn", graded))
    assert pl["tests"][-1] == {"name": "Hidden cases", "description": "hidden cases",
                               "points": 5.0, "max_points": 9.0, "output": "",
                               "message": "2 hidden cases: 5/9 points (no detail is shown "
                                          "for hidden cases)"}


def test_a_failed_case_with_a_board_gets_it_as_text_and_as_a_png_that_opens():
    pl = json.loads(formats.render("prairielearn", outcome()))
    wrong = pl["tests"][1]
    assert wrong["message"] == "\033[31mWrong answer (0/3 points)\033[0m"  # ANSI, no Markdown
    assert "(your move: X)" in wrong["output"] and "```" not in wrong["output"]
    [image] = wrong["images"]
    data = base64.b64decode(image["url"].split(",", 1)[1])
    picture = Image.open(io.BytesIO(data))
    picture.load()
    assert picture.format == "PNG" and picture.size[0] > 50 and picture.size[1] > 50
    assert "images" not in pl["tests"][0]  # passed: nothing drawn


def test_the_board_is_read_back_from_the_markdown_feedback_exactly():
    test = document()["tests"][1]
    assert test["output_format"] == "md"
    assert picture_of(test["output"], "md") == BOARD
    printed = document(HOSTILE)["tests"][3]
    assert picture_of(printed["output"], "md").startswith(BOARD)  # not what the code printed
    assert picture_of("plain", "text") == ""


def test_a_submission_nothing_could_run_of_is_not_gradable_on_prairielearn():
    failed = document()
    for test in failed["tests"]:
        test.update(score=0, status="failed", extra_data=dict(test["extra_data"],
                                                              verdict="NOT_RUN"))
    failed["extra_data"]["ungradable"] = "syntax error at line 3"
    for extra in ({"ungradable": "syntax error at line 3"}, {}):
        failed["extra_data"] = {"final": True, **extra}
        pl = json.loads(formats.render("prairielearn", from_document(failed)))
        check_prairielearn(pl)
        assert pl["gradable"] is False and pl["format_errors"]
    assert "syntax error at line 3" in json.loads(formats.render(
        "prairielearn", from_document(dict(failed, extra_data={
            "final": True, "ungradable": "syntax error at line 3"}))))["format_errors"][0]


def test_a_grader_failure_uses_no_attempt_on_prairielearn_and_exits_non_zero_on_classroom50():
    broken = dict(document(), extra_data={"final": True, "harness_error": "OSError: disk"})
    graded = from_document(broken)
    assert graded.fault == "OSError: disk" and not graded.ungradable
    pl = json.loads(formats.render("prairielearn", graded))
    check_prairielearn(pl)
    assert pl["gradable"] is False and "grader itself failed" in pl["message"]
    assert formats.FORMATS["classroom50"].fault_exit
    assert not formats.FORMATS["prairielearn"].fault_exit


def test_prairielearn_results_over_1_mb_are_trimmed_with_a_note_and_stay_valid():
    graded = [CaseResult(case(f"1.{i}", 1), Verdict.WRONG_ANSWER, 0.0, "x" * 7000,
                         output="y" * 1900, picture=f"board {i}\n" + ". " * 1400)
              for i in range(1, 300)]
    big = from_document(json.loads(json.dumps(results.build(graded, output="s",
                                                            execution_time=1))))
    untrimmed = json.dumps(prairielearn.document(big)).encode()
    assert len(untrimmed) > prairielearn.MAX_BYTES
    data = prairielearn.render(big)
    assert len(data) <= prairielearn.MAX_BYTES
    written = json.loads(data)
    check_prairielearn(written)
    assert prairielearn.TRIMMED_NOTE in written["message"]
    assert len(written["tests"]) == 299 and written["score"] == 0


@pytest.mark.parametrize("field,value", [("score", 8.5), ("gradable", "yes"),
                                         ("format_errors", "one")])
def test_a_wrong_prairielearn_field_fails(field, value):
    pl = json.loads(formats.render("prairielearn", outcome()))
    with pytest.raises(jsonschema.ValidationError):
        check_prairielearn(dict(pl, **{field: value}))


def test_a_wrong_classroom50_field_fails():
    c50 = json.loads(formats.render("classroom50", outcome()))
    renamed = dict(c50, tests=[{("max_score" if k == "max-score" else k): v
                                for k, v in test.items()} for test in c50["tests"]])
    for wrong in (renamed, dict(c50, **{"submitted-at": "yesterday"})):
        with pytest.raises(jsonschema.ValidationError):
            check_classroom50(wrong)


def test_a_wrong_junit_field_fails():
    xml = formats.render("junit", outcome()).decode("utf-8")
    for wrong in (xml.replace(' hostname="gamegrader"', ""),
                  xml.replace('time="0.000"', 'time="soon"', 1),
                  re.sub(r'timestamp="[^"]*"', 'timestamp="2026-11-21T09:00:00Z"', xml)):
        with pytest.raises(xmlschema.XMLSchemaValidationError):
            check_junit(wrong.encode("utf-8"))


def test_a_wrong_tap_line_fails():
    tap = formats.render("tap", outcome()).decode("utf-8")
    assert tap14_problems(tap.replace("TAP version 14", "TAP version 13"))
    assert tap14_problems(tap.replace("1..6", "1..7"))
    assert tap14_problems(tap.replace("ok 1 - 1.1 g: case 1.1", "ok 1 - 1.1 g: case # 1.1"))
    assert tap14_problems(tap.replace("  message:", " message:", 1))


@pytest.mark.parametrize("name,status", [("classroom50", 1), ("tap", 0), ("prairielearn", 0)])
def test_only_classroom50_hears_of_a_grader_failure_through_the_exit_status(tmp_path, name,
                                                                           status):
    broken = dict(document(), extra_data={"final": True, "harness_error": "OSError: disk"})
    args = argparse.Namespace(format=name, assignment="adversarial_search",
                              submission=tmp_path, submitted_at="2026-11-21T14:00:00Z",
                              output=tmp_path / "out" / "file")
    assert write_format(args, broken) == status
    assert (tmp_path / "out" / "file").stat().st_size > 0
    args.format = "classroom50"
    assert write_format(args, document()) == 0
