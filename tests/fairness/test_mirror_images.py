"""Issue 51, item 4: answers checked beyond the asked position. Othello's minimax, alpha-beta and
depth-limit groups (and the colour-only variant's minimax and alpha-beta groups), Lights Out,
Stonehenge's scripted games, Search & Games' find_path, Dominoes' get_best_move and Isolation's
choose_move ask shown positions again mirrored
(``mirror_of``), answered by the reference on the image. A file that hard-codes every visible
answer and returns a constant elsewhere earns no hidden point there and is flagged "right only
where it was shown"; the reference is not.
"""
from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Callable, Sequence

import pytest
from gradingfair_support import grade

from harness.batch.discover import Student, Submission
from harness.batch.statuses import base_status
from harness.batch.store import Record
from harness.compare.mirror_images import MIRROR_MESSAGE, RIGHT_ONLY_WHERE_SHOWN
from harness.records.spec import Visibility
from harness.spec import find_assignment
from harness.spec.loader import load_all_cases

pytestmark = pytest.mark.slow

STEMS = ("02_minimax", "03_alphabeta", "04_depth_limit")
GROUPS = ("minimax", "alphabeta", "depth_limit")
SOLUTIONS = Path(__file__).resolve().parents[2] / "assignments"
REFERENCE = SOLUTIONS / "othello/solution/agent.py"

HARD_CODER = '''
TABLE = {table!r}


def _kept(name, board, color, limit, constant):
    key = (name, tuple(tuple(row) for row in board), color, limit)
    return TABLE.get(key, constant)


def compute_utility(board, color):
    return 0


def compute_heuristic(board, color):
    return 0


def minimax_max_node(board, color, limit, caching=0):
    return _kept("minimax_max_node", board, color, limit, (None, 0))


def minimax_min_node(board, color, limit, caching=0):
    return _kept("minimax_min_node", board, color, limit, (None, 0))


def select_move_minimax(board, color, limit, caching=0):
    return _kept("select_move_minimax", board, color, limit, (0, 0))


def alphabeta_max_node(board, color, alpha, beta, limit, caching=0, ordering=0):
    return _kept("alphabeta_max_node", board, color, limit, (None, 0))


def alphabeta_min_node(board, color, alpha, beta, limit, caching=0, ordering=0):
    return _kept("alphabeta_min_node", board, color, limit, (None, 0))


def select_move_alphabeta(board, color, limit, caching=0, ordering=0):
    return _kept("select_move_alphabeta", board, color, limit, (0, 0))


def run_ai():
    pass
'''


def shown_answers() -> dict[tuple[str, Any, int, int], Any]:
    """Every visible call of the groups and the answer its transcript shows, as a student who
    copies the handout's cases would keep them."""
    def limit(call: ast.Call) -> int:
        window = isinstance(call.func, ast.Name) and call.func.id.startswith("alphabeta_")
        return int(ast.literal_eval(call.args[4 if window else 2]))  # alpha, beta come first

    return shown_board_calls("othello", GROUPS, limit)


def shown_board_calls(assignment: str, groups: Sequence[str], extra: Callable[[ast.Call], Any]
                      ) -> dict[Any, Any]:
    """Every visible call ``f(board, color, ...)`` of ``groups`` of an Othello ``assignment``,
    keyed by the function, the board, the colour and ``extra(call)`` (nothing when None), and
    the answer its transcript shows (other statements, like the colour starter's fitting of
    its nodes, are left out)."""
    table: dict[Any, Any] = {}
    for case in load_all_cases(find_assignment(assignment)):
        if case.group not in groups or case.visibility is not Visibility.VISIBLE:
            continue
        boards: dict[str, Any] = {}
        for example in case.examples:
            node = ast.parse(example.source).body[-1]
            if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
                boards[node.targets[0].id] = ast.literal_eval(node.value)
            elif (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
                  and isinstance(node.value.func, ast.Name)):
                call, more = node.value, extra(node.value)
                assert isinstance(call.args[0], ast.Name)
                key = (call.func.id, boards[call.args[0].id], ast.literal_eval(call.args[1]))
                table[key + (() if more is None else (more,))] = ast.literal_eval(example.want)
    return table


