"""A case's ``precompute``: ``gamegrader generate`` stores the trusted function's answer for the
case's options, the loader hands it to the comparator in ``options["precomputed"]``, and a
missing or stale answer is a spec error that says to run ``generate`` (issue 36)."""
from __future__ import annotations

from pathlib import Path

import pytest

from assignments.stonehenge.positions import accepted_moves
from harness.spec import SpecError, load_assignment, load_case_file
from harness.spec.generate import generate
from harness.spec.loader import flattened_entries, precomputed_path

ASSIGNMENT = "name: demo\ntitle: Demo\nmodule: demo\napi: []\n"
CASES = """\
group: strategy
defaults: {precompute: "assignments.stonehenge.positions:precomputed"}
cases:
  - name: subtract square from 9
    options: {game: subtract_square, total: TOTAL}
    doctest: |
      >>> 1
      1
  - name: subtract square from 6
    options: {game: subtract_square, total: 6}
    doctest: |
      >>> 1
      1
"""


def _spec(tmp_path: Path, total: int = 9) -> Path:
    folder = tmp_path / "demo"
    (folder / "cases").mkdir(parents=True, exist_ok=True)
    (folder / "assignment.yaml").write_text(ASSIGNMENT)
    (folder / "cases" / "01_x.yaml").write_text(CASES.replace("TOTAL", str(total)))
    return folder


def _load(folder: Path):
    return load_case_file(folder / "cases" / "01_x.yaml", load_assignment(folder), 1)


def test_generate_stores_the_answer_and_the_loader_hands_it_to_the_comparator(tmp_path):
    folder = _spec(tmp_path)
    written = generate(load_assignment(folder))
    target = precomputed_path(folder / "cases" / "01_x.yaml")
    assert written == [target] and target.name == "01_x.precomputed.yaml"
    cases = _load(folder)
    assert cases[0].options["precomputed"] == {
        "accepted": list(accepted_moves({"game": "subtract_square", "total": 9}))}
    assert cases[1].options["precomputed"]["accepted"] == [1, 4]
    assert cases[0].options["total"] == 9  # the case's own options stay
    # the flattened entries (the student package's cases) hold the answer, not the function
    entries = flattened_entries(folder / "cases" / "01_x.yaml")
    assert all("precompute" not in e and "precomputed" in e["options"] for e in entries)
    assert generate(load_assignment(folder), check=True) == []


def test_an_answer_computed_from_other_options_is_refused(tmp_path):
    folder = _spec(tmp_path)
    generate(load_assignment(folder))
    _spec(tmp_path, total=18)  # options edited, generate not run
    with pytest.raises(SpecError, match="no answer for this case's options: run 'gamegrader "
                                        "generate'") as error:
        _load(folder)
    assert error.value.case == "subtract square from 9" and error.value.field == "precompute"
    target = precomputed_path(folder / "cases" / "01_x.yaml")
    assert generate(load_assignment(folder), check=True) == [target]
    generate(load_assignment(folder))
    assert _load(folder)[0].options["precomputed"]["accepted"] == [1, 16]


def test_a_missing_answer_file_is_refused(tmp_path):
    folder = _spec(tmp_path)
    with pytest.raises(SpecError, match="run 'gamegrader generate'"):
        _load(folder)


def test_no_precompute_no_file(tmp_path):
    folder = _spec(tmp_path)
    generate(load_assignment(folder))
    text = (folder / "cases" / "01_x.yaml").read_text()
    (folder / "cases" / "01_x.yaml").write_text(
        text.replace('defaults: {precompute: "assignments.stonehenge.positions:precomputed"}\n',
                     ""))
    target = precomputed_path(folder / "cases" / "01_x.yaml")
    assert generate(load_assignment(folder)) == [target] and not target.exists()
    assert "precomputed" not in _load(folder)[0].options
