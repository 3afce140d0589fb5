"""Stonehenge: honest variants of the reference solution, written the way students write them,
each get exactly the reference's score (issue 18 classes 7, 9, 10, 11, issue 13 and issue 39
items 8-10).

Every variant is the solution folder with edits (and sometimes extra files), graded through the
real command line next to the untouched solution, whose score is the yardstick (never a
hard-coded number). Variants that hand in files beyond stonehenge.py and strategy.py
(game_interface.py, helper modules) rely on every submitted file reaching the sandbox, and the
strategy-only submission on cases being blocked only by the modules they use.
"""
from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from gg_testing import ROOT, grade_submissions, scores_by_group

# One worker runs this module: its module fixture grades every submission the tests read, and
# on a second worker the same fixture would only wait for the first's kept gradings.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("stonehenge_fairness")]

SOLUTION = ROOT / "assignments" / "stonehenge" / "solution"
TEMPLATE = ROOT / "assignments" / "stonehenge" / "template"
STRATEGY_GROUPS = ("recursive_minimax", "iterative_minimax")
Document = dict[str, Any]


@dataclass(frozen=True)
class Variant:
    """Edits of the solution: ``(file, old, new)`` replacements, extra files, removed files."""

    edits: tuple[tuple[str, str, str], ...] = ()
    extra: dict[str, str] = field(default_factory=dict)
    removed: tuple[str, ...] = ()
    moved: dict[str, str] = field(default_factory=dict)  # file -> its path in the submission

    def build(self, folder: Path) -> Path:
        shutil.copytree(SOLUTION, folder, ignore=shutil.ignore_patterns("__pycache__"))
        for name, old, new in self.edits:
            target = folder / name
            text = target.read_text(encoding="utf-8")
            assert old in text, f"{old!r} is not in {name}"
            target.write_text(text.replace(old, new), encoding="utf-8")
        for name, text in self.extra.items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(text, encoding="utf-8")
        for name in self.removed:
            (folder / name).unlink()
        for name, path in self.moved.items():
            (folder / path).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).rename(folder / path)
        return folder


def registry(game: str = "StonehengeGame", recursive: str = "recursive_minimax_strategy",
             iterative: str = "iterative_minimax_strategy") -> str:
    """The starter's game_interface.py with the student's own names registered in it."""
    text = (TEMPLATE / "game_interface.py").read_text(encoding="utf-8")
    return (text.replace("StonehengeGame", game)
            .replace("recursive_minimax_strategy", recursive)
            .replace("iterative_minimax_strategy", iterative))


JOIN = "        return '\\n'.join(out)"
BEST_MOVE = "    return moves[[-score for score in child_scores].index(best)]"

BOARD_TEXT = {
    # Class 7: the board text with spacing the course's tests accepted.
    "trailing_spaces": Variant(edits=(
        ("stonehenge.py", JOIN, "        return '\\n'.join(line + '  ' for line in out)"),)),
    "final_newline": Variant(edits=(("stonehenge.py", JOIN, JOIN + " + '\\n'"),)),
    "indented": Variant(edits=(
        ("stonehenge.py", JOIN, "        return '\\n'.join('    ' + line for line in out)"),)),
    "decorative_dashes": Variant(edits=(
        ("stonehenge.py", "out.append(pad + self._row(row) + '   '",
         "out.append(pad + self._row(row) + ' - '"),
        ("stonehenge.py", "out.append('  ' + self._row(n) + '   '",
         "out.append('  ' + self._row(n) + ' - '"))),
    "connector_with_trailing_spaces": Variant(edits=(
        ("stonehenge.py", "out.append('       ' + '\\\\   ' * (n - 1) + '\\\\')",
         "out.append('       ' + '\\\\   ' * n)"),)),
}

RENAMED_STONEHENGE = (("stonehenge.py", "StonehengeGame", "Stonehenge"),
                      ("stonehenge.py", "StonehengeState", "StonehengeBoard"))
RENAMED_STRATEGIES = (("strategy.py", "def recursive_minimax_strategy", "def minimax_recursive"),
                      ("strategy.py", "def iterative_minimax_strategy", "def minimax_iterative"))
