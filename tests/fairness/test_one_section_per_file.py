"""Search & Games files written the way many students hand them in: one section per file, a class
left unfinished, helper methods the handout only suggests named otherwise (issue 50 item 1).

Lights Out and Dominoes share method names (get_board, perform_move, copy, successors). A case
needs what its calls reach: a Lights Out case made with ``create_puzzle`` waits on no
``DominoesGame`` method, a Dominoes case on no ``LightsOutPuzzle`` one, and the Dominoes methods
the handout only suggests ("[0 point] Suggested infrastructure ... only the search method will be
tested") block nothing. Each file earns, group by group, what the reference earns in the
sections it holds, and no message names a class its case does not use.
"""
from __future__ import annotations

from typing import Any

import pytest
from gradingfair_support import SOLUTIONS, grade, grade_reference, scores_by_group

# One worker runs this module: its fixture grades every file once.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("one_section_per_file")]

SOURCE = SOLUTIONS["search_and_games"].read_text(encoding="utf-8")
_BAR = "############################################################\n"
HEADER, LIGHTS_OUT, GRID, DOMINOES = SOURCE.split(_BAR + "# Section ")
LIGHTS_OUT_GROUPS = ("get_board", "create_puzzle", "perform_move", "scramble", "is_solved",
                     "copy", "successors", "find_solution")
DOMINOES_GROUPS = ("dominoes infrastructure", "get_best_move")
UNFINISHED_DOMINOES = '''
class DominoesGame(object):

    def __init__(self, board):
        self.board = board

    def get_best_move(self, vertical, limit):
        pass
'''


def _section(text: str) -> str:
    return _BAR + "# Section " + text


def _renamed(text: str, pairs: tuple[tuple[str, str], ...]) -> str:
    for old, new in pairs:
        assert old in text, old
        text = text.replace(old, new)
    return text


DOMINOES_HELPERS_RENAMED = (("def copy(self):\n        return DominoesGame",
                             "def clone(self):\n        return DominoesGame"),
                            ("def successors(self, vertical)", "def children(self, vertical)"),
                            ("self.copy()", "self.clone()"),
                            ("game.successors(player)", "game.children(player)"))
FILES = {
    # Lights Out alone, nothing else written yet.
    "lights_out_only": (HEADER + _section(LIGHTS_OUT), LIGHTS_OUT_GROUPS),
    # The file: Lights Out and Grid done, a DominoesGame without get_board.
    "dominoes_class_unfinished": (HEADER + _section(LIGHTS_OUT) + _section(GRID)
                                  + UNFINISHED_DOMINOES, LIGHTS_OUT_GROUPS + ("find_path",)),
    # Dominoes alone, its board kept under another name.
    "dominoes_only": (HEADER + _renamed(_section(DOMINOES), (("def get_board(", "def board("),)),
                      ("get_best_move",)),
    # The reference with Dominoes' suggested copy/successors named otherwise: every point.
    "dominoes_helpers_renamed": (HEADER + _section(LIGHTS_OUT) + _section(GRID)
                                 + _renamed(_section(DOMINOES), DOMINOES_HELPERS_RENAMED),
                                 LIGHTS_OUT_GROUPS + ("find_path", "get_best_move")),
}


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    base = tmp_path_factory.mktemp("one_section_per_file")
    documents = {"reference": grade_reference(base / "reference", "search_and_games")}
    for name, (text, _) in FILES.items():
        submission = base / name / "search_and_games.py"
        submission.parent.mkdir(parents=True)
        submission.write_text(text, encoding="utf-8")
        documents[name] = grade(base / name / "grading", "search_and_games", submission)
    return documents


def _lost(document: dict[str, Any]) -> dict[str, str]:
    return {t["name"]: t["output"][:300] for t in document["tests"]
            if t["score"] < t["max_score"]}


@pytest.mark.parametrize("name", sorted(FILES))
def test_each_section_earns_what_the_reference_earns_there(
        name: str, graded: dict[str, dict[str, Any]]) -> None:
    reference, document = scores_by_group(graded["reference"]), graded[name]
    earned = scores_by_group(document)
    groups = FILES[name][1]
    assert {group: earned[group] for group in groups} == \
        {group: reference[group] for group in groups}, _lost(document)
    assert document["score"] == pytest.approx(sum(reference[group] for group in groups))


@pytest.mark.parametrize("name", sorted(FILES))
def test_no_case_names_a_class_it_does_not_use(
        name: str, graded: dict[str, dict[str, Any]]) -> None:
    for test in graded[name]["tests"]:
        group = test["name"].split(": ", 1)[0]
        other = "LightsOutPuzzle" if group in DOMINOES_GROUPS else "DominoesGame"
        assert other not in test["output"], (test["name"], test["output"])


def test_suggested_methods_are_a_note_not_a_problem(
        graded: dict[str, dict[str, Any]]) -> None:
    output = graded["dominoes_helpers_renamed"]["output"]
    assert ("DominoesGame.copy is missing from your file; the handout only suggests it"
            in output)


def test_the_sections_are_what_the_reference_holds() -> None:
    """The split above follows the reference's section banners."""
    assert LIGHTS_OUT.startswith("1: Lights Out") and GRID.startswith("2: Grid Navigation")
    assert DOMINOES.startswith("3: Dominoes Game")
