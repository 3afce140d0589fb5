"""Reference minimax (recursive and explicit-stack) and the rough_outcome estimate."""
from __future__ import annotations

import random
import sys

import pytest

from assignments.stonehenge.game_tree import GameTree, TreeGame, TreeNode, caterpillar
from assignments.stonehenge.rough import rough_outcome
from assignments.stonehenge.rules import Stonehenge
from reference.core.counters import Counter
from reference.core.protocols import GameFacts
from reference.games.subtract_square import SubtractSquare
from reference.search.minimax import (
    iterative_minimax_decision,
    iterative_minimax_value,
    minimax_decision,
    minimax_value,
    move_values,
    optimal_moves,
)

# A two-ply tree in the spirit of AIMA Figure 5.2, with win/loss/tie leaves for p1:
#            0 (p1)
#      A /    B|    \ C
#     1 (p2)  2 (p2)  3 (p2)
#    a/ \b    a|      a/ \b
#   +1   0    -1     +1  +1
TWO_PLY = GameTree((
    TreeNode(True, (("A", 1), ("B", 2), ("C", 3)), None),
    TreeNode(False, (("A", 4), ("B", 5)), None),
    TreeNode(False, (("A", 6),), None),
    TreeNode(False, (("A", 7), ("B", 8)), None),
    TreeNode(True, (), "p1"),
    TreeNode(True, (), None),
    TreeNode(True, (), "p2"),
    TreeNode(True, (), "p1"),
    TreeNode(True, (), "p1"),
))


@pytest.mark.parametrize("iterative", [False, True])
def test_two_ply_tree_values(iterative: bool) -> None:
    assert move_values(TreeGame(TWO_PLY), 0, iterative=iterative) == (
        ("A", 0), ("B", -1), ("C", 1))
    assert optimal_moves(TreeGame(TWO_PLY), 0, iterative=iterative) == ("C",)


def test_handout_subtract_square_from_6_is_a_win_for_the_first_player() -> None:
    game = SubtractSquare()
    assert minimax_value(game, game.initial_state(6), 1) == 1
    assert iterative_minimax_value(game, game.initial_state(6), 2) == -1


@pytest.mark.parametrize("total, best", [
    (2, (1,)), (8, (1,)), (9, (4, 9)), (14, (4, 9)), (18, (1, 16)), (29, (9,)), (5, (1, 4))])
def test_subtract_square_optimal_moves(total: int, best: tuple[int, ...]) -> None:
    # 5 and 2 are lost, so every move is optimal there (all score -1).
    game = SubtractSquare()
    assert optimal_moves(game, game.initial_state(total)) == best
    assert minimax_decision(game, game.initial_state(total)) == best[0]
    assert iterative_minimax_decision(game, game.initial_state(total)) == best[0]


def test_recursive_and_iterative_agree_on_random_stonehenge_positions() -> None:
    rng = random.Random(148)
    for side in (2, 3):
        game = Stonehenge(side)
        for _ in range(6):
            position = game.initial_state()
            for _ in range(len(game.labels) - 7):
                position = game.result(position, rng.choice(game.actions(position)))
                if game.is_terminal(position):
                    break
            if game.is_terminal(position):
                continue
            assert move_values(game, position) == move_values(game, position, iterative=True)


def test_stonehenge_side_2_decisions() -> None:
    game = Stonehenge(2)
    # p1 claimed A, B (lines AB, AC); p2 claimed E, C (EG, BE, CDE, CF); p1 to move, D F G left.
    # D takes BDF and ADG, but then p2's F or G takes FG: a fifth line for p2, who wins.
    # F (FG, BDF) or G (FG, ADG) leaves p2 nothing, and p1's last cell then makes five.
    position = game.initial_state()
    for move in "AEBC":
        position = game.result(position, move)
    assert move_values(game, position) == (("D", -1), ("F", 1), ("G", 1))
    assert optimal_moves(game, position) == ("F", "G")
    assert minimax_decision(game, position) == "F"
    assert rough_outcome(game, position) == 0


