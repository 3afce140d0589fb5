"""House players: legal, reproducible, and the reference never loses on time."""
from __future__ import annotations

import pytest
from isolation_fakes import TickingClock

from assignments.isolation.house_players import GreedyPlayer, RandomPlayer, house_player
from assignments.isolation.players import HOUSE_BOTS, AlphaBetaPlayer, TimePolicy, house_agent
from assignments.isolation.referee import referee_game
from assignments.isolation.rules import Isolation, parse_board
from harness.games.seats import InProcess
from harness.records.games import Reason

GAME = Isolation()


@pytest.mark.parametrize("name", HOUSE_BOTS)
def test_every_house_bot_plays_legal_moves_to_the_end(name: str) -> None:
    clock = TickingClock(step=0.0005)
    me = InProcess(house_agent(name, GAME, 1))
    other = InProcess(RandomPlayer(GAME, 2))
    if name == "reference":
        me = InProcess(AlphaBetaPlayer(GAME, clock=clock))
    record = referee_game(me, other, 5.0, clock=clock)
    assert record.outcome.reason is Reason.NO_MOVES


def test_random_player_is_reproducible_from_its_seed() -> None:
    def moves(seed: int) -> list[object]:
        record = referee_game(InProcess(RandomPlayer(GAME, seed)),
                              InProcess(RandomPlayer(GAME, seed + 1)), 10.0)
        return [ply.move for ply in record.plies]

    assert moves(5) == moves(5)
    assert moves(5) != moves(6)


def test_greedy_takes_an_immediate_win() -> None:
    # o in the corner has only its row left; x moving next to it, to (1, 7), shuts it in
    board = [list(row) for row in """
        x------o
        ------**
        --------
        --------
        --------
        --------
        --------
        --------""".split()]
    state = parse_board(board, "x")
    player = GreedyPlayer(GAME)
    move = player.choose_move(state, 1.0)
    assert move == (1, 7)
    assert GAME.is_terminal(GAME.result(state, move))


def test_greedy_without_seed_breaks_ties_by_move_order() -> None:
    player = GreedyPlayer(GAME)
    scores = {m: player.score(GAME.initial_state(), m) for m in GAME.actions(GAME.initial_state())}
    best = [m for m in GAME.actions(GAME.initial_state()) if scores[m] == max(scores.values())]
    assert player.choose_move(GAME.initial_state(), 1.0) == best[0]


def test_time_policy_splits_the_clock_and_keeps_a_reserve() -> None:
    policy = TimePolicy(share=0.8, reserve=0.1, min_horizon=4, squares_per_move=4)
    assert policy.budget(10.1, 62) == pytest.approx(0.8 * 10.0 / 15)
    assert policy.budget(1.1, 8) == pytest.approx(0.8 * 1.0 / 4)
    assert policy.budget(0.05, 40) == 0.0


@pytest.mark.parametrize("seconds", [0.05, 0.3, 2.0])
def test_reference_player_never_loses_on_time(seconds: float) -> None:
    # a deterministic clock shared by referee and player: 1 ms per reading
    clock = TickingClock(step=0.001)
    reference = InProcess(AlphaBetaPlayer(GAME, clock=clock))
    for first, second in ((reference, InProcess(GreedyPlayer(GAME))),
                          (InProcess(GreedyPlayer(GAME)), reference)):
        record = referee_game(first, second, seconds, clock=clock)
        assert record.outcome.reason is Reason.NO_MOVES
        assert all(left >= 0 for _, left in record.clocks)


def test_untimed_player_needs_a_depth() -> None:
    with pytest.raises(ValueError, match="max_depth"):
        AlphaBetaPlayer(GAME, timed=False)


def test_players_do_not_change_the_position() -> None:
    state = GAME.result(GAME.initial_state(), (4, 4))
    before = (state.filled, state.x, state.o, state.to_move)
    for name in HOUSE_BOTS:
        house_agent(name, GAME, 0).choose_move(state, 0.2)
    assert (state.filled, state.x, state.o, state.to_move) == before


def test_unknown_house_bot_is_named() -> None:
    with pytest.raises(ValueError, match="unknown house bot 'genius'"):
        house_agent("genius", GAME, 0)


def test_the_graded_games_take_only_the_players_students_hold() -> None:
    """The games' runner seats ``house_player``s: a spec naming the alpha-beta reference gets a
    clear error, not a game the student package could not play."""
    greedy = house_player("greedy", GAME, 1)
    assert isinstance(greedy, GreedyPlayer) and greedy.seed == 1
    with pytest.raises(ValueError, match="unknown house player 'reference'; known: random, "
                                         "greedy"):
        house_player("reference", GAME, 0)
