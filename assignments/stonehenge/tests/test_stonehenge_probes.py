"""The explicit game tree (trusted side and probe side) and the call-graph probe."""
from __future__ import annotations

import copy
import textwrap
from pathlib import Path

import pytest
from stonehenge_helpers import PROBES, import_isolated

from assignments.stonehenge.game_tree import (
    GameTree,
    TreeGame,
    TreeTooLargeError,
    build_tree,
    caterpillar,
    decode,
    encode,
)
from assignments.stonehenge.rules import Stonehenge
from reference.search.minimax import move_values, optimal_moves

NAMES = {1: "p1", 2: "p2"}


@pytest.fixture(scope="module")
def probes() -> dict:
    return import_isolated([PROBES], ["gg_tree_game", "gg_call_graph"])


def side_1_tree() -> GameTree:
    return build_tree(Stonehenge(1), Stonehenge(1).initial_state(), NAMES, max_nodes=10)


def test_side_1_tree_is_one_move_deep() -> None:
    # Any first move wins on side 1: the root has 3 children, each a p1 win with p2 to move.
    tree = side_1_tree()
    assert encode(tree) == "T-A1B2C3;F1;F1;F1"
    assert tree.count_paths() == 3 and tree.depth() == 1


def test_transpositions_are_shared() -> None:
    game = Stonehenge(2)
    position = game.initial_state()
    for move in "AEBC":
        position = game.result(position, move)
    tree = build_tree(game, position, NAMES, max_nodes=100)
    # D, F, G left (see test_stonehenge_side_2_decisions). p1 F, p2 D, p1 G and p1 G, p2 D,
    # p1 F reach the same full board, which appears once, as node 10.
    assert encode(tree) == (
        "T-D1F2G3;F-F4G5;F-D6G7;F-D8F9;T2;T2;T-G10;T-D11;T-F10;T-D12;F1;F1;F1")
    assert tree.count_paths() == 6 and tree.depth() == 3
    assert optimal_moves(TreeGame(tree), 0) == ("F", "G")


def test_round_trip_through_text() -> None:
    game = Stonehenge(3)
    position = game.initial_state()
    for move in "ABCDEFG":
        position = game.result(position, move)
    tree = build_tree(game, position, NAMES, max_nodes=2000)
    assert decode(encode(tree)) == tree


def test_node_budget_is_enforced() -> None:
    with pytest.raises(TreeTooLargeError, match="more than 50 positions"):
        build_tree(Stonehenge(2), Stonehenge(2).initial_state(), NAMES, max_nodes=50)