REGISTERED_NAMES = {
    # Class 10: names the starter's game_interface.py resolves.
    "classes_registered": Variant(edits=RENAMED_STONEHENGE,
                                  extra={"game_interface.py": registry(game="Stonehenge")}),
    "strategies_registered": Variant(edits=RENAMED_STRATEGIES, extra={
        "game_interface.py": registry(recursive="minimax_recursive",
                                      iterative="minimax_iterative")}),
    "everything_registered": Variant(edits=RENAMED_STONEHENGE + RENAMED_STRATEGIES, extra={
        "game_interface.py": registry("Stonehenge", "minimax_recursive", "minimax_iterative")}),
}

NODE_MODULE = '''"""
The search tree of the iterative strategy.
"""
from typing import Any, List, Optional


class TreeNode:
    """
    A state, its children once known, and its score once known.
    """
    state: Any
    children: Optional[List['TreeNode']]
    score: Optional[int]

    def __init__(self, state: Any) -> None:
        self.state = state
        self.children = None
        self.score = None

    def expand(self) -> List['TreeNode']:
        """
        Create and return one child per move.
        """
        self.children = [TreeNode(self.state.make_move(move))
                         for move in self.state.get_possible_moves()]
        return self.children
'''

DECORATOR = '''

def counted(function: Any) -> Any:
    """
    Count the calls of function (one wrapper per decorated function).
    """
    def wrapper(*args: Any) -> Any:
        wrapper.calls += 1
        return function(*args)
    wrapper.calls = 0
    return wrapper


@counted
def _final_score('''

HELPERS = {
    # Issue 13: helpers the handout allows never count as recursion of the iterative strategy.
    "iterative_node_module": Variant(
        edits=(("strategy.py", "root = _Node(game.current_state)",
                "from tree_node import TreeNode\n    root = TreeNode(game.current_state)"),
               ("strategy.py", "            node.children = [_Node(node.state.make_move(move))\n"
                               "                             for move in "
                               "node.state.get_possible_moves()]\n",
                "            node.expand()\n")),
        extra={"tree_node.py": NODE_MODULE}),
    "decorated_helpers": Variant(edits=(
        ("strategy.py", "\n\ndef _final_score(", DECORATOR),
        ("strategy.py", "def _best_move(", "@counted\ndef _best_move("),
        ("strategy.py", "def iterative_minimax_strategy(",
         "@counted\ndef iterative_minimax_strategy("),
    )),
    "recursion_in_helper_package": Variant(
        edits=(("strategy.py", "    scores = [_recursive_score(game, state.make_move(move), memo)",
                "    from search.scores import recursive_score as _recursive_score\n"
                "    scores = [_recursive_score(game, state.make_move(move), memo)"),),
        extra={"search/__init__.py": "",
               "search/scores.py": (
                   "from typing import Any, Dict\n\n\n"
                   "def _final(game: Any, state: Any) -> int:\n"
                   "    saved = game.current_state\n"
                   "    game.current_state = state\n"
                   "    me = state.get_current_player_name()\n"
                   "    won = game.is_winner(me)\n"
                   "    lost = game.is_winner('p2' if me == 'p1' else 'p1')\n"
                   "    game.current_state = saved\n"
                   "    return 1 if won else -1 if lost else 0\n\n\n"
                   "def recursive_score(game: Any, state: Any, memo: Dict[str, int]) -> int:\n"
                   "    key = repr(state)\n"
                   "    if key not in memo:\n"
                   "        if game.is_over(state):\n"
                   "            memo[key] = _final(game, state)\n"
                   "        else:\n"
                   "            memo[key] = max(-recursive_score(game, state.make_move(m), memo)\n"
                   "                            for m in state.get_possible_moves())\n"
                   "    return memo[key]\n")}),
}

NODE_MODULE_EDITS = HELPERS["iterative_node_module"].edits

TIE_BREAKING = {
    # Any move that guarantees the best score is right (the handout fixes no order).
    "last_best_move": Variant(edits=(("strategy.py", BEST_MOVE, (
        "    negated = [-score for score in child_scores]\n"
        "    return moves[len(negated) - 1 - negated[::-1].index(best)]")),)),
    "random_best_move": Variant(edits=(("strategy.py", BEST_MOVE, (
        "    import random\n"
        "    return random.choice([move for move, score in zip(moves, child_scores)\n"
        "                          if -score == best])")),)),
    "reversed_search_order": Variant(edits=(
        ("strategy.py", "            stack.extend(node.children)",
         "            stack.extend(reversed(node.children))"),
        ("strategy.py", BEST_MOVE,
         "    return max(zip([-score for score in child_scores], moves))[1]"))),
}

