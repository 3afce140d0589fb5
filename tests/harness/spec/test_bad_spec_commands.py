"""Issue 39, item 14: bad specs get a clear error, never silence. A ``total_points`` that is not
the sum of the cases is refused by ``list``, ``build``, ``validate`` and ``generate --check``;
``generate --check`` checks the case files' schema (it passed a typo that ``list`` refused);
one broken assignment.yaml does not hide the others from ``list``."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from gg_testing import ROOT, run_gamegrader

from harness.spec import SpecError, find_assignment
from harness.spec.loader import load_checked_cases

pytestmark = pytest.mark.slow


def _root(tmp_path: Path) -> Path:
    """A GAMEGRADER_ROOT with a copy of every spec (to break) and the real code."""
    root = tmp_path / "root"
    shutil.copytree(ROOT / "assignments", root / "assignments")
    (root / "reference").symlink_to(ROOT / "reference")
    return root


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _run(root: Path, *args: str) -> tuple[int, str]:
    done = run_gamegrader(*args, env={"GAMEGRADER_ROOT": str(root)})
    return done.returncode, done.stdout + done.stderr


def test_a_total_that_is_not_the_cases_sum_is_refused_everywhere(tmp_path: Path) -> None:
    # Dominoes: generate --check refuses the total once it has generated the cases again, about
    # 1 core-second here (Isolation's, the assignment broken here before, about 9)
    root = _root(tmp_path)
    _edit(root / "assignments/adversarial_search/assignment.yaml", "total_points: 40",
          "total_points: 41")
    problem = "total_points is 41, but the cases' points add up to 40"
    status, text = _run(root, "list")
    assert status == 1 and problem in text
    assert "othello " in text and "100 points" in text  # the others are still listed
    for args in (["generate", "--check", "adversarial_search"],
                 ["build", "--assignment", "adversarial_search", "--out",
                  str(tmp_path / "a.zip")]):
        status, text = _run(root, *args)
        assert status != 0 and problem in text and "assignment.yaml" in text, args
    assert not (tmp_path / "a.zip").exists()


def test_validate_refuses_the_total_before_grading(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """(validate's first check, run in-process: the release check itself grades the reference,
    which this test need not pay for.)"""
    from harness.release.validate import _check_specs
    root = _root(tmp_path)
    _edit(root / "assignments/adversarial_search/assignment.yaml", "total_points: 40",
          "total_points: 39.5")
    monkeypatch.setenv("GAMEGRADER_ROOT", str(root))
    check = _check_specs(find_assignment("adversarial_search"))
    assert not check.ok and "field 'total_points'" in check.detail
    with pytest.raises(SpecError, match="add up to 40"):
        load_checked_cases(find_assignment("adversarial_search"))


def test_generate_check_refuses_a_typo_in_a_case_file(tmp_path: Path) -> None:
    """The same check passes on the copy before the typo (the control: an about 1 core-second
    check, where Othello's, the control before, generated its cases again for about 30)."""
    root = _root(tmp_path)
    status, text = _run(root, "generate", "--check", "adversarial_search")
    assert status == 0, text
    _edit(root / "assignments/adversarial_search/cases/02_get_best_move.yaml",
          "    points: 0.5\n", "    pionts: 0.5\n")
    status, text = _run(root, "generate", "--check", "adversarial_search")
    assert status != 0 and "'pionts' was unexpected" in text and "02_get_best_move.yaml" in text


def test_a_broken_assignment_file_does_not_hide_the_others(tmp_path: Path) -> None:
    root = _root(tmp_path)
    (root / "assignments/othello_colour/assignment.yaml").write_text("name: [\n")
    status, text = _run(root, "list")
    lines = text.splitlines()
    assert status == 1
    broken = [line for line in lines if line.startswith("othello_colour ")]
    assert broken and "spec error" in broken[0] and "assignment.yaml" in broken[0]
    listed = {line.split()[0] for line in lines if " points (" in line}
    assert {"adversarial_search", "isolation", "othello", "stonehenge"} <= listed
