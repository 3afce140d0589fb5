"""Malformed specs are refused with the file, the case and the field at fault."""
from __future__ import annotations

from pathlib import Path

import pytest

from harness.spec import SpecError, find_assignment, load_assignment, load_case_file
from harness.spec.api_reach import required_names
from harness.spec.assignments import parse_api_entry
from harness.spec.doctests import parse_transcript, render_doctest
from harness.spec.loader import _names_in, load_all_cases

GOOD_ASSIGNMENT = """\
name: demo
title: Demo
module: demo
api:
  - Thing.run(self, n, limit=3)
  - helper(x)
"""


def make_assignment(tmp_path: Path, case_files: dict[str, str], assignment: str = GOOD_ASSIGNMENT
                    ) -> Path:
    folder = tmp_path / "demo"
    (folder / "cases").mkdir(parents=True)
    (folder / "assignment.yaml").write_text(assignment)
    for name, text in case_files.items():
        (folder / "cases" / name).write_text(text)
    return folder


def load(tmp_path: Path, text: str):
    folder = make_assignment(tmp_path, {"01_x.yaml": text})
    assignment = load_assignment(folder)
    return load_case_file(folder / "cases" / "01_x.yaml", assignment, 1)


def test_a_valid_file_loads_with_defaults_and_requirements(tmp_path):
    cases = load(tmp_path, """\
group: basics
defaults: {points: 2}
cases:
  - name: one
    doctest: |
      >>> Thing().run(3)
      4
  - name: two
    points: 5
    visibility: after_due_date
    doctest: |
      >>> helper(1)
      2
""")
    assert [c.name for c in cases] == ["one", "two"]
    assert [c.points for c in cases] == [2.0, 5.0]
    assert cases[0].requires == ("Thing.run",)
    assert cases[1].requires == ("helper",)
    assert cases[1].visibility.value == "after_due_date"
    assert cases[0].number == "1.1" and cases[1].id == "basics::two"


@pytest.mark.parametrize("text, case, field, words", [
    ("group: g\ncases:\n  - name: a\n    doctest: '>>> 1'\n    visibility: secret\n",
     "a", "visibility", "secret"),
    ("group: g\ncases:\n  - name: a\n    doctest: '>>> 1'\n    pointz: 3\n",
     "a", None, "pointz"),
    ("group: g\ncases:\n  - name: a\n", "a", "doctest", "exactly one of"),
    ("group: g\ncases:\n  - name: a\n    doctest: 'no prompt here'\n", "a", "doctest",
     "no '>>>' example"),
    ("group: g\ncases:\n  - name: a\n    doctest: '>>> 1 +'\n", "a", "doctest", "not valid Python"),
    ("group: g\ncases:\n  - {name: a, doctest: '>>> 1'}\n  - {name: a, doctest: '>>> 2'}\n",
     "a", "name", "share this name"),
    ("group: g\ncases:\n  - name: a\n    doctest: '>>> 1'\n    points: -1\n", "a", "points",
     "minimum"),
    ("group: g\ncases:\n  - name: a\n    doctest: '>>> 1'\n    timeout: 0\n", "a", "timeout",
     "a number of seconds (more than 0"),
])
def test_malformed_case_names_file_case_and_field(tmp_path, text, case, field, words):
    with pytest.raises(SpecError) as error:
        load(tmp_path, text)
    assert error.value.file.endswith("01_x.yaml")
    assert error.value.case == case
    if field:
        assert error.value.field == field
    assert words in str(error.value)


def test_broken_yaml_names_the_file_and_line(tmp_path):
    with pytest.raises(SpecError) as error:
        load(tmp_path, "group: g\ncases: [\n  - name: a\n")
    assert "01_x.yaml" in str(error.value) and "not valid YAML" in str(error.value)
    assert "line" in str(error.value)


def test_missing_generated_file_and_stale_settings_are_refused(tmp_path):
    text = ("group: g\ngenerate:\n  - {id: rnd, generator: 'assignments.adversarial_search."
            "generators:best_move_cases', seed: 1, count: 2}\n")
    with pytest.raises(SpecError, match="missing: run 'gamegrader generate'"):
        load(tmp_path, text)
    folder = tmp_path / "demo"
    (folder / "generated").mkdir()
    (folder / "generated" / "01_x.rnd.yaml").write_text(
        "source: {generator: 'assignments.adversarial_search.generators:best_move_cases', "
        "seed: 2, count: 2, params: {}}\ncases: []\n")
    with pytest.raises(SpecError, match="made from other settings") as error:
        load_case_file(folder / "cases" / "01_x.yaml", load_assignment(folder), 1)
    assert error.value.case == "rnd" and error.value.field == "generate"


def test_assignment_file_errors(tmp_path):
    with pytest.raises(SpecError, match="differs from its folder"):
        load_assignment(make_assignment(tmp_path, {}, GOOD_ASSIGNMENT.replace("name: demo",
                                                                             "name: other")))
    bad_api = GOOD_ASSIGNMENT.replace("helper(x)", "helper x")
    with pytest.raises(SpecError) as error:
        load_assignment(make_assignment(tmp_path / "b", {}, bad_api))
    assert error.value.field == "api[1]"
    with pytest.raises(SpecError, match="no assignment named 'nope'"):
        find_assignment("nope")


def test_api_entries_parse_parameters_and_defaults():
    entry = parse_api_entry("Game.get_best_move(self, vertical, limit=2)")
    assert entry.parameters == ("self", "vertical", "limit") and entry.required == 2
    assert entry.short_names == {"get_best_move"}
    assert parse_api_entry("Game.__init__(self, board)").short_names == {"Game"}