def graded_keeper(tmp_path: Path, assignment: str, name: str, text: str, stems: Any
                  ) -> tuple[dict[str, Any], Path]:
    """The results of grading ``text`` handed in as ``name`` on the case files ``stems``."""
    keeper = tmp_path / "submission" / name
    keeper.parent.mkdir()
    keeper.write_text(text, encoding="utf-8")
    return grade(tmp_path / "graded", assignment, keeper, stems=stems), keeper


def hidden_points(document: dict[str, Any]) -> float:
    return float(sum(t["score"] for t in document["tests"] if t["visibility"] != "visible"))


def assert_kept_only_where_shown(document: dict[str, Any], *, visible: int, images: int,
                                 marker: str) -> None:
    """A keeping file's grading: every one of ``visible`` shown cases passed, no hidden point,
    and each of the ``images`` image cases (names holding ``marker``) told and flagged."""
    shown = [t for t in document["tests"] if t["visibility"] == "visible"]
    assert len(shown) == visible and all(t["status"] == "passed" for t in shown)
    assert hidden_points(document) == 0
    asked = [t for t in document["tests"] if marker in t["name"]]
    assert len(asked) == images and all(MIRROR_MESSAGE in t["output"] for t in asked)
    assert sorted(document["extra_data"][RIGHT_ONLY_WHERE_SHOWN]) == sorted(
        t["extra_data"]["case_id"] for t in asked)


def test_a_file_keeping_the_shown_answers_earns_no_hidden_point_and_is_flagged(
        tmp_path: Path) -> None:
    table = shown_answers()
    assert len(table) >= 12
    document, agent = graded_keeper(tmp_path, "othello", "agent.py",
                                    HARD_CODER.format(table=table), STEMS)
    visible = [t for t in document["tests"] if t["visibility"] == "visible"]
    assert visible and all(t["status"] == "passed" for t in visible)
    assert hidden_points(document) == 0
    images = [t for t in document["tests"] if "image of" in t["name"] or "image)" in t["name"]]
    assert len(images) == 6
    assert all(MIRROR_MESSAGE in t["output"] for t in images)
    flagged = document["extra_data"][RIGHT_ONLY_WHERE_SHOWN]
    assert sorted(flagged) == sorted(t["extra_data"]["case_id"] for t in images)
    record = Record(Submission("s1", agent, (Student("Ada"),)), document, 1.0, "")
    assert base_status(record) == ("graded; right only where it was shown (wrong on 6 mirror "
                                   "images of visible positions)")


def test_the_reference_keeps_every_point_and_no_flag(tmp_path: Path) -> None:
    document = grade(tmp_path, "othello", REFERENCE, stems=STEMS)
    assert document["score"] == pytest.approx(sum(t["max_score"] for t in document["tests"]))
    assert RIGHT_ONLY_WHERE_SHOWN not in document["extra_data"]
    record = Record(Submission("s1", REFERENCE, (Student("Ada"),)), document, 1.0, "")
    assert base_status(record) == "graded"
    assert not any(MIRROR_MESSAGE in t["output"] for t in document["tests"])


COLOUR_KEEPER = '''
TABLE = {table!r}


def _kept(name, board, color, constant):
    return TABLE.get((name, tuple(tuple(row) for row in board), color), constant)


def compute_utility(board, color):
    return 0


def minimax_max_node(board, color):
    return _kept("minimax_max_node", board, color, 0)


def minimax_min_node(board, color):
    return _kept("minimax_min_node", board, color, 0)


def select_move_minimax(board, color):
    return _kept("select_move_minimax", board, color, (0, 0))


def alphabeta_max_node(board, color, alpha, beta):
    return _kept("alphabeta_max_node", board, color, 0)


def alphabeta_min_node(board, color, alpha, beta):
    return _kept("alphabeta_min_node", board, color, 0)


def select_move_alphabeta(board, color):
    return _kept("select_move_alphabeta", board, color, (0, 0))


def run_ai():
    pass
'''
COLOUR_STEMS = ("02_minimax", "03_alphabeta")


def test_a_file_keeping_the_shown_colour_only_answers_earns_no_hidden_point_and_is_flagged(
        tmp_path: Path) -> None:
    table = shown_board_calls("othello_colour", ("minimax", "alphabeta"), lambda call: None)
    assert len(table) == 20
    document, keeper = graded_keeper(tmp_path, "othello_colour", "agent.py",
                                    COLOUR_KEEPER.format(table=table), COLOUR_STEMS)
    assert_kept_only_where_shown(document, visible=6, images=6, marker="image of")