@pytest.mark.parametrize("text, problem", [
    ("T-A1;F1x", "cannot be parsed"),
    ("T-A0", "out of order"),
    ("T-A5;F1", "out of range"),
    ("T1A1;F1", "cannot have a winner"),
    ("", "cannot be parsed"),
])
def test_malformed_text_is_refused(text: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        decode(text)


def test_caterpillar_has_one_good_move() -> None:
    tree = caterpillar(5)
    assert tree.depth() == 6 and len(tree.nodes) == 16  # 4 B moves, then A and A
    assert optimal_moves(TreeGame(tree), 0) == ("B",)
    assert move_values(TreeGame(tree), 3) == (("A", -1), ("B", -1))  # p2 cannot escape
    assert all(node.winner != ("p1" if node.p1_turn else "p2")
               for node in tree.nodes if not node.moves)  # the player to move has lost


@pytest.mark.parametrize("length", [0, 2, -1])
def test_caterpillar_length_must_be_odd(length: int) -> None:
    with pytest.raises(ValueError, match="odd"):
        caterpillar(length)


def test_probe_game_follows_the_starter_api(probes: dict) -> None:
    game = probes["gg_tree_game"].load_tree_game(encode(caterpillar(3)))
    root = game.current_state
    assert (root.p1_turn, root.get_current_player_name()) == (True, "p1")
    assert root.get_possible_moves() == ["A", "B"] and root.is_valid_move("B")
    assert not game.is_over(root) and not game.is_winner("p1")
    child = root.make_move("B")
    assert child.get_current_player_name() == "p2" and root.get_possible_moves() == ["A", "B"]
    trap = root.make_move("A").make_move("A")
    assert game.is_over(trap) and trap.get_possible_moves() == []
    game.current_state = trap
    assert game.is_winner("p2") and not game.is_winner("p1")
    assert repr(trap) != repr(child)
    assert repr(root.make_move("A").make_move("A")) == repr(trap)
    assert root.make_move("A") is not root.make_move("A")  # fresh objects, like make_move
    assert (root.WIN, root.LOSE, root.DRAW) == (1, -1, 0)
    assert game.str_to_move(" b ") == "B"
    with pytest.raises(ValueError, match="illegal move"):
        root.make_move("C")


def test_probe_rough_outcome(probes: dict) -> None:
    root = probes["gg_tree_game"].load_tree_game(encode(caterpillar(1))).current_state
    assert root.rough_outcome() == 1  # B wins at once
    assert root.make_move("A").rough_outcome() == 1  # p2's A wins at once
    assert root.make_move("A").make_move("A").rough_outcome() == -1  # over: p1 lost
    longer = probes["gg_tree_game"].load_tree_game(encode(caterpillar(5))).current_state
    # p2 after B: A lets p1 win at once, but after B p1 cannot win at once: unknown.
    assert longer.make_move("B").rough_outcome() == 0
    assert longer.make_move("B").make_move("B").rough_outcome() == 0


def test_probe_deep_copies_are_cheap_and_independent(probes: dict) -> None:
    game = probes["gg_tree_game"].load_tree_game(encode(caterpillar(3)))
    clone = copy.deepcopy(game)
    clone.current_state = clone.current_state.make_move("B")
    assert game.current_state.get_current_player_name() == "p1"
    assert clone._tree is game._tree


def test_same_position_accepts_the_state_or_a_copy_and_nothing_else(probes: dict) -> None:
    tree_game = probes["gg_tree_game"]
    game = tree_game.load_tree_game(encode(caterpillar(3)))
    before = game.current_state
    same = tree_game.same_position
    assert same(before, before) and same(copy.deepcopy(before), before)
    assert same(copy.copy(before), before)
    assert not same(before.make_move("B"), before)
    other_tree = tree_game.load_tree_game(encode(caterpillar(5))).current_state
    assert not same(other_tree, before)
    turned = copy.copy(before)
    turned.p1_turn = not before.p1_turn
    assert not same(turned, before) and not same("TreeState(0, p1_turn=True)", before)


WATCHED_MODULE = '''
import copy
from helpers import tree as helper_tree

def recursive(n):
    return 0 if n == 0 else 1 + recursive(n - 1)

def ping(n):
    return 0 if n == 0 else pong(n - 1)

def pong(n):
    return ping(n)

def iterative(n):
    stack, total = [n], 0
    while stack:
        k = stack.pop()
        if k:
            stack.append(k - 1)
            total += 1
    copy.deepcopy([[[n]]])
    return total

def via_generator(n):
    return sum(x for x in range(n))

def calls_recursive(n):
    return recursive(n)

def logged(function):  # one decorator, two functions: its wrapper is not recursion
    def wrapper(*args):
        return function(*args)
    return wrapper

@logged
def leaf(n):
    return n

@logged
def decorated_iterative(n):
    return sum(leaf(k) for k in range(n))

def closure_with_counter(n):
    calls = 0
    def visit(k):
        nonlocal calls
        calls += 1
        return 0 if k == 0 else visit(k - 1)
    visit(n)
    return calls

def uses_helper_package(n):
    return helper_tree.depth(n)

def imports_inside(n):  # the import machinery nests, but it is not the student's code
    import json, random, xml.dom.minidom
    return n

def uses_helper_loop(n):
    return helper_tree.count(n)

def switches_probe_off(n):
    import sys
    sys.setprofile(None)
    return recursive(n)
'''

HELPER_MODULE = '''
def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)

def count(n):
    total = 0
    for _ in range(n):
        total += 1
    return total
'''


@pytest.fixture(scope="module")
def watched(tmp_path_factory: pytest.TempPathFactory) -> dict:
    folder: Path = tmp_path_factory.mktemp("student")
    (folder / "student_code.py").write_text(textwrap.dedent(WATCHED_MODULE))
    (folder / "helpers").mkdir()
    (folder / "helpers" / "__init__.py").write_text("")
    (folder / "helpers" / "tree.py").write_text(textwrap.dedent(HELPER_MODULE))
    return import_isolated([folder, PROBES], ["student_code", "gg_call_graph"])


@pytest.mark.parametrize("function, recursed", [
    ("recursive", ["recursive"]),
    ("ping", ["ping", "pong"]),
    ("iterative", []),
    ("via_generator", []),
    ("calls_recursive", ["recursive"]),
    ("decorated_iterative", []),
    ("closure_with_counter", ["visit"]),
    ("uses_helper_package", ["depth"]),
    ("uses_helper_loop", []),
    ("imports_inside", []),
])
def test_call_graph_probe_names_recursive_functions(
        watched: dict, function: str, recursed: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # The sandbox runs cases in the submission's folder.
    monkeypatch.chdir(Path(watched["student_code"].__file__).parent)
    value, names = watched["gg_call_graph"].find_recursion(
        getattr(watched["student_code"], function), 4)
    assert names == recursed
    assert value == {"via_generator": 6, "ping": 0, "decorated_iterative": 6,
                     "closure_with_counter": 5}.get(function, 4)


def test_call_graph_probe_fails_when_switched_off(watched: dict) -> None:
    import sys

    sentinel = sys.getprofile()
    probe = watched["gg_call_graph"]
    with pytest.raises(probe.InstrumentationDisabled, match="called sys.setprofile"):
        probe.find_recursion(watched["student_code"].switches_probe_off, 3)
    assert sys.getprofile() is sentinel


def test_call_graph_probe_fails_when_moves_go_unseen(watched: dict, probes: dict) -> None:
    import sys

    probe = watched["gg_call_graph"]
    game = probes["gg_tree_game"].load_tree_game(encode(caterpillar(3)))

    def quiet(game: object) -> str:  # make moves while the profiler is off, switched via C
        watcher = sys.getprofile()
        list(map(sys.setprofile, [None]))
        game.current_state.make_move("B")  # type: ignore[attr-defined]
        list(map(sys.setprofile, [watcher]))
        return "B"

    # quiet is defined here, not in the watched folder.
    with pytest.raises(probe.InstrumentationDisabled, match="missed moves"):
        probe.find_recursion(quiet, game)
    assert probe.find_recursion(lambda g: g.current_state.make_move("B") and "B",
                                game) == ("B", [])


def test_call_graph_probe_restores_the_profiler(watched: dict) -> None:
    import sys

    sentinel = sys.getprofile()
    assert watched["gg_call_graph"].find_recursion(len, [1, 2]) == (2, [])  # not a function
    watched["gg_call_graph"].find_recursion(watched["student_code"].recursive, 2)
    assert sys.getprofile() is sentinel
