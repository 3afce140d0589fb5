"""The stonehenge comparators on hand-made observations (no student process involved)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from assignments.stonehenge import checkers
from assignments.stonehenge.positions import precomputed
from harness.records.observations import ErrorInfo, Observation
from harness.records.spec import Case, Visibility
from harness.spec.doctests import parse_transcript

SIDE_1 = "      @   @\n     /   /\n@ - A - B\n     \\ / \\\n  @ - C   @\n       \\\n        @\n"


def case(transcript: str, options: dict[str, Any] | None = None) -> Case:
    """A case; one naming a strategy position gets its optimal moves, as the loader adds them
    from ``gamegrader generate``'s answers."""
    if options and "game" in options:
        options = {**options, "precomputed": precomputed(options)}
    return Case(id="t::t", number="1.1", group="t", name="t", points=1.0,
                visibility=Visibility.VISIBLE, timeout=1.0, file=Path("t.yaml"),
                examples=parse_transcript(transcript), options=options or {})


def printed(text: str) -> Observation:
    return Observation(stdout=text)


def value(data: Any) -> Observation:
    return Observation(value=data, has_value=True)


BOARD_CASE = case(">>> g = StonehengeGame(True)\n>>> print(g.current_state)\n" + SIDE_1)


def test_exact_board_earns_full_credit() -> None:
    assert checkers.board(BOARD_CASE, [Observation(), printed(SIDE_1)], True).fraction == 1.0


def test_board_with_trailing_spaces_earns_full_credit_and_shows_the_line() -> None:
    spaced = SIDE_1.replace("@ - A - B\n", "@ - A - B  \n")
    judgement = checkers.board(BOARD_CASE, [Observation(), printed(spaced)], False)
    assert judgement.fraction == 1.0
    assert "only the spacing differs" in judgement.message
    assert "First differing line 3" in judgement.message
    assert "yours:  @\u00b7-\u00b7A\u00b7-\u00b7B\u00b7\u00b7$" in judgement.message
    assert "expected" not in judgement.message


def test_board_with_a_final_newline_earns_full_credit() -> None:
    judgement = checkers.board(BOARD_CASE, [Observation(), printed(SIDE_1 + "\n")], True)
    assert judgement.fraction == 1.0 and "ends with a newline" in judgement.message


@pytest.mark.parametrize("variant", [
    "\n".join("    " + line for line in SIDE_1.rstrip("\n").split("\n")) + "\n",  # indented
    SIDE_1.replace("B\n", "B -\n").replace("C   @", "C - @"),  # decorative dashes
    SIDE_1.replace(" - ", "-").replace("   ", " "),  # squeezed
    SIDE_1.replace("\n", "   \n\n"),  # trailing spaces and blank lines
])
def test_boards_with_other_spacing_earn_full_credit(variant: str) -> None:
    judgement = checkers.board(BOARD_CASE, [Observation(), printed(variant)], False)
    assert judgement.fraction == 1.0 and "Full credit" in judgement.message


def test_exact_board_has_no_remark() -> None:
    assert checkers.board(BOARD_CASE, [Observation(), printed(SIDE_1)], False).message == ""


@pytest.mark.parametrize("wrong", [
    SIDE_1.replace("@ - A - B", "@ - B - A"),  # cells out of order
    SIDE_1.replace("        @\n", "\n"),  # a marker missing
    SIDE_1.replace("  @ - C   @", "  @ - C\n   @"),  # a marker on another line
])
def test_boards_with_wrong_content_fail(wrong: str) -> None:
    assert checkers.board(BOARD_CASE, [Observation(), printed(wrong)], False).fraction == 0.0


def test_game_is_all_or_nothing_and_says_so() -> None:
    steps = case(">>> print(s)\n" + SIDE_1 + ">>> g.is_over(s)\nFalse\n>>> s.p1_turn\nTrue\n")
    observations = [printed(SIDE_1), value(False), value(False)]
    assert checkers.states(steps, observations, True).fraction == pytest.approx(2 / 3)
    judgement = checkers.game(steps, observations, True)
    assert judgement.fraction == 0.0
    assert "2 of 3 checks right (all must be right" in judgement.message
    assert checkers.game(steps, observations[:2] + [value(True)], True).fraction == 1.0


def test_wrong_marker_earns_nothing_and_hidden_message_hides_the_board() -> None:
    wrong = SIDE_1.replace("  @ - C   @", "  1 - C   @")
    hidden = checkers.board(BOARD_CASE, [Observation(), printed(wrong)], False)
    shown = checkers.board(BOARD_CASE, [Observation(), printed(wrong)], True)
    assert hidden.fraction == shown.fraction == 0.0
    assert "first on line 5" in hidden.message and "expected" not in hidden.message
    assert "expected:" in shown.message