def test_the_colour_only_reference_answers_every_image_with_no_flag(tmp_path: Path) -> None:
    document = grade(tmp_path, "othello_colour", SOLUTIONS / "othello_colour/solution/agent.py",
                     stems=COLOUR_STEMS)
    assert document["score"] == pytest.approx(sum(t["max_score"] for t in document["tests"]))
    assert RIGHT_ONLY_WHERE_SHOWN not in document["extra_data"]
    assert not any(MIRROR_MESSAGE in t["output"] for t in document["tests"])


PATH_KEEPER = '''
TABLE = {table!r}


def find_path(start, goal, scene):
    key = (tuple(start), tuple(goal), tuple(tuple(row) for row in scene))
    return TABLE.get(key)
'''


def shown_paths() -> dict[Any, Any]:
    """Every visible find_path call and the answer its transcript shows (the calls are replayed
    on a recorder, so any way the handout writes them is read)."""
    return replayed_answers("search_and_games", "find_path", lambda asked: {
        "find_path": lambda start, goal, scene: asked.append(
            (tuple(start), tuple(goal), tuple(tuple(row) for row in scene)))})


def replayed_answers(assignment: str, group: str,
                     recorders: Callable[[list[Any]], dict[str, Any]]) -> dict[Any, Any]:
    """Every visible call of ``group`` replayed on recorders (``recorders(asked)``: the names
    the transcripts use, each call appending its key to ``asked``), with the answer shown."""
    table: dict[Any, Any] = {}
    for case in load_all_cases(find_assignment(assignment)):
        if case.group != group or case.visibility is not Visibility.VISIBLE:
            continue
        asked: list[Any] = []
        names = recorders(asked)
        for example in case.examples:
            exec(compile(example.source, "<case>", "single" if example.want else "exec"),
                 names)  # trusted: the project's own visible cases
            if asked:
                table[asked.pop()] = ast.literal_eval(example.want)
    return table


def test_a_file_keeping_the_shown_paths_earns_no_hidden_path_point_and_is_flagged(
        tmp_path: Path) -> None:
    table = shown_paths()
    assert len(table) == 3
    document, keeper = graded_keeper(tmp_path, "search_and_games", "search_and_games.py",
                                    PATH_KEEPER.format(table=table), ("09_find_path",))
    assert_kept_only_where_shown(document, visible=2, images=1, marker="image)")


def test_the_reference_finds_every_path_with_no_flag(tmp_path: Path) -> None:
    document = grade(tmp_path, "search_and_games",
                     SOLUTIONS / "search_and_games/solution/search_and_games.py",
                     stems=("09_find_path",))
    assert document["score"] == pytest.approx(sum(t["max_score"] for t in document["tests"]))
    assert RIGHT_ONLY_WHERE_SHOWN not in document["extra_data"]


DOMINOES_KEEPER = '''
TABLE = {table!r}


class DominoesGame:
    def __init__(self, board):
        self.board = [list(row) for row in board]

    def perform_move(self, row, col, vertical):
        for r, c in ((row, col), (row + vertical, col + (not vertical))):
            self.board[r][c] = True

    def get_best_move(self, vertical, limit):
        key = (tuple(tuple(row) for row in self.board), vertical, limit)
        return TABLE.get(key, ((0, 0), 0, 1))
'''


def shown_best_moves() -> dict[Any, Any]:
    """Every visible get_best_move call, keyed by the board it was asked on, and its answer."""
    def recorders(asked: list[Any]) -> dict[str, Any]:
        class Recorder:
            def __init__(self, board: Any) -> None:
                self.board = [list(row) for row in board]

            def perform_move(self, row: int, col: int, vertical: bool) -> None:
                self.board[row][col] = True
                self.board[row + vertical][col + (not vertical)] = True

            def get_best_move(self, vertical: bool, limit: int) -> None:
                asked.append((tuple(tuple(row) for row in self.board), vertical, limit))

        return {"DominoesGame": Recorder}

    return replayed_answers("adversarial_search", "get_best_move", recorders)


def test_a_file_keeping_the_shown_best_moves_earns_no_hidden_point_and_is_flagged(
        tmp_path: Path) -> None:
    table = shown_best_moves()
    assert len(table) == 4
    document, keeper = graded_keeper(tmp_path, "adversarial_search", "adversarial_search.py",
                                    DOMINOES_KEEPER.format(table=table), ("02_get_best_move",))
    assert_kept_only_where_shown(document, visible=2, images=1, marker="image)")


