"""A variant is data: ``variant_of: NAME`` in its assignment.yaml takes every key of the varied
assignment it does not write itself (never ``total_points`` or ``ladder``), its cases when it
has no ``cases/`` folder, and the starter files its own ``template/`` lacks."""
from __future__ import annotations

from pathlib import Path

import pytest
from gg_testing import ROOT

from harness.spec import SpecError, find_assignment
from harness.spec.assignments import load_assignment

BASE = """name: base
title: Base
module: player
support_files: [helper.py]
limits: {memory_mb: 256}
total_points: 10
"""
CASES = "group: g\ncases:\n  - {name: one, points: 10, doctest: \">>> 1\\n1\\n\"}\n"


def _tree(root: Path, variant: str) -> Path:
    base = root / "assignments" / "base"
    (base / "cases").mkdir(parents=True)
    (base / "template").mkdir()
    (base / "assignment.yaml").write_text(BASE, encoding="utf-8")
    (base / "cases" / "01_g.yaml").write_text(CASES, encoding="utf-8")
    (base / "template" / "helper.py").write_text("", encoding="utf-8")
    folder = root / "assignments" / "var"
    folder.mkdir()
    (folder / "assignment.yaml").write_text(variant, encoding="utf-8")
    return folder


def test_othello_2025_holds_only_what_differs_and_takes_the_rest_from_othello() -> None:
    variant, othello = find_assignment("othello_2025"), find_assignment("othello")
    assert not (variant.folder / "cases").exists()
    assert variant.case_files == othello.case_files
    assert variant.support_files == othello.support_files
    assert [path.name for path in (variant.folder / "template").iterdir()
            if path.suffix == ".py"] == ["agent.py"]
    assert (variant.limits, variant.probe_files, variant.student_package) == \
        (othello.limits, othello.probe_files, othello.student_package)
    assert variant.kit.endswith(":make_2025_kit") and variant.ladder == {} != othello.ladder
    assert variant.api != othello.api and variant.variant_of == othello.folder
    assert variant.folder == ROOT / "assignments" / "othello_2025"


def test_a_variant_takes_the_keys_it_does_not_write_and_never_the_total(tmp_path: Path) -> None:
    folder = _tree(tmp_path, "name: var\nvariant_of: base\ntitle: Var\nmodule: player\n"
                             "limits: {memory_mb: 128}\n")
    variant = load_assignment(folder)
    assert variant.case_files == (tmp_path / "assignments" / "base" / "cases" / "01_g.yaml",)
    assert variant.support_files == (tmp_path / "assignments" / "base" / "template" / "helper.py",)
    assert variant.limits.memory_mb == 128 and variant.total_points is None
    (folder / "template").mkdir()
    (folder / "template" / "helper.py").write_text("# its own\n", encoding="utf-8")
    assert load_assignment(folder).support_files == (folder / "template" / "helper.py",)


def test_a_variant_of_a_variant_or_of_nothing_is_refused(tmp_path: Path) -> None:
    folder = _tree(tmp_path, "name: var\nvariant_of: nothing\ntitle: Var\nmodule: player\n")
    with pytest.raises(SpecError, match="nothing/assignment.yaml.*is missing"):
        load_assignment(folder)
    (folder / "assignment.yaml").write_text("name: var\nvariant_of: base\ntitle: V\nmodule: p\n",
                                            encoding="utf-8")
    base = tmp_path / "assignments" / "base" / "assignment.yaml"
    base.write_text(BASE + "variant_of: var\n", encoding="utf-8")
    with pytest.raises(SpecError, match="'base' is itself a variant") as error:
        load_assignment(folder)
    assert error.value.field == "variant_of"