def test_setup_error_is_reported_with_its_line() -> None:
    error = Observation(error=ErrorInfo("NotImplementedError", ""))
    judgement = checkers.board(BOARD_CASE, [error], True)
    assert judgement.fraction == 0.0
    assert judgement.message.startswith(
        ">>> g = StonehengeGame(True)\n  raised NotImplementedError")


def test_states_compare_boards_by_content_and_values_strictly() -> None:
    steps = case(">>> print(s)\n" + SIDE_1 + ">>> g.is_over(s), s.get_possible_moves()\n"
                 "(False, ['A', 'B', 'C'])\n>>> s.p1_turn\nTrue\n")
    loose = printed(SIDE_1.replace("@ - A", "@  -  A"))
    assert checkers.states(steps, [loose, value((False, ["A", "B", "C"])), value(True)],
                           True).fraction == 1.0
    judgement = checkers.states(steps, [loose, value((False, ("A", "B", "C"))), value(0)], False)
    assert judgement.fraction == pytest.approx(1 / 3)
    assert "1 of 3 checks right" in judgement.message
    assert "which is not the expected value" in judgement.message


@pytest.mark.parametrize("want, got, right", [
    ("1", 1, True), ("1", 1.0, True), ("1", True, False), ("-1", -1, True), ("-1", 0, False),
    ("0", 0, True), ("0", 0.5, True), ("0", -0.99, True), ("0", 1, False), ("0", -1, True),
    ("0", "0", False)])
def test_rough_outcome_rules(want: str, got: Any, right: bool) -> None:
    """Where no result is in sight (0) the position's true value (here -1) is right too."""
    judgement = checkers.rough_outcome(case(f">>> s.rough_outcome()\n{want}\n",
                                            {"game_values": [-1]}), [value(got)], False)
    assert judgement.fraction == (1.0 if right else 0.0)


def test_rough_outcome_where_the_true_value_is_unknown_accepts_any_estimate() -> None:
    for got, right in ((1, True), (-1, True), (0.3, True), (1.5, False)):
        judgement = checkers.rough_outcome(case(">>> s.rough_outcome()\n0\n",
                                                {"game_values": [None]}), [value(got)], False)
        assert judgement.fraction == (1.0 if right else 0.0)


def test_rough_outcome_is_judged_per_position() -> None:
    """One wrong estimate in a game of four costs a quarter of the case, not all of it; the
    true values follow the checked examples even when an earlier line raised."""
    transcript = (">>> s.rough_outcome()\n0\n>>> s = s.make_move('A')\n"
                  ">>> s.rough_outcome()\n0\n>>> s.rough_outcome()\n1\n"
                  ">>> s.rough_outcome()\n0\n")
    steps = case(transcript, {"game_values": [1, -1, None, 1]})
    fine = [value(1), Observation(), value(-1), value(1), value(0)]
    assert checkers.rough_outcome(steps, fine, False).fraction == 1.0
    one_wrong = [value(-1), Observation(), value(-1), value(1), value(0)]
    judgement = checkers.rough_outcome(steps, one_wrong, False)
    assert judgement.fraction == pytest.approx(0.75)
    assert "got -1, which is not right for this position" in judgement.message


@pytest.mark.parametrize("got, right", [
    ((None, True), True), ((0, 1), True), ((False, True), True), ((True, True), False),
    ((None,), False), ("yes", False), (None, False)])
def test_yes_no_answers_are_compared_by_truth(got: Any, right: bool) -> None:
    """is_winner returning None for no is read as the course's assertFalse and ``if`` read it."""
    steps = case(">>> g.is_winner('p1'), g.is_winner('p2')\n(False, True)\n")
    judgement = checkers.game(steps, [value(got)], True)
    assert judgement.fraction == (1.0 if right else 0.0)
    if right and got != (False, True):
        assert "has the truth of (False, True)" in judgement.message


def test_a_single_yes_no_answer_is_compared_by_truth() -> None:
    steps = case(">>> g.is_over(s)\nFalse\n")
    assert checkers.game(steps, [value(None)], True).fraction == 1.0
    assert checkers.game(steps, [value([1])], True).fraction == 0.0


SUBTRACT_9 = {"game": "subtract_square", "total": 9}


@pytest.mark.parametrize("move, right", [(4, True), (9, True), (1, False), ("4", False)])
def test_any_optimal_move_is_accepted(move: Any, right: bool) -> None:
    call = case(">>> recursive_minimax_strategy(g)\n4\n", SUBTRACT_9)
    judgement = checkers.optimal_move(call, [value(move)], True)
    assert judgement.fraction == (1.0 if right else 0.0)
    if not right and move == 1:
        assert "moves that do: [4, 9]" in judgement.message


def test_optimal_move_on_a_stonehenge_position_and_the_restore_check() -> None:
    options = {"game": "stonehenge", "side": 2, "moves": "AEBC", "first": "p1"}
    call = case(">>> move = 1\n>>> recursive_minimax_strategy(g)\n'F'\n"
                ">>> same_position(g.current_state, before)\nTrue\n", options)
    assert checkers.optimal_move(call, [Observation(), value("G"), value(True)],
                                 False).fraction == 1.0
    judgement = checkers.optimal_move(call, [Observation(), value("D"), value(False)], False)
    assert judgement.fraction == 0.0 and "moves that do" not in judgement.message


