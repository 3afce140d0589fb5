"""The suite's grading cache (tests/gg_testing.py): the same quiet grade of the same files runs
once per test run, anything else runs every time."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import gg_testing
import pytest

pytestmark = pytest.mark.slow


@pytest.fixture
def runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    """Every grading actually started; each writes a results.json naming its submission."""
    started: list[tuple[str, ...]] = []
    monkeypatch.setenv(gg_testing.GRADINGS_ENV, str(tmp_path / "kept"))
    (tmp_path / "kept").mkdir()

    def fake_run(args, timeout, env):
        started.append(tuple(args))
        output = Path(args[args.index("--output") + 1]) if "--output" in args else None
        if output is not None:
            output.write_text(f"graded {len(started)}", encoding="utf-8")
        return subprocess.CompletedProcess(args, 0, "out", "err")

    monkeypatch.setattr(gg_testing, "_run", fake_run)
    return started


def _grade(submission: Path, output: Path, *extra: str) -> str:
    done = gg_testing.run_gamegrader("grade", "--assignment", "a", "--submission",
                                     str(submission), "--output", str(output), "--quiet", *extra)
    assert (done.returncode, done.stdout, done.stderr) == (0, "out", "err")
    return output.read_text(encoding="utf-8")


def test_the_same_files_are_graded_once_and_each_caller_gets_the_results(tmp_path, runs):
    submission = tmp_path / "s.py"
    submission.write_text("x = 1\n")
    assert _grade(submission, tmp_path / "one.json") == "graded 1"
    copy = tmp_path / "copy" / "s.py"
    copy.parent.mkdir()
    copy.write_text("x = 1\n")
    assert _grade(copy, tmp_path / "two.json") == "graded 1"
    assert len(runs) == 1


def test_other_files_or_options_are_graded_afresh(tmp_path, runs):
    submission = tmp_path / "s.py"
    submission.write_text("x = 1\n")
    _grade(submission, tmp_path / "one.json")
    _grade(submission, tmp_path / "two.json", "--timeout-cap", "2")
    submission.write_text("x = 2\n")
    _grade(submission, tmp_path / "three.json")
    assert len(runs) == 3


def test_links_special_files_and_other_commands_are_never_kept(tmp_path, runs):
    folder = tmp_path / "sub"
    folder.mkdir()
    (folder / "s.py").write_text("x = 1\n")
    os.symlink("/etc/passwd", folder / "link.py")
    _grade(folder, tmp_path / "one.json")
    _grade(folder, tmp_path / "two.json")
    (folder / "link.py").unlink()
    os.mkfifo(folder / "pipe")
    _grade(folder, tmp_path / "three.json")
    _grade(folder, tmp_path / "four.json")
    gg_testing.run_gamegrader("grade", "--assignment", "a", "--submission", str(folder),
                              "--output", str(tmp_path / "five.json"))  # not quiet
    assert len(runs) == 5


def test_a_folder_too_deep_to_walk_is_graded_afresh_not_crashing_the_test(tmp_path, runs):
    folder = tmp_path / "deep"
    folder.mkdir()
    gg_testing.make_deep_folder(folder, 1100)
    try:
        _grade(folder, tmp_path / "one.json")
        _grade(folder, tmp_path / "two.json")
    finally:
        gg_testing.remove_deep_folder(folder)
    assert len(runs) == 2
