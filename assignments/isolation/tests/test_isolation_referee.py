"""The clocked referee: every fault of the player to move gives an exact, recorded outcome."""
from __future__ import annotations

from typing import Any

import pytest
from isolation_fakes import FakeResult, FakeServer, TickingClock

from assignments.isolation.house_players import GreedyPlayer, RandomPlayer
from assignments.isolation.referee import (
    encode_request,
    game_result,
    referee_game,
    replay_result,
    student_contestant,
)
from assignments.isolation.rules import Isolation, parse_board
from harness.games.seats import InProcess
from harness.records.games import Entrant, GameResult, GameTask, Reason

GAME = Isolation()


def served(answer: Any) -> FakeServer:
    """A student that always gives ``answer`` (a FakeResult, or a value to return)."""
    result = answer if isinstance(answer, FakeResult) else FakeResult(True, answer)
    return FakeServer(lambda function, args, timeout: result)


def first_legal_student() -> FakeServer:
    def reply(function: str, args: list[Any], timeout: float) -> FakeResult:
        board, player, _ = args
        moves = GAME.actions(parse_board(board, player))
        return FakeResult(True, moves[0] if moves else (None, None))
    return FakeServer(reply)


@pytest.mark.parametrize("answer, reason, detail", [
    ((1, 1), Reason.ILLEGAL, "(1, 1) is not a legal move"),
    ((8, 8), Reason.ILLEGAL, "not a legal move"),
    ((2, 3), Reason.ILLEGAL, "not a legal move"),            # not on a queen line
    ((None, None), Reason.ILLEGAL, "no move while 20 legal moves exist"),
    ("1 2", Reason.MALFORMED, "expected (row, col)"),
    ([1, 2, 3], Reason.MALFORMED, "expected (row, col)"),
    ((True, 2), Reason.MALFORMED, "got `bool`"),
    ((0, 2), Reason.MALFORMED, "off the 8 x 8 board"),
    (None, Reason.MALFORMED, "got `null`"),
    (FakeResult(False, error="ZeroDivisionError: division by zero"), Reason.CRASH,
     "ZeroDivisionError"),
    (FakeResult(False, error="the process ended", timed_out=True), Reason.TIMEOUT,
     "no reply within the 5.000 s left (5 s per player per game)"),
])
def test_a_faulty_first_move_loses_with_its_reason(answer: Any, reason: Reason,
                                                   detail: str) -> None:
    record = referee_game(student_contestant(served(answer)), InProcess(RandomPlayer(GAME)),
                          5.0)
    assert record.outcome.winner == "o"
    assert record.outcome.reason is reason
    assert detail in record.outcome.detail
    assert record.plies == ()


def test_the_faulty_side_loses_when_it_plays_o_too() -> None:
    record = referee_game(InProcess(GreedyPlayer(GAME)), student_contestant(served((1, 1))), 5.0)
    assert (record.outcome.winner, record.outcome.reason) == ("x", Reason.ILLEGAL)
    assert len(record.plies) == 1


def test_overtime_loses_even_with_a_legal_reply() -> None:
    clock = TickingClock(step=3.0)  # every reply costs 3 s of a 5 s clock
    record = referee_game(student_contestant(first_legal_student()),
                          InProcess(RandomPlayer(GAME)), 5.0, clock=clock)
    assert record.outcome.reason is Reason.TIMEOUT
    assert record.outcome.winner == "o"
    assert dict(record.clocks)["x"] == 0.0
    assert [p.player for p in record.plies] == ["x", "o"]


def test_student_is_told_a_fresh_board_its_symbol_and_its_clock() -> None:
    server = first_legal_student()
    clock = TickingClock(step=0.25)
    referee_game(student_contestant(server), InProcess(RandomPlayer(GAME)), 5.0, clock=clock)
    function, (board, player, time_left), timeout = server.calls[0]
    assert function == "choose_move" and player == "x" and time_left == 5.0 == timeout
    assert board[0][0] == "x" and board[7][7] == "o" and len(board) == 8
    second_time_left = server.calls[1][1][2]
    assert second_time_left == pytest.approx(4.75)
    board[3][3] = "*"  # the student's copy; the referee's position is untouched
    assert encode_request(GAME.initial_state(), 1.0, 8)[0][3][3] == "-"


def test_a_stuck_player_is_not_asked_and_loses() -> None:
    server = first_legal_student()
    record = referee_game(InProcess(RandomPlayer(GAME, 3)), student_contestant(server), 60.0)
    assert record.outcome.reason is Reason.NO_MOVES
    loser = "o" if record.outcome.winner == "x" else "x"
    final = replay_result(game_result(record, _task()), GAME)[-1]
    assert final.to_move == loser and GAME.is_terminal(final)
    assert len(server.calls) == sum(1 for p in record.plies if p.player == "o")


def _task(seed: int = 9) -> GameTask:
    return GameTask(0, 1, Entrant("a", "house:random"), Entrant("b", "house:greedy"), seed)


def test_game_results_survive_json_and_replay() -> None:
    record = referee_game(InProcess(RandomPlayer(GAME, 1)), InProcess(GreedyPlayer(GAME)), 10.0)
    result = game_result(record, _task())
    again = GameResult.from_dict(result.to_dict())
    assert again == result
    assert len(replay_result(again, GAME)) == len(record.plies) + 1
    assert result.winner_name == ("a" if record.outcome.winner == "x" else "b")


def test_replay_rejects_a_doctored_record() -> None:
    record = referee_game(InProcess(RandomPlayer(GAME, 1)), InProcess(GreedyPlayer(GAME)), 10.0)
    result = game_result(record, _task())
    moves = list(result.moves)
    moves[2] = moves[0]
    with pytest.raises(ValueError, match="ply 3"):
        replay_result(GameResult.from_dict({**result.to_dict(), "moves": moves}), GAME)
    flipped = {**result.to_dict(), "winner": 1 - result.winner}
    with pytest.raises(ValueError, match="does not match"):
        replay_result(GameResult.from_dict(flipped), GAME)