def test_api_entries_name_the_class_a_function_makes_and_suggested_names():
    factory = parse_api_entry("create_puzzle(rows, cols) -> LightsOutPuzzle")
    assert (factory.name, factory.returns, factory.optional) == ("create_puzzle",
                                                                 "LightsOutPuzzle", False)
    assert factory.text == "create_puzzle(rows, cols)"
    suggested = parse_api_entry("optional DominoesGame.copy(self)")
    assert suggested.optional and suggested.name == "DominoesGame.copy" and not suggested.returns
    with pytest.raises(ValueError):
        parse_api_entry("create_puzzle(rows, cols) -> ")


SHARED_NAMES = tuple(parse_api_entry(text) for text in (
    "Puzzle.__init__(self, board)", "Puzzle.copy(self)", "Puzzle.solve(self)",
    "make_puzzle(n) -> Puzzle", "Game.__init__(self, board)", "Game.copy(self)",
    "optional Game.peek(self)", "Game.best(self, limit)"))


@pytest.mark.parametrize("source, needed", [
    # the class a case names or makes decides whose copy it needs (issue 50 item 1)
    ("p = make_puzzle(3)\np.copy()", ("Puzzle.copy", "make_puzzle")),
    ("g = Game(b)\ng.copy()", ("Game.__init__", "Game.copy")),
    ("g = Game(b)\np = Puzzle(b)\ng.copy()", ("Puzzle.__init__", "Puzzle.copy",
                                               "Game.__init__", "Game.copy")),
    # a copy whose class the case does not show: every class that has one, as before
    ("x.copy()", ("Puzzle.copy", "Game.copy")),
    # a name the handout only suggests blocks nothing
    ("g = Game(b)\ng.peek()\ng.best(2)", ("Game.__init__", "Game.best")),
])
def test_a_case_needs_the_methods_of_the_classes_its_calls_reach(source, needed):
    assert required_names(SHARED_NAMES, _names_in(source)) == needed


def test_search_and_games_cases_wait_only_on_their_own_class():
    """No Lights Out case needs a DominoesGame name, and no Dominoes case a LightsOutPuzzle one."""
    assignment = find_assignment("search_and_games")
    for number, path in enumerate(assignment.case_files, 1):
        for case in load_case_file(path, assignment, number):
            dominoes = case.group in ("dominoes infrastructure", "get_best_move")
            other = "LightsOutPuzzle" if dominoes else "DominoesGame"
            assert not [name for name in case.requires if name.startswith(other)], case.id


def test_transcripts_parse_and_render():
    examples = parse_transcript(">>> for i in range(2):\n...     print(i)\n...\n0\n1\n>>> x = 1\n")
    assert examples[0].source == "for i in range(2):\n    print(i)\n"
    assert examples[0].want == "0\n1\n"
    assert examples[1].want == ""
    text = render_doctest(["g = G()"], "g.best(True, 2)", ((0, 1), 3, 10))
    assert text == ">>> g = G()\n>>> g.best(True, 2)\n((0, 1), 3, 10)\n"


def test_every_shipped_assignment_loads():
    for name in ["adversarial_search"]:
        cases = load_all_cases(find_assignment(name))
        assert cases and len({c.id for c in cases}) == len(cases)


def test_include_merges_another_file_with_scaled_points_and_refuses_cycles(tmp_path):
    folder = make_assignment(tmp_path, {
        "01_base.yaml": "group: base\ndefaults: {points: 4}\ncases:\n"
                        "  - {name: one, doctest: \">>> helper(1)\\n2\\n\"}\n",
        "02_user.yaml": "group: reuse\ncases:\n  - {name: own, doctest: \">>> 1\\n1\\n\"}\n"
                        "include:\n  - {file: 01_base.yaml, points_scale: 0.5,"
                        " override: {visibility: hidden}}\n",
        "03_loop.yaml": "group: loop\ninclude:\n  - {file: 03_loop.yaml}\n",
        "04_gone.yaml": "group: gone\ninclude:\n  - {file: nowhere.yaml}\n",
    })
    assignment = load_assignment(folder)
    cases = load_case_file(folder / "cases/02_user.yaml", assignment, 2)
    assert [(c.id, c.points, c.visibility.value) for c in cases] == [
        ("reuse::own", 1.0, "visible"), ("reuse::one", 2.0, "hidden")]
    with pytest.raises(SpecError, match="includes itself"):
        load_case_file(folder / "cases/03_loop.yaml", assignment, 3)
    with pytest.raises(SpecError, match="does not exist") as error:
        load_case_file(folder / "cases/04_gone.yaml", assignment, 4)
    assert error.value.field == "include[0]"


def test_a_mirror_image_names_a_visible_case_of_its_group(tmp_path):
    case_file = """\
group: g
cases:
  - {name: shown, doctest: ">>> helper(1)\\n2\\n"}
  - {name: hidden one, visibility: hidden, doctest: ">>> helper(3)\\n4\\n"}
  - {name: image, visibility: hidden, mirror_of: %s, doctest: ">>> helper(2)\\n3\\n"}
"""
    good = load_assignment(make_assignment(tmp_path / "good", {"01_x.yaml": case_file % "shown"}))
    assert [c.mirror_of for c in load_all_cases(good)] == [None, None, "g::shown"]
    for i, wrong in enumerate(("nowhere", "hidden one")):
        folder = make_assignment(tmp_path / f"bad{i}", {"01_x.yaml": case_file % repr(wrong)})
        with pytest.raises(SpecError, match="mirror_of names no visible case") as error:
            load_all_cases(load_assignment(folder))
        assert error.value.field == "mirror_of" and error.value.case == "image"
