"""Reading a submission: only regular Python files, bounded, never following a link."""
from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from gg_testing import ROOT, make_deep_folder, remove_deep_folder

from harness.intake.reading import Caps, _read_bounded, _Walker, take

pytestmark = pytest.mark.slow

# A generous bound for runs that must merely finish (a blocking open or a catastrophic regex
# would take many minutes); it is never a speed assertion.
FINISHES_WITHIN = 60


def write(path: Path, text: str = "x = 1\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def names(snapshot) -> list[str]:
    return [f.path.as_posix() for f in snapshot.files]


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, text=True,
                          capture_output=True, timeout=FINISHES_WITHIN)


def test_links_are_listed_and_never_followed(tmp_path):
    secret = write(tmp_path / "outside" / "secret.py", "SECRET = 1\n")
    sub = tmp_path / "sub"
    write(sub / "agent.py")
    (sub / "helper.py").symlink_to(secret)
    (sub / "linked_folder").symlink_to(secret.parent)
    (sub / "shadow.py").symlink_to("/etc/shadow")
    snapshot = take(sub)
    assert names(snapshot) == ["agent.py"]
    assert b"SECRET" not in b"".join(f.data for f in snapshot.files)
    assert sorted(snapshot.ignored) == [
        "helper.py (ignored: not a regular file)",
        "linked_folder (ignored: not a regular file)",
        "shadow.py (ignored: not a regular file)"]


def test_a_link_swapped_in_after_the_listing_is_not_opened(tmp_path):
    write(tmp_path / "outside.py", "SECRET = 1\n")
    (tmp_path / "agent.py").symlink_to(tmp_path / "outside.py")
    walker = _Walker(Caps())
    descriptor = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
    try:  # what the walk does if the listing said "regular file" and a link is there now
        walker.take_file(descriptor, "agent.py", Path("agent.py"))  # type: ignore[arg-type]
    finally:
        os.close(descriptor)
    assert walker.snapshot.files == []
    assert walker.snapshot.ignored == ["agent.py (ignored: not a regular file)"]


def test_a_fifo_is_neither_opened_for_reading_nor_waited_on(tmp_path):
    write(tmp_path / "agent.py")
    os.mkfifo(tmp_path / "stuck.py")
    done = run_python(f"from harness.intake.reading import take; s = take({str(tmp_path)!r}); "
                      "print([f.path.name for f in s.files], s.ignored)")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['agent.py'] ['stuck.py (ignored: not a regular file)']"


def test_reading_stops_one_byte_past_the_cap_however_much_is_there():
    read_end, write_end = os.pipe()
    writer = threading.Thread(target=lambda: os.write(write_end, b"x" * 5000), daemon=True)
    writer.start()
    try:
        assert _read_bounded(read_end, 100) is None  # more than 100 bytes: refused
        writer.join()
        assert len(os.read(read_end, 10_000)) == 5000 - 101  # only cap + 1 bytes were taken
    finally:
        os.close(read_end)
        os.close(write_end)


def test_an_oversized_file_is_ignored_without_reading_it(tmp_path):
    write(tmp_path / "agent.py")
    with open(tmp_path / "big.py", "wb") as big:
        big.truncate(3 << 30)  # 3 GB, sparse: copying it would be the attack
    snapshot = take(tmp_path)
    assert names(snapshot) == ["agent.py"] and not snapshot.refused
    assert snapshot.ignored == ["big.py (ignored: larger than 2 MB)"]


def test_over_the_caps_the_submission_is_refused_with_the_reason(tmp_path):
    for index in range(4):
        write(tmp_path / f"m{index}.py", "x" * 10)
    assert "more than 3 Python files" in take(tmp_path, Caps(files=3)).refused
    assert "add up to more than 35 bytes" in take(tmp_path, Caps(total_bytes=35)).refused
    assert "more than 2 files and folders" in take(tmp_path, Caps(entries=2)).refused
    refused = take(tmp_path, Caps(files=3))
    assert refused.files == []  # nothing of a refused submission is used


def test_a_1100_deep_folder_is_refused_not_a_crash(tmp_path):
    write(tmp_path / "agent.py")
    make_deep_folder(tmp_path, 1100)
    try:
        assert take(tmp_path).refused == "its folders are nested more than 32 deep"
    finally:
        remove_deep_folder(tmp_path)


def test_virtual_environments_and_tool_folders_are_skipped(tmp_path):
    write(tmp_path / "agent.py")
    write(tmp_path / "env" / "pyvenv.cfg", "home = /usr\n")
    write(tmp_path / "env" / "lib" / "numpy" / "core.py")
    write(tmp_path / ".git" / "hooks" / "x.py")
    write(tmp_path / "__MACOSX" / "._agent.py")
    write(tmp_path / "node_modules" / "a.py")
    assert names(take(tmp_path)) == ["agent.py"]


def test_a_missing_path_and_a_single_file(tmp_path):
    assert not take(tmp_path / "missing").exists
    file = write(tmp_path / "mine.txt", "print(1)\n")
    snapshot = take(file)
    assert snapshot.is_file and names(snapshot) == ["mine.txt"]


def test_names_shown_to_the_student_are_made_safe(tmp_path):
    write(tmp_path / "agent.py")
    (tmp_path / ("\x1b[31mred" + "y" * 200)).symlink_to("/etc/passwd")
    shown = take(tmp_path).ignored[0]
    assert "\x1b" not in shown and "\\x1b[31mred" in shown and len(shown) < 130
