"""``gamegrader build --platform prairielearn``: a question folder PrairieLearn grades
externally, and the grader image's build context."""
from __future__ import annotations

import json
import os

from harness.platforms.prairielearn_build import ENTRY_POINT, MAX_TIMEOUT, build_prairielearn
from harness.records.spec import Visibility
from harness.spec import find_assignment
from harness.spec.loader import load_all_cases


def test_the_question_folder_grades_externally_with_the_image_and_the_visible_cases(tmp_path):
    built = build_prairielearn("stonehenge", tmp_path / "pl", "course/stonehenge-grader")
    question = tmp_path / "pl" / "questions" / "stonehenge"
    info = json.loads((question / "info.json").read_text())
    assert info["gradingMethod"] == "External"
    options = info["externalGradingOptions"]
    assert options["enabled"] is True and options["image"] == "course/stonehenge-grader"
    assert options["entrypoint"] == ENTRY_POINT
    config = json.loads((question / "tests" / "gamegrader.json").read_text())
    assert config["assignment"] == "stonehenge"
    assert config["budget"] < options["timeout"] <= MAX_TIMEOUT
    html = (question / "question.html").read_text()
    assert '<pl-file-upload file-names="stonehenge.py,strategy.py">' in html
    assert "<pl-external-grader-results>" in html
    visible = json.loads((question / "tests" / "visible_cases.json").read_text())
    cases = load_all_cases(find_assignment("stonehenge"))
    assert [c["number"] for c in visible] == [
        case.number for case in cases if case.visibility is Visibility.VISIBLE]
    assert any(built.notes)


def test_the_image_context_installs_gamegrader_from_a_python_base_with_its_entry_point(tmp_path):
    build_prairielearn("adversarial_search", tmp_path / "pl")
    image = tmp_path / "pl" / "image"
    dockerfile = (image / "Dockerfile").read_text()
    assert dockerfile.splitlines()[3].startswith("FROM python:3.10")
    assert "setup.sh" in dockerfile and "pillow" in dockerfile
    entry = image / "run_prairielearn"
    assert os.access(entry, os.X_OK)
    assert "-m harness prairielearn --root /grade" in entry.read_text()
    assert (image / "ASSIGNMENT").read_text() == "adversarial_search\n"
    assert (image / "harness" / "platforms" / "prairielearn_job.py").is_file()
    info = json.loads((tmp_path / "pl/questions/adversarial_search/info.json").read_text())
    assert info["externalGradingOptions"]["image"] == "gamegrader-adversarial-search"