def test_the_dominoes_reference_keeps_every_point_with_no_flag(tmp_path: Path) -> None:
    document = grade(tmp_path, "adversarial_search",
                     SOLUTIONS / "adversarial_search/solution/adversarial_search.py",
                     stems=("02_get_best_move",))
    assert document["score"] == pytest.approx(sum(t["max_score"] for t in document["tests"]))
    assert RIGHT_ONLY_WHERE_SHOWN not in document["extra_data"]


MOVE_KEEPER = '''
TABLE = {table!r}


def choose_move(board, player, time_left):
    return TABLE.get((tuple(tuple(row) for row in board), player), (None, None))
'''


def shown_moves() -> dict[Any, Any]:
    """Every visible choose_move call of Isolation, keyed by its board and player, and the
    move its transcript shows."""
    return replayed_answers("isolation", "choose_move", lambda asked: {
        "choose_move": lambda board, player, time_left: asked.append(
            (tuple(tuple(row) for row in board), player))})


def test_a_file_keeping_the_shown_isolation_moves_earns_no_hidden_point_and_is_flagged(
        tmp_path: Path) -> None:
    table = shown_moves()
    assert len(table) >= 12
    document, keeper = graded_keeper(tmp_path, "isolation", "player.py",
                                    MOVE_KEEPER.format(table=table), ("01_choose_move",))
    assert_kept_only_where_shown(document, visible=12, images=10, marker=" image)")


def test_the_isolation_reference_answers_every_image_with_no_flag(tmp_path: Path) -> None:
    document = grade(tmp_path, "isolation", SOLUTIONS / "isolation/solution/player.py",
                     stems=("01_choose_move",))
    assert document["score"] == pytest.approx(sum(t["max_score"] for t in document["tests"]))
    assert RIGHT_ONLY_WHERE_SHOWN not in document["extra_data"]


LIGHTS_OUT_KEEPER = '''
TABLE = {table!r}


class LightsOutPuzzle:
    def __init__(self, board, history=None):
        self.history = history or (("board", tuple(tuple(row) for row in board)),)

    def _kept(self, method, constant):
        return TABLE.get((method, self.history), constant)

    def get_board(self):
        return self._kept("get_board", None)

    def perform_move(self, row, col):
        self.history += ((row, col),)

    def is_solved(self):
        return self._kept("is_solved", False)

    def copy(self):
        return LightsOutPuzzle(None, self.history)

    def find_solution(self):
        return self._kept("find_solution", None)


def create_puzzle(rows, cols):
    return LightsOutPuzzle(None, (("create", rows, cols),))
'''
LIGHTS_OUT_STEMS = ("01_get_board", "02_create_puzzle", "03_perform_move", "05_is_solved",
                    "06_copy", "08_find_solution")
"""Lights Out's groups whose visible answers a table can keep (successors' printed lines and
scramble's seeded runs are left out: neither has hidden points a constant could earn)."""


def shown_lights_out_answers() -> dict[Any, Any]:
    """Every visible Lights Out question the handout answers with one value, keyed as the keeper
    keys it: the method and how the puzzle was made (a board or a size, then the moves)."""
    table: dict[Any, Any] = {}
    asked: list[Any] = []

    class Recorder:
        def __init__(self, board: Any, history: Any = None) -> None:
            self.history = history or (("board", tuple(tuple(row) for row in board)),)

        def perform_move(self, row: int, col: int) -> None:
            self.history += ((row, col),)

        def copy(self) -> Recorder:
            return Recorder(None, self.history)

        def __getattr__(self, method: str) -> Any:
            return lambda: asked.append((method, self.history))

    names: dict[str, Any] = {"LightsOutPuzzle": Recorder, "create_puzzle": lambda rows, cols:
                             Recorder(None, (("create", rows, cols),))}
    for case in load_all_cases(find_assignment("search_and_games")):
        if case.visibility is not Visibility.VISIBLE or case.group not in (
                "get_board", "create_puzzle", "perform_move", "is_solved", "copy",
                "find_solution"):
            continue
        for example in case.examples:
            exec(example.source, names)  # trusted: the project's own visible cases
            if len(asked) == 1:
                table[asked[0]] = ast.literal_eval(example.want)
            asked.clear()
    return table


