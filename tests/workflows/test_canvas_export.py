"""canvas.csv cannot be misread by Canvas's import: no student's row is a control row, every
row carries an identifier Canvas matches on and no other student's, and the students left out
are returned with the reason (the batch prints them)."""
from __future__ import annotations

import csv
from pathlib import Path

import pytest

from harness.batch.canvas import WITHHELD, CanvasOptions, write_canvas
from harness.batch.discover import Student, Submission
from harness.batch.roster import RosterError, read_roster
from harness.batch.store import Record


def _record(tmp_path: Path, key: str, *students: Student, score: float = 1.0) -> Record:
    return Record(Submission(key, tmp_path / key, students),
                  {"score": score, "tests": []}, 2.0, "")


def _canvas(tmp_path: Path, records: list[Record], options: CanvasOptions = CanvasOptions()
            ) -> tuple[list[list[str]], list[str]]:
    left_out = write_canvas(tmp_path / "canvas.csv", records, "HW", options)
    rows = list(csv.reader((tmp_path / "canvas.csv").open(newline="", encoding="utf-8")))
    return rows[2:], [u.describe() for u in left_out]


@pytest.mark.parametrize("name", ["Mallory (Points Possible)", "points  possible", "Muted",
                                  "Manual Posting", "Read Only"])
def test_a_name_canvas_reads_as_a_control_row_is_withheld(tmp_path, name):
    rows, left_out = _canvas(tmp_path, [_record(tmp_path, "s1", Student(name, "m@x", "9"))])
    assert rows == [[WITHHELD, "", "9", "", "", "1"]] and left_out == []
    written = (tmp_path / "canvas.csv").read_text()
    assert written.lower().count("possible") == 1  # Canvas's own row only


def test_a_row_without_an_identifier_or_with_anothers_is_not_written(tmp_path):
    """A second account named like another student has no id: Canvas would match it by name.
    Two students giving one id would set one student's grade twice."""
    rows, left_out = _canvas(tmp_path, [
        _record(tmp_path, "s1", Student("Amy Lee", "amy@x.edu", "1"), score=2.0),
        _record(tmp_path, "s2", Student("Amy Lee", "amy.lee@evil.example", "")),
        _record(tmp_path, "s3", Student("Bo", "bo@x.edu", "7")),
        _record(tmp_path, "s4", Student("Cat", "cat@x.edu", "7"))])
    assert rows == [["Amy Lee", "", "1", "", "", "2"]]
    assert left_out == [
        "Amy Lee (submission s2): no identifier Canvas matches on (a plain folder: give "
        "--roster, or --folder-logins if the folders are named after Canvas logins)",
        "Bo (submission s3): its SIS User ID is also given for Cat; neither row is written",
        "Cat (submission s4): its SIS User ID is also given for Bo; neither row is written"]


def test_a_plain_folder_matches_nothing_unless_its_names_are_logins(tmp_path):
    records = [_record(tmp_path, "ada", Student("ada")), _record(tmp_path, "bo", Student("bo"))]
    rows, left_out = _canvas(tmp_path, records)
    assert rows == [] and len(left_out) == 2
    rows, left_out = _canvas(tmp_path, records, CanvasOptions(folder_logins=True))
    assert rows == [["ada", "", "", "ada", "", "1"], ["bo", "", "", "bo", "", "1"]]
    assert left_out == []


def test_the_roster_gives_each_student_canvas_s_identifiers(tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text("Submission,Email,SIS_User_ID,SIS Login ID,ID,Section\n"
                      "ada,,S100,ada,501,A1\n"
                      ",bo@x.edu,S200,bo,502,A2\n"
                      "\n", encoding="utf-8")
    records = [_record(tmp_path, "ada", Student("ada")),
               _record(tmp_path, "s2", Student("Bo", "BO@x.edu", "g-1")),
               _record(tmp_path, "cy", Student("cy"))]
    rows, left_out = _canvas(tmp_path, records, CanvasOptions(read_roster(roster)))
    assert rows == [["ada", "501", "S100", "ada", "A1", "1"],
                    ["Bo", "502", "S200", "bo", "A2", "1"]]
    assert left_out == ["cy (submission cy): not in the roster roster.csv"]


def test_canvas_s_own_export_is_a_roster(tmp_path):
    """Its SIS Login ID finds a student by email, its SIS User ID by Gradescope's id; two
    students found on one row would both set that row's grade: neither is written."""
    roster = tmp_path / "export.csv"
    roster.write_text("Student,ID,SIS User ID,SIS Login ID,Section,HW (1)\n"
                      "    Points Possible,,,,,2\n"
                      '"Lee, Amy",501,S100,amy,A1,\n'
                      '"Bo, Di",502,S200,bdi,A1,\n', encoding="utf-8")
    options = CanvasOptions(read_roster(roster))
    rows, left_out = _canvas(tmp_path, [
        _record(tmp_path, "s1", Student("Amy Lee", "amy@x.edu", "")),
        _record(tmp_path, "s2", Student("Di Bo", "", "S200"))], options)
    assert rows == [["Amy Lee", "501", "S100", "amy", "A1", "1"],
                    ["Di Bo", "502", "S200", "bdi", "A1", "1"]] and left_out == []
    rows, left_out = _canvas(tmp_path, [
        _record(tmp_path, "s1", Student("Amy Lee", "amy@x.edu", "")),
        _record(tmp_path, "s3", Student("Amy L", "", "S100"))], options)
    assert rows == [] and left_out == [
        "Amy L (submission s3): its ID is also given for Amy Lee; neither row is written",
        "Amy Lee (submission s1): its ID is also given for Amy L; neither row is written"]


@pytest.mark.parametrize("text, words", [
    ("", "empty"),
    ("name,score\nAda,1\n", "line 1: the header needs a column that finds a student"),
    ("email,SIS User ID\na@x,1\nA@x,2\n", "line 3: email 'A@x' is also on line 2"),
])
def test_a_roster_that_cannot_be_used_is_refused_saying_where(tmp_path, text, words):
    roster = tmp_path / "roster.csv"
    roster.write_text(text, encoding="utf-8")
    with pytest.raises(RosterError) as caught:
        read_roster(roster)
    assert str(caught.value).startswith(str(roster)) and words in str(caught.value)