SAVED = "    saved = game.current_state\n"
RESTORE = "    finally:\n        game.current_state = saved\n"
RESTORING = {
    # The notes ask for game.current_state to be "the state it was": a copy put back is that.
    "restores_a_deep_copy": Variant(edits=(("strategy.py", SAVED, (
        "    import copy\n    saved = copy.deepcopy(game.current_state)\n")),)),
}
NOT_RESTORED = Variant(edits=(("strategy.py", RESTORE, "    finally:\n        pass\n"),))
RESTORE_CASES = {"recursive_minimax: game.current_state is the same position afterwards",
                 "iterative_minimax: game.current_state is the same position afterwards"}

INDEPENDENT_PARTS = {
    # Class 9: the strategies run on the grader's games, whatever stonehenge.py does.
    "stonehenge_syntax_error": Variant(edits=(
        ("stonehenge.py", "class StonehengeGame(Game):", "class StonehengeGame(Game)"),)),
    "stonehenge_raises_at_import": Variant(edits=(
        ("stonehenge.py", "LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'",
         "LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'\nraise RuntimeError('unfinished')"),)),
    "strategy_only": Variant(removed=("stonehenge.py",)),
    # Issue 39 item 8: the strategy imports its own tree_node.py, and stonehenge.py is missing.
    "strategy_with_helper_only": Variant(edits=NODE_MODULE_EDITS,
                                         extra={"tree_node.py": NODE_MODULE},
                                         removed=("stonehenge.py",)),
}

THREE_PLY = """        for child in children:
            replies = [child.make_move(reply) for reply in child.get_possible_moves()]
            if replies and all(any(reply.make_move(move).winner() is not None
                                   for move in reply.get_possible_moves())
                               for reply in replies):
                return self.WIN  # whatever they answer, I win with my next move
        return self.DRAW"""
ISSUE_39 = {
    # Item 8: the strategy's helper module goes along from its own folder, wherever
    # stonehenge.py is.
    "files_in_separate_folders": Variant(
        edits=NODE_MODULE_EDITS, extra={"tree_node.py": NODE_MODULE},
        moved={"stonehenge.py": "game/stonehenge.py", "strategy.py": "ai/strategy.py",
               "tree_node.py": "ai/tree_node.py"}),
    # Item 9: "no" as None, which `if game.is_winner(...)` and assertFalse read as no.
    "is_winner_none_for_no": Variant(edits=(
        ("stonehenge.py", "        return self.current_state.winner() == player",
         "        if self.current_state.winner() == player:\n            return True"),)),
    # Item 10: a deeper look that finds a win two moves ahead returns the true value, 1.
    "rough_outcome_looks_deeper": Variant(edits=(
        ("stonehenge.py", "        return self.DRAW", THREE_PLY),)),
}

MOVES = ("return [self.board.label[cell] for cell in self.board.cells\n"
         "                if not self.owners[cell]]")
STAR_IMPORT = ("strategy.py", "from typing import Any",
               "from Stonehenge import *\nfrom typing import Any")
CAPITAL_REGISTRY = registry().replace("from stonehenge import", "from Stonehenge import")
ISSUE_50 = {
    # Item 3: the handout fixes no order of the moves (the course's tests compare them as a set).
    "moves_in_another_order": Variant(edits=(
        ("stonehenge.py", MOVES, MOVES.replace("return [", "return list(reversed([") + "))"),)),
    # Item 2: the game file is Stonehenge.py, and the student's own files import it so.
    "capitalised_game_file": Variant(
        edits=(STAR_IMPORT,), moved={"stonehenge.py": "Stonehenge.py"},
        extra={"game_interface.py": CAPITAL_REGISTRY}),
    # Item 2: stonehenge.py imported as Stonehenge, as a Windows or macOS disk finds it.
    "imports_its_game_in_another_case": Variant(edits=(STAR_IMPORT,),
                                                extra={"game_interface.py": CAPITAL_REGISTRY}),
    # Item 2: the game kept in stonehenge_game.py, registered in game_interface.py.
    "game_in_its_own_module": Variant(
        moved={"stonehenge.py": "stonehenge_game.py"},
        extra={"game_interface.py": registry().replace("from stonehenge import",
                                                       "from stonehenge_game import")}),
}

