"""Finding the student's file in what Gradescope hands over."""
from __future__ import annotations

from harness.submission import find_files

WANTED = ("adversarial_search.py",)


def write(path, text="x = 1\n"):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_exact_name_at_any_depth_wins_the_shallowest(tmp_path):
    write(tmp_path / "deep/er/adversarial_search.py")
    shallow = write(tmp_path / "deep/adversarial_search.py")
    found = find_files(tmp_path, WANTED)
    assert found.files["adversarial_search.py"].path.as_posix() == "deep/adversarial_search.py"
    assert "Found adversarial_search.py as deep/adversarial_search.py." in found.notes


def test_renamed_copies_are_recognised(tmp_path):
    renamed = write(tmp_path / "adversarial_search (1).py")
    write(tmp_path / "helper.py")
    found = find_files(tmp_path, WANTED)
    assert found.files["adversarial_search.py"].data == renamed.read_bytes() and not found.missing
    assert found.files["adversarial_search.py"].name == "adversarial_search (1).py"


def test_a_single_python_file_stands_in_and_macos_junk_is_ignored(tmp_path):
    only = write(tmp_path / "hw4.py")
    write(tmp_path / "__MACOSX/._hw4.py")
    assert find_files(tmp_path, WANTED).files["adversarial_search.py"].name == only.name


def test_missing_file_lists_what_was_submitted(tmp_path):
    write(tmp_path / "a.py")
    write(tmp_path / "b.py")
    found = find_files(tmp_path, WANTED)
    assert found.missing == ["adversarial_search.py"]
    assert "a.py, b.py" in found.notes[-1]


def test_a_file_path_is_graded_under_the_canonical_name(tmp_path):
    file = write(tmp_path / "mine.py")
    found = find_files(file, WANTED)
    assert list(found.files) == ["adversarial_search.py"]
    assert found.files["adversarial_search.py"].data == file.read_bytes()
    assert found.notes == ["Graded mine.py as adversarial_search.py."]
