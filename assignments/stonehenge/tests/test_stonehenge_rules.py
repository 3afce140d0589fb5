"""Reference Stonehenge rules: geometry, board text for sides 1-5, captures, wins, move order."""
from __future__ import annotations

import pytest

from assignments.stonehenge.rules import (
    SIDES,
    IllegalMoveError,
    LineKind,
    Stonehenge,
    StonehengePosition,
)

# The notes give sides 1 and 2; sides 3-5 follow the layout rules of notes section 6 (and an
# independent implementation, the solution's StonehengeState.__str__, agrees: see
# test_stonehenge_solution.py).
EMPTY_BOARDS = {
    1: r"""
      @   @
     /   /
@ - A - B
     \ / \
  @ - C   @
       \
        @
""",
    2: r"""
        @   @
       /   /
  @ - A - B   @
     / \ / \ /
@ - C - D - E
     \ / \ / \
  @ - F - G   @
       \   \
        @   @
""",
    3: r"""
          @   @
         /   /
    @ - A - B   @
       / \ / \ /
  @ - C - D - E   @
     / \ / \ / \ /
@ - F - G - H - I
     \ / \ / \ / \
  @ - J - K - L   @
       \   \   \
        @   @   @
""",
    4: r"""
            @   @
           /   /
      @ - A - B   @
         / \ / \ /
    @ - C - D - E   @
       / \ / \ / \ /
  @ - F - G - H - I   @
     / \ / \ / \ / \ /
@ - J - K - L - M - N
     \ / \ / \ / \ / \
  @ - O - P - Q - R   @
       \   \   \   \
        @   @   @   @
""",
    5: r"""
              @   @
             /   /
        @ - A - B   @
           / \ / \ /
      @ - C - D - E   @
         / \ / \ / \ /
    @ - F - G - H - I   @
       / \ / \ / \ / \ /
  @ - J - K - L - M - N   @
     / \ / \ / \ / \ / \ /
@ - O - P - Q - R - S - T
     \ / \ / \ / \ / \ / \
  @ - U - V - W - X - Y   @
       \   \   \   \   \
        @   @   @   @   @
""",
}


def drawn(board: str) -> str:
    """A board drawn in a raw triple-quoted string, without its first and last newline."""
    return board[1:-1]


def play(game: Stonehenge, moves: str, first: int = 1) -> StonehengePosition:
    """The position after claiming the cells ``moves`` (one letter each) in turn."""
    position = game.initial_state(first)
    for move in moves:
        position = game.play(position, move)
    return position


def lines_as_text(game: Stonehenge, kind: LineKind) -> list[str]:
    """The cells of each line of ``kind``, as strings of labels, in index order."""
    return ["".join(game.labels[c] for c in line.cells) for line in game.lines
            if line.kind is kind]


@pytest.mark.parametrize("side", SIDES)
def test_empty_board_text_is_exact(side: int) -> None:
    game = Stonehenge(side)
    assert game.format_board(game.initial_state()) == drawn(EMPTY_BOARDS[side])


@pytest.mark.parametrize("side", SIDES)
def test_board_text_shape(side: int) -> None:
    text = Stonehenge(side).format_board(play(Stonehenge(side), "A"))
    lines = text.split("\n")
    assert len(lines) == 2 * side + 5
    assert all(line == line.rstrip() and line for line in lines)
    assert not text.endswith("\n")


@pytest.mark.parametrize("side, cells, ley_lines", [
    (1, 3, 6), (2, 7, 9), (3, 12, 12), (4, 18, 15), (5, 25, 18)])
def test_cell_and_line_counts(side: int, cells: int, ley_lines: int) -> None:
    game = Stonehenge(side)
    assert len(game.labels) == cells == (side * side + 5 * side) // 2
    assert len(game.lines) == ley_lines == 3 * (side + 1)


def test_lines_of_sides_1_and_2_match_the_notes() -> None:
    one, two = Stonehenge(1), Stonehenge(2)
    assert lines_as_text(one, LineKind.ROW) == ["AB", "C"]
    assert lines_as_text(one, LineKind.DOWN_LEFT) == ["A", "BC"]
    assert sorted(lines_as_text(one, LineKind.DOWN_RIGHT)) == ["AC", "B"]
    assert lines_as_text(two, LineKind.ROW) == ["AB", "CDE", "FG"]
    assert lines_as_text(two, LineKind.DOWN_LEFT) == ["AC", "BDF", "EG"]
    assert sorted(lines_as_text(two, LineKind.DOWN_RIGHT)) == ["ADG", "BE", "CF"]