def test_counter_counts_distinct_positions() -> None:
    game = SubtractSquare()
    counter = Counter()
    minimax_value(game, game.initial_state(5), 1, counter)
    # Positions are (total, player): 5/p1 -> 4/p2, 1/p2; 4/p2 -> 3/p1, 0/p1; 1/p2 -> 0/p1;
    # 3/p1 -> 2/p2 -> 1/p1 -> 0/p2. Each distinct position is counted once (memoised).
    assert counter == Counter(leaves=2, expansions=6)
    other = Counter()
    iterative_minimax_value(game, game.initial_state(5), 1, other)
    assert other == Counter(leaves=2, expansions=6)


def test_iterative_version_needs_no_recursion_depth() -> None:
    deep = caterpillar(3 * sys.getrecursionlimit() + 1)
    assert optimal_moves(TreeGame(deep), 0, iterative=True) == ("B",)


def test_decision_on_a_finished_game_is_refused() -> None:
    game = SubtractSquare()
    with pytest.raises(ValueError, match="no legal move"):
        minimax_decision(game, game.initial_state(0))


def test_games_without_zero_sum_are_refused() -> None:
    class Cooperative(SubtractSquare):
        facts = GameFacts(zero_sum=False)

    with pytest.raises(ValueError, match="zero_sum"):
        minimax_value(Cooperative(), Cooperative().initial_state(3), 1)


@pytest.mark.parametrize("total, expected", [
    (0, -1), (1, 1), (4, 1), (2, -1), (5, -1), (10, 0), (3, 0), (6, 0), (8, 0)])
def test_rough_outcome_on_subtract_square(total: int, expected: int) -> None:
    # 2 -> 1 and 5 -> 4 or 1 leave only squares; 10 -> 6, 3 -> 2 and 8 -> 7 do not.
    game = SubtractSquare()
    assert rough_outcome(game, game.initial_state(total)) == expected


def test_rough_outcome_on_stonehenge() -> None:
    game = Stonehenge(2)
    position = game.initial_state()
    for move in "ABEC":
        position = game.result(position, move)
    # p1 (A, E: lines AB, AC, EG) to move; D adds CDE and ADG: a fifth line at once.
    assert rough_outcome(game, position) == 1
    assert rough_outcome(game, game.initial_state()) == 0
    over = Stonehenge(1).result(Stonehenge(1).initial_state(), "A")
    assert rough_outcome(Stonehenge(1), over) == -1


@pytest.mark.parametrize("node, expected", [(0, 0), (1, 0), (2, 1), (3, -1), (6, -1)])
def test_rough_outcome_on_the_two_ply_tree(node: int, expected: int) -> None:
    # Node 1 (p2): one reply loses, the other ties. Node 2: p2 wins at once. Node 3: both of
    # p2's moves lose at once. Node 6: over, and p1, to move, has lost.
    assert rough_outcome(TreeGame(TWO_PLY), node) == expected


def test_bounded_value_is_the_minimax_value_or_none() -> None:
    """What the rough_outcome cases rely on: a proved value is the true one, on positions of
    every Stonehenge side small enough to solve, and Subtract Square; too little budget: None."""
    from assignments.stonehenge.generators import random_game
    from reference.search.minimax import bounded_value

    square = SubtractSquare()
    for total in range(1, 25):
        state = square.initial_state(total)
        mover = square.to_move(state)
        assert bounded_value(square, state, mover, 10**6) == minimax_value(square, state, mover)
    rng = random.Random(39)
    for side in (1, 2, 3, 4):
        game = Stonehenge(side)
        _, positions = random_game(rng, game, 1)
        for position in positions[max(0, len(positions) - 6):]:
            mover = game.to_move(position)
            assert bounded_value(game, position, mover, 10**6) == \
                minimax_value(game, position, mover)
    opening = Stonehenge(4).initial_state(1)
    assert bounded_value(Stonehenge(4), opening, 1, 100) is None
