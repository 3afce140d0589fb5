"""The generated Isolation positions that ask for one answer: forced moves in each direction and
immediate wins, and the comparator's judgement of them (assignments/isolation/)."""
from __future__ import annotations

import random

from assignments.isolation.checkers import check_move
from assignments.isolation.generators import (
    DIRECTION_NAMES,
    deep_win_cases,
    forced_direction_cases,
    losing_moves,
    safe_move_cases,
    shallow_choices,
    winning_move_cases,
    winning_moves,
)
from assignments.isolation.rules import Isolation, opponent, parse_board
from assignments.isolation.solver import Solver
from harness.records.observations import Observation

GAME = Isolation()


def position(case: dict) -> tuple:
    """The board and player of a generated one-call case, read back from its doctest."""
    source = case["doctest"].replace(">>> ", "").replace("... ", "")
    board_text, call = source.split("choose_move(")
    namespace: dict = {}
    exec(board_text, namespace)  # trusted: our own generator's output
    return parse_board(namespace["board"], call.split(",")[1].strip(" '\""))


def test_forced_cases_go_in_every_direction_and_then_stand_next_to_the_opponent():
    cases = list(forced_direction_cases(random.Random(3), 16))
    steps = []
    for number, case in enumerate(cases, start=1):
        state = position(case)
        (move,) = GAME.actions(state)
        assert case["options"]["legal"] == [list(move)]
        here = state.square_of(state.to_move)
        steps.append((move[0] - here[0], move[1] - here[1]))
        there = state.square_of(opponent(state.to_move))
        beside = max(abs(here[0] - there[0]), abs(here[1] - there[1])) == 1
        assert beside or number <= 8
    assert steps[:8] == list(DIRECTION_NAMES) and steps[8:] == list(DIRECTION_NAMES)


def test_winning_positions_leave_nothing_but_the_win():
    for case in winning_move_cases(random.Random(4), 3):
        state = position(case)
        wins = [tuple(m) for m in case["options"]["wins"]]
        assert wins == winning_moves(GAME, state) and wins
        for move in GAME.actions(state):
            after = GAME.result(state, move)
            assert GAME.is_terminal(after) == (move in wins)
            if move not in wins:  # the opponent then wins at once
                assert winning_moves(GAME, after)


def test_safe_positions_hold_a_forced_win_and_mostly_moves_that_lose_at_once():
    for case in safe_move_cases(random.Random(5), 3):
        state = position(case)
        safe = [tuple(m) for m in case["options"]["safe"]]
        losing = losing_moves(GAME, state)
        assert safe and len(losing) >= len(safe) and not winning_moves(GAME, state)
        assert sorted(safe + losing) == GAME.actions(state)
        assert any(all(winning_moves(GAME, GAME.result(GAME.result(state, move), reply))
                       for reply in GAME.actions(GAME.result(state, move))) for move in safe)


def test_a_move_that_loses_at_once_fails_where_a_safe_one_exists():
    options = {"legal": [[1, 2], [3, 4]], "safe": [[1, 2]]}
    lost = check_move("", Observation((3, 4), True), options, reveal=False)
    assert lost.fraction == 0.0 and "at once" in lost.message and "(1, 2)" not in lost.message
    assert check_move("", Observation((1, 2), True), options, reveal=False).fraction == 1.0


def test_a_legal_move_that_misses_the_win_fails_and_the_win_passes():
    options = {"legal": [[1, 2], [3, 4]], "wins": [[3, 4]]}
    missed = check_move("", Observation((1, 2), True), options, reveal=False)
    assert missed.fraction == 0.0 and "immediate win" in missed.message
    assert "(3, 4)" not in missed.message
    assert "(3, 4)" in check_move("", Observation((1, 2), True), options, reveal=True).message
    assert check_move("", Observation([3, 4], True), options, reveal=False).fraction == 1.0
    illegal = check_move("", Observation((5, 5), True), options, reveal=False)
    assert "not a legal move" in illegal.message


def test_deep_positions_need_five_to_nine_plies_and_fool_every_shallow_look():
    """Issue 51: the winning moves win by force (proved exactly), every other move loses by
    force, no win shows within three plies, and each move a one- or two-ply look rates best
    loses."""
    for case in deep_win_cases(random.Random(6), 2):
        state = position(case)
        solver = Solver(GAME)
        forcing = [tuple(m) for m in case["options"]["forcing"]]
        assert forcing == solver.winning_moves(state, 9)
        assert 5 <= solver.win_length(state, 9) <= 9  # type: ignore[operator]
        others = [m for m in GAME.actions(state) if m not in forcing]
        assert len(others) >= len(forcing)
        assert all(solver.wins_within(GAME.result(state, m), 10) for m in others)
        assert shallow_choices(GAME, state) <= set(others)


def _plies_to_win(state) -> float:
    """Plain minimax: the fewest plies in which the mover forces a win, or infinity."""
    best = float("inf")
    for move in GAME.actions(state):
        after = GAME.result(state, move)
        replies = GAME.actions(after)
        worst = 0.0 if not replies else max(1 + _plies_to_win(GAME.result(after, r))
                                            for r in replies)
        best = min(best, 1 + worst)
    return best


