"""``gamegrader prairielearn`` always leaves valid results in /grade/results (a folder it
creates), also when it is not configured or when writing them fails."""
from __future__ import annotations

import json

from platform_schemas import check_prairielearn

from harness.grading import api
from harness.platforms import prairielearn_job


def test_an_unconfigured_job_writes_not_gradable_results_in_a_folder_it_creates(tmp_path,
                                                                                monkeypatch):
    monkeypatch.delenv("GAMEGRADER_ASSIGNMENT", raising=False)
    monkeypatch.setenv("AUTOGRADER_ROOT", str(tmp_path / "nowhere"))
    (tmp_path / "student").mkdir()
    assert prairielearn_job.run(tmp_path) == 0
    results = json.loads((tmp_path / "results" / "results.json").read_text())
    check_prairielearn(results)
    assert results["gradable"] is False and "not configured" in results["format_errors"][0]


def test_the_assignment_comes_from_the_question_then_its_params(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "data.json").write_text(json.dumps({"params": {"assignment": "b"}}))
    assert prairielearn_job.job_settings(tmp_path, None) == ("b", None)
    (tmp_path / "tests" / "gamegrader.json").write_text('{"assignment": "a", "budget": 90}')
    assert prairielearn_job.job_settings(tmp_path, None) == ("a", 90.0)
    assert prairielearn_job.job_settings(tmp_path, "c") == ("c", 90.0)
    (tmp_path / "tests" / "gamegrader.json").write_text('["not", "an object"]')
    assert prairielearn_job.job_settings(tmp_path, None) == ("b", None)


def test_a_failure_while_writing_still_leaves_valid_results(tmp_path, monkeypatch):
    document = {"score": 1, "execution_time": 1, "output": "", "tests": [],
                "extra_data": {"final": True}}
    monkeypatch.setattr(api, "grade_to_file", lambda *args, **kwargs: document)

    def broken(*args: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(prairielearn_job, "write", broken)
    assert prairielearn_job.run(tmp_path, "adversarial_search") == 0
    results = json.loads((tmp_path / "results" / "results.json").read_text())
    check_prairielearn(results)
    assert results["gradable"] is False and "OSError: disk full" in results["message"]
