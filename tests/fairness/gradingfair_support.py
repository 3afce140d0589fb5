"""Shared by the grading-fairness tests (Dominoes, Search & Games, Isolation; a uniquely named
helper module): grade a submission on some case files of an assignment, and make honest
variants of a reference by editing its source.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Sequence

import pytest
from gg_testing import (
    FINISHED_GRADING,
    ROOT,
    run_gamegrader,
    scores_by_group,
    subset_root,
    without_ladder,
)

SOLUTIONS = {
    "adversarial_search": ROOT / "assignments/adversarial_search/solution/adversarial_search.py",
    "search_and_games": ROOT / "assignments/search_and_games/solution/search_and_games.py",
    "isolation": ROOT / "assignments/isolation/solution/player.py",
}
GENERATED = {"isolation": 2}
"""How many cases of each generated file the tests of a value's form or of printing keep, by
assignment: Isolation's choose_move cases spend the player's clock by design (about 45 ms each,
90 in all), and two of each generated kind (stuck, forced, winning, safe, ...) show a form or a
print as well as all of them do. Unlisted: every case."""
TEMPLATES = {
    "adversarial_search": ROOT / "assignments/adversarial_search/template/adversarial_search.py",
    "search_and_games": ROOT / "assignments/search_and_games/template/search_and_games.py",
    "isolation": ROOT / "assignments/isolation/template/player_account.py",
}


def grade(folder: Path, assignment: str, submission: Path, *, stems: Sequence[str] = (),
          generated: int | None = None, budget: float | None = None,
          timeout_cap: float | None = None, ladder: bool = True,
          twins: bool = False) -> dict[str, Any]:
    """Grade ``submission`` (only the case files ``stems``, if given, with the first
    ``generated`` cases of each generated file, if given; without ``ladder``, every case but
    a staff ladder worth no points and, unless ``twins``, the hidden twins of the seeded visible
    games, ``gg_testing.without_ladder``); the results document."""
    folder.mkdir(parents=True, exist_ok=True)
    env = subset_root(folder / "root", assignment, stems, generated) if stems else (
        {} if ladder else without_ladder(folder / "root", assignment, keep_twins=twins))
    output = folder / "results.json"
    extra = ["--budget", str(budget)] if budget is not None else []
    extra += ["--timeout-cap", str(timeout_cap)] if timeout_cap is not None else []
    done = run_gamegrader("grade", "--assignment", assignment, "--submission", str(submission),
                          "--output", str(output), "--quiet", *extra, env=env)
    assert done.returncode in FINISHED_GRADING, done.stderr[-3000:]
    document: dict[str, Any] = json.loads(output.read_text(encoding="utf-8"))
    return document


def variant(folder: Path, base: Path, replacements: Sequence[tuple[str, str]],
            name: str | None = None) -> Path:
    """A copy of ``base`` with each ``old`` (which must occur) replaced by ``new``; a replacement
    whose ``old`` starts with ``re:`` is a regular expression."""
    text = base.read_text(encoding="utf-8")
    for old, new in replacements:
        if old.startswith("re:"):
            text, count = re.subn(old[3:], new, text, flags=re.MULTILINE)
            assert count, f"{old!r} matches nothing in {base}"
        else:
            assert old in text, f"{old!r} is not in {base}"
            text = text.replace(old, new)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / (name or base.name)
    target.write_text(text, encoding="utf-8")
    return target


def grade_reference(folder: Path, assignment: str, *, stems: Sequence[str] = (),
                    generated: int | None = None) -> dict[str, Any]:
    """Grade the reference of ``assignment`` (what every honest variant is held to)."""
    return grade(folder, assignment, SOLUTIONS[assignment], stems=stems, generated=generated)


def reference_fixture(assignment: str, stems: Sequence[str] = (),
                      generated: int | None = None) -> Any:
    """A module-scoped fixture: the reference's results on ``stems``, graded once per module."""
    @pytest.fixture(scope="module")
    def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
        return grade_reference(tmp_path_factory.mktemp("reference"), assignment, stems=stems,
                               generated=generated)
    return reference


def grade_variant(folder: Path, assignment: str, edits: Sequence[tuple[str, str]], *,
                  stems: Sequence[str] = (), generated: int | None = None,
                  budget: float | None = None, timeout_cap: float | None = None
                  ) -> dict[str, Any]:
    """Grade the reference of ``assignment`` edited by ``edits`` (see ``variant``)."""
    honest = variant(folder / "variant", SOLUTIONS[assignment], edits)
    return grade(folder / "grading", assignment, honest, stems=stems, generated=generated,
                 budget=budget, timeout_cap=timeout_cap)


def per_case(document: dict[str, Any]) -> dict[str, tuple[float, str]]:
    """Score and status per test name (the status tells 0-point cases passed from failed)."""
    return {test["name"]: (test["score"], test["status"]) for test in document["tests"]}


__all__ = ["GENERATED", "SOLUTIONS", "TEMPLATES", "grade", "grade_reference", "grade_variant",
           "per_case", "reference_fixture", "scores_by_group", "variant"]