def test_a_file_keeping_the_shown_lights_out_answers_earns_no_hidden_point_and_is_flagged(
        tmp_path: Path) -> None:
    table = shown_lights_out_answers()
    assert len(table) == 11
    keeper = tmp_path / "submission" / "search_and_games.py"
    keeper.parent.mkdir()
    keeper.write_text(LIGHTS_OUT_KEEPER.format(table=table), encoding="utf-8")
    document = grade(tmp_path / "graded", "search_and_games", keeper, stems=LIGHTS_OUT_STEMS)
    assert_kept_only_where_shown(document, visible=12, images=4, marker="image)")


def test_the_reference_solves_every_lights_out_image_with_no_flag(tmp_path: Path) -> None:
    document = grade(tmp_path, "search_and_games",
                     SOLUTIONS / "search_and_games/solution/search_and_games.py",
                     stems=LIGHTS_OUT_STEMS)
    assert document["score"] == pytest.approx(sum(t["max_score"] for t in document["tests"]))
    assert RIGHT_ONLY_WHERE_SHOWN not in document["extra_data"]


STONEHENGE_KEEPER = '''
TABLE = {table!r}


class StonehengeState:
    def __init__(self, key):
        self.key = key

    def make_move(self, move):
        side, first, moves = self.key
        return StonehengeState((side, first, moves + move))

    def __str__(self):
        return TABLE.get(("str", self.key), "")


class StonehengeGame:
    def __init__(self, p1_starts):
        side = int(input("Enter the side length of the board: "))
        self.current_state = StonehengeState((side, "p1" if p1_starts else "p2", ""))

    def is_over(self, state):
        return TABLE.get(("is_over", state.key), False)

    def is_winner(self, player):
        return TABLE.get(("is_winner", self.current_state.key, player), False)
'''


def shown_stonehenge_answers() -> dict[Any, Any]:
    """Every visible captures game's boards, is_over and is_winner answers, keyed by the side,
    the first player and the moves made, as a file keeping the shown games would key them."""
    table: dict[Any, Any] = {}
    asked: list[Any] = []

    class State:
        def __init__(self, key: Any) -> None:
            self.key = key

        def make_move(self, move: str) -> State:
            return State((self.key[0], self.key[1], self.key[2] + move))

        def __str__(self) -> str:
            asked.append(("str", self.key))
            return ""

    for case in load_all_cases(find_assignment("stonehenge")):
        if case.group != "captures" or case.visibility is not Visibility.VISIBLE:
            continue
        side = int(str(case.stdin))

        class Game:
            def __init__(self, p1_starts: bool) -> None:
                self.current_state = State((side, "p1" if p1_starts else "p2", ""))

            def is_over(self, state: State) -> None:
                asked.append(("is_over", state.key))

            def is_winner(self, player: str) -> None:
                asked.append(("is_winner", self.current_state.key, player))

        names: dict[str, Any] = {"StonehengeGame": Game}
        for example in case.examples:
            exec(example.source, names)  # trusted: the project's own visible cases
            if asked and asked[0][0] == "str":
                table[asked[0]] = example.want.rstrip("\n")
            elif len(asked) == 1:
                table[asked[0]] = ast.literal_eval(example.want)
            elif asked:
                table.update(zip(asked, ast.literal_eval(example.want)))
            asked.clear()
    return table


def test_a_file_keeping_the_shown_stonehenge_games_earns_no_hidden_point_and_is_flagged(
        tmp_path: Path) -> None:
    table = shown_stonehenge_answers()
    keeper = tmp_path / "submission" / "stonehenge.py"
    keeper.parent.mkdir()
    keeper.write_text(STONEHENGE_KEEPER.format(table=table), encoding="utf-8")
    document = grade(tmp_path / "graded", "stonehenge", keeper, stems=("04_captures",))
    assert_kept_only_where_shown(document, visible=5, images=5, marker="(image of")


def test_the_stonehenge_reference_plays_every_image_with_no_flag(tmp_path: Path) -> None:
    document = grade(tmp_path, "stonehenge", SOLUTIONS / "stonehenge/solution/stonehenge.py",
                     stems=("04_captures",))
    assert document["score"] == pytest.approx(sum(t["max_score"] for t in document["tests"]))
    assert RIGHT_ONLY_WHERE_SHOWN not in document["extra_data"]