def test_lines_of_side_4() -> None:
    game = Stonehenge(4)
    assert lines_as_text(game, LineKind.DOWN_LEFT) == ["ACFJ", "BDGKO", "EHLP", "IMQ", "NR"]
    assert lines_as_text(game, LineKind.DOWN_RIGHT) == ["JO", "FKP", "CGLQ", "ADHMR", "BEIN"]


@pytest.mark.parametrize("side", [0, 6, -1])
def test_unsupported_side_is_refused(side: int) -> None:
    with pytest.raises(ValueError, match="side length"):
        Stonehenge(side)


def test_moves_are_unclaimed_labels_in_alphabetical_order() -> None:
    game = Stonehenge(2)
    assert game.actions(game.initial_state()) == ("A", "B", "C", "D", "E", "F", "G")
    assert game.actions(play(game, "DA")) == ("B", "C", "E", "F", "G")


def test_first_claim_captures_two_cell_lines_only() -> None:
    game = Stonehenge(2)
    # p1 takes A: row AB (1 of 2) and / AC (1 of 2) are captured; \ ADG (1 of 3) is not.
    assert game.format_board(play(game, "A")) == drawn(r"""
        1   @
       /   /
  1 - 1 - B   @
     / \ / \ /
@ - C - D - E
     \ / \ / \
  @ - F - G   @
       \   \
        @   @
""")


def test_a_captured_line_is_never_taken_back() -> None:
    game = Stonehenge(2)
    # p1 takes A then C, p2 takes B then D: row AB stays p1's although p2 holds half of it;
    # p2 gets \ BE (1 of 2) and / BDF (2 of 3), p1 gets / AC and \ CF.
    position = play(game, "ABCD")
    assert game.format_board(position) == drawn(r"""
        1   2
       /   /
  1 - 1 - 2   @
     / \ / \ /
@ - 1 - 2 - E
     \ / \ / \
  @ - F - G   2
       \   \
        1   @
""")
    assert game.owned(position, 1) == 3 and game.owned(position, 2) == 2


def test_side_1_first_claim_wins_with_exactly_half() -> None:
    game = Stonehenge(1)
    position = play(game, "C", first=2)
    assert game.winner(position) == 2
    assert game.is_terminal(position)
    assert game.actions(position) == ()
    assert game.format_board(position) == drawn(r"""
      @   2
     /   /
@ - A - B
     \ / \
  2 - 2   @
       \
        2
""")


def test_side_3_win_with_exactly_six_of_twelve_lines() -> None:
    game = Stonehenge(3)
    # p1 claims L, E, D, B; p2 claims I, K, J. After D, p1 owns / IL, row CDE, \ ADHL (3);
    # p2's J then takes row JKL and \ FJ. B adds row AB, / BDGJ (B, D) and \ BEI (B, E): 6.
    before = play(game, "LIEKDJ")
    assert (game.owned(before, 1), game.owned(before, 2)) == (3, 2)
    assert not game.is_terminal(before)
    after = game.play(before, "B")
    assert game.owned(after, 1) == 6
    assert game.winner(after) == 1 and game.utility(after, 2) == -1
    assert game.format_board(after) == drawn(r"""
          @   1
         /   /
    1 - A - 1   @
       / \ / \ /
  1 - C - 1 - 1   1
     / \ / \ / \ /
@ - F - G - H - 2
     \ / \ / \ / \
  2 - 2 - 2 - 1   1
       \   \   \
        2   @   1
""")


def test_utility_is_zero_while_the_game_goes_on() -> None:
    game = Stonehenge(3)
    assert game.utility(play(game, "AB"), 1) == 0 and game.winner(play(game, "AB")) is None


@pytest.mark.parametrize("move", ["A", "Z", "a", 1, None])
def test_play_refuses_illegal_moves(move: object) -> None:
    game = Stonehenge(2)
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        game.play(play(game, "A"), move)


def test_result_leaves_the_position_unchanged() -> None:
    game = Stonehenge(2)
    before = play(game, "AB")
    copy = StonehengePosition(before.side, before.cells, before.lines, before.player)
    game.result(before, "C")
    assert before == copy and hash(before) == hash(copy)


def test_player_to_move_alternates() -> None:
    game = Stonehenge(3)
    assert [game.to_move(play(game, "ABC"[:k])) for k in range(4)] == [1, 2, 1, 2]
    assert game.to_move(play(game, "A", first=2)) == 1