def test_the_solver_agrees_with_plain_minimax_on_endgames():
    from assignments.isolation.positions import random_playout

    rng, checked = random.Random(8), 0
    while checked < 20:
        states = [s for s in random_playout(GAME, rng) if 2 <= GAME.empty_count(s) <= 14]
        if not states:
            continue
        state = rng.choice(states)
        exact = _plies_to_win(state)
        solver = Solver(GAME)
        for plies in range(1, 12):
            assert solver.wins_within(state, plies) == (exact <= plies), (state, plies)
        assert solver.win_length(state, 11) == (exact if exact <= 11 else None)
        checked += 1


def test_a_move_that_loses_by_force_fails_where_one_wins_by_force():
    options = {"legal": [[1, 2], [3, 4]], "forcing": [[3, 4]]}
    lost = check_move("", Observation((1, 2), True), options, reveal=False)
    assert lost.fraction == 0.0 and "deeper search" in lost.message
    assert "(3, 4)" not in lost.message
    assert check_move("", Observation((3, 4), True), options, reveal=False).fraction == 1.0


def _longest_path(state, player) -> int:
    """Plain search: the most moves ``player`` can make in a row, the other player standing
    still (what it has left once the players are walled apart)."""
    from dataclasses import replace

    mine = replace(state, to_move=player)
    best = 0
    for move in GAME.actions(mine):
        after = replace(GAME.result(mine, move), to_move=player)
        best = max(best, 1 + _longest_path(after, player))
    return best


def test_walled_apart_positions_are_won_by_the_longest_path_through_the_movers_region():
    """Issue 51: positions where the players can no longer meet (their regions share no
    square), won by force where the mover's longest path outlasts the opponent's; the moves a
    one- or two-ply look rates best lose."""
    from dataclasses import replace

    from assignments.isolation.positions import region_of, walled_apart

    for case in deep_win_cases(random.Random(47081), 2, apart=True):
        assert "walled apart" in case["name"]
        state = position(case)
        assert walled_apart(GAME, state)
        assert not region_of(GAME, state, "x") & region_of(GAME, state, "o")
        theirs = _longest_path(state, opponent(state.to_move))
        forcing = [tuple(m) for m in case["options"]["forcing"]]
        for move in GAME.actions(state):
            after = replace(GAME.result(state, move), to_move=state.to_move)
            assert (1 + _longest_path(after, state.to_move) > theirs) == (move in forcing)
        assert not shallow_choices(GAME, state) & set(forcing)


def test_the_players_regions_meet_while_a_path_of_empty_squares_joins_them():
    from assignments.isolation.positions import walled_apart

    open_board = GAME.initial_state()
    assert not walled_apart(GAME, open_board)
    wall = [['x', '-', '*', '-'], ['-', '-', '*', '-'], ['*', '*', '*', '-'], ['-', '-', '-', 'o']]
    four = Isolation(4)
    assert walled_apart(four, parse_board(wall, "x", 4))
    wall[1][2] = "-"  # a gap in the wall, corner to corner
    assert not walled_apart(four, parse_board(wall, "x", 4))


def test_an_image_asks_the_shown_position_under_a_symmetry_answered_on_the_image():
    """Issue 51, item 4: with ``images``, the same draws as the shown block, each position
    mirrored or rotated, its answer computed on the image, ``mirror_of`` the shown case."""
    from assignments.isolation.generators import image_of, legal_move_cases
    from reference.core.symmetry import SYMMETRIES

    shown = list(deep_win_cases(random.Random(6), 2))
    images = list(deep_win_cases(random.Random(6), 2, images=["rotate90"]))
    for seen, image in zip(shown, images):
        assert image["mirror_of"] == seen["name"] and "(rotate90 image)" in image["name"]
        assert image_of(position(seen), "rotate90") == position(image)
        assert [tuple(m) for m in image["options"]["forcing"]] == Solver(GAME).winning_moves(
            position(image), 9)
    for seen, image in zip(legal_move_cases(random.Random(3), 3),
                           legal_move_cases(random.Random(3), 3, images=list(SYMMETRIES))):
        assert position(image) != position(seen)
        assert sorted(map(tuple, image["options"]["legal"])) == GAME.actions(position(image))


def test_a_transcript_shows_a_right_move_where_only_some_moves_pass():
    """The doctest a student reads shows a move the case accepts, never a losing legal one."""
    for case in [*deep_win_cases(random.Random(6), 1), *winning_move_cases(random.Random(5), 2),
                 *safe_move_cases(random.Random(5), 2)]:
        shown = tuple(int(v) for v in case["doctest"].strip().splitlines()[-1].strip("()")
                      .split(","))
        accepted = case["options"].get("forcing") or case["options"].get("wins") or \
            case["options"]["safe"]
        assert list(shown) in accepted