def test_a_long_encoded_tree_comes_after_the_problem_and_is_cut() -> None:
    tree = "F-C1H2I3J4Q5T6U7;" + "T-H8I9J10Q11T12U13;" * 120
    call = case(">>> from strategy import recursive_minimax_strategy\n"
                f">>> g = load_tree_game({tree!r})\n>>> recursive_minimax_strategy(g)\n4\n",
                SUBTRACT_9)
    judgement = checkers.optimal_move(call, [Observation(), Observation(), value(1)], True)
    lines = judgement.message.splitlines()
    assert lines[0] == ">>> recursive_minimax_strategy(g)"
    assert "moves that do: [4, 9]" in lines[1]  # the one useful line, second
    assert len(judgement.message) < 600 and "more characters]" in judgement.message


@pytest.mark.parametrize("recursion, recursed, right", [
    ("forbidden", [], True), ("forbidden", ["helper"], False),
    ("required", ["helper"], True), ("required", [], False)])
def test_recursion_rule(recursion: str, recursed: list[str], right: bool) -> None:
    options = {"game": "caterpillar", "length": 5, "recursion": recursion}
    call = case(">>> find_recursion(strategy, g)\n('B', [])\n", options)
    judgement = checkers.optimal_move(call, [value(("B", recursed))], True)
    assert judgement.fraction == (1.0 if right else 0.0)


def test_recursion_error_gets_an_explanation() -> None:
    call = case(">>> iterative_minimax_strategy(g)\n'B'\n", {"game": "caterpillar", "length": 5})
    error = Observation(error=ErrorInfo("RecursionError", "maximum recursion depth exceeded"))
    judgement = checkers.optimal_move(call, [error], True)
    assert judgement.fraction == 0.0 and "must keep its own stack" in judgement.message


def test_broken_options_are_an_instructor_error() -> None:
    with pytest.raises(ValueError, match="options.total"):
        checkers.optimal_move(case(">>> f(g)\n1\n", {"game": "subtract_square"}), [value(1)],
                              True)


CLAIMED = ("      1   @\n     /   /\n1 - 1 - B\n     \\ / \\\n  @ - C   @\n       \\\n"
           "        1\n")


@pytest.mark.parametrize("shown, right", [
    (CLAIMED.replace("- 1 -", "- p1 -"), True),  # claimed cells as the player's name
    (CLAIMED.replace("@", "o"), True),  # unclaimed markers as another symbol
    (CLAIMED.replace("1", "2"), False),  # the cells and lines given to the other player
    (CLAIMED.replace("- 1 -", "- A -"), False),  # a claimed cell that shows no owner
    (CLAIMED.replace("- B", "- 1"), False),  # a cell claimed that was not
])
def test_rule_groups_leave_the_symbols_to_the_board_group(shown: str, right: bool) -> None:
    """A board that shows the same claims and lines with other symbols passes in the groups
    that look at a rule through the board (issue 39 item 11); the board group still charges it."""
    steps = case(">>> print(s)\n" + CLAIMED)
    judgement = checkers.game(steps, [printed(shown)], False)
    assert judgement.fraction == (1.0 if right else 0.0)
    if right:
        assert "the board group judges the symbols" in judgement.message
        assert checkers.board(steps, [printed(shown)], False).fraction == 0.0


def test_the_side_read_is_seen_in_the_cells_of_the_new_board() -> None:
    """A marker or spacing bug in the board is the board group's alone (issue 39 item 11)."""
    steps = case(">>> print(s)\n" + SIDE_1 + ">>> input()\n'rest'\n")
    no_markers = SIDE_1.replace("@", " ")
    assert checkers.side_read(steps, [printed(no_markers), value("rest")], False).fraction == 1.0
    assert checkers.board(steps, [printed(no_markers)], False).fraction == 0.0
    wrong_side = "@ - A - B\n@ - C - D - E\n@ - F - G\n"
    judgement = checkers.side_read(steps, [printed(wrong_side), value("rest")], True)
    assert judgement.fraction == 0.5
    assert "shows the cells A B C D E F G" in judgement.message


def test_a_strategy_case_without_its_precomputed_moves_is_a_clear_spec_error() -> None:
    bare = Case(id="g::c", number="1.1", group="g", name="c", points=1.0,
                visibility=Visibility.VISIBLE, timeout=5.0, file=Path("cases.yaml"),
                examples=parse_transcript(">>> recursive_minimax_strategy(g)\n4\n"),
                options=dict(SUBTRACT_9))
    with pytest.raises(ValueError, match="precompute"):
        checkers.optimal_move(bare, [value(4)], True)