# A helper under neither handout file's folder: no file of the student's could import it there
# either, so the cases that need it fail, and the results say where it was.
HELPER_ELSEWHERE = Variant(edits=NODE_MODULE_EDITS, extra={"tree_node.py": NODE_MODULE},
                           moved={"stonehenge.py": "game/stonehenge.py",
                                  "strategy.py": "src/strategy.py",
                                  "tree_node.py": "lib/tree_node.py"})

FULL_VARIANTS = {**BOARD_TEXT, **REGISTERED_NAMES, **HELPERS, **TIE_BREAKING, **RESTORING,
                 **ISSUE_39, **ISSUE_50}


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Document]:
    """Results by name: "reference", "template", and every variant."""
    base = tmp_path_factory.mktemp("stonehenge_fairness")
    folders = {"reference": SOLUTION, "template": TEMPLATE}
    for name, variant in {**FULL_VARIANTS, **INDEPENDENT_PARTS,
                          "not_restored": NOT_RESTORED,
                          "helper_elsewhere": HELPER_ELSEWHERE}.items():
        folders[name] = variant.build(base / name)
    return grade_submissions("stonehenge", folders, base)


def lost(document: Document) -> dict[str, str]:
    """The failed cases with their feedback, for assertion messages."""
    return {t["name"]: t["output"][:600] for t in document["tests"]
            if t["score"] < t["max_score"]}


@pytest.mark.parametrize("name", sorted(FULL_VARIANTS))
def test_honest_variant_scores_what_the_reference_scores(
        name: str, graded: dict[str, Document]) -> None:
    reference = graded["reference"]
    assert graded[name]["score"] == reference["score"], lost(graded[name])
    assert scores_by_group(graded[name]) == scores_by_group(reference)


def test_a_strategy_that_leaves_another_position_loses_the_restore_cases(
        graded: dict[str, Document]) -> None:
    """The restore check still catches the bug it is for: current_state left at a leaf."""
    assert set(lost(graded["not_restored"])) == RESTORE_CASES
    message = lost(graded["not_restored"])[min(RESTORE_CASES)]
    assert "must be the position it was when the strategy was called" in message


@pytest.mark.parametrize("name", sorted(BOARD_TEXT))
def test_spacing_difference_is_remarked_with_visible_spaces(
        name: str, graded: dict[str, Document]) -> None:
    outputs = "\n".join(t["output"] for t in graded[name]["tests"]
                        if t["name"].startswith("board: "))
    assert "only the spacing differs from the handout's layout" in outputs
    assert "ends with a newline" in outputs if name == "final_newline" else "\u00b7" in outputs


@pytest.mark.parametrize("name", sorted(REGISTERED_NAMES))
def test_registered_names_are_noted(name: str, graded: dict[str, Document]) -> None:
    text = json.dumps(graded[name])
    assert "in your game_interface.py, in its place" in text


@pytest.mark.parametrize("name", sorted(INDEPENDENT_PARTS))
def test_strategy_groups_do_not_depend_on_stonehenge_py(
        name: str, graded: dict[str, Document]) -> None:
    reference = scores_by_group(graded["reference"])
    scores = scores_by_group(graded[name])
    for group in STRATEGY_GROUPS:
        assert scores.get(group) == reference[group], lost(graded[name])
    assert graded[name]["score"] == sum(reference[group] for group in STRATEGY_GROUPS)


def test_template_scores_at_most_two_percent(graded: dict[str, Document]) -> None:
    document = graded["template"]
    total = sum(t["max_score"] for t in document["tests"])
    assert total == graded["reference"]["score"] == 100
    assert document["score"] <= 0.02 * total


def test_a_helper_outside_both_folders_stays_out_and_costs_the_cases_that_need_it(
        graded: dict[str, Document]) -> None:
    document = graded["helper_elsewhere"]
    reference = scores_by_group(graded["reference"])
    scores = scores_by_group(document)
    assert scores["iterative_minimax"] < reference["iterative_minimax"]
    assert {group: score for group, score in scores.items() if group != "iterative_minimax"} \
        == {group: score for group, score in reference.items() if group != "iterative_minimax"}
    assert ("Not included (outside the folders of stonehenge.py and strategy.py): "
            "lib/tree_node.py.") in document["output"]
