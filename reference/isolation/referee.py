"""The Isolation referee: the student API on the wire and one clocked game.

The student's function is ``choose_move(board, player, time_left)`` (``student_template/
isolation``): it gets a fresh handout board (list of rows of ``-*xo``), its symbol ``"x"`` or
``"o"`` and the seconds left on its clock, and returns a 1-indexed ``(row, col)`` or ``(None,
None)``. Replies are read by :func:`reference.games.isolation.parse_move`; the game loop, the
chess clock and the verdicts are the game-agnostic ``harness.games.match``. It holds the rules
and no player, so the student package holds it (``reference.isolation.players`` names the house
bots).
"""
from __future__ import annotations

import time
from typing import Annotated, Any, Callable, Optional

import msgspec

from harness.games.kit import result_of
from harness.games.match import Clock, GameRecord, Seat, play_game, replay
from harness.games.seats import CallServerLike, Served
from harness.records.games import GameResult, GameTask, Reason
from reference.games.isolation import (
    Isolation,
    IsolationState,
    Move,
    O,
    X,
    format_board,
    parse_move,
)

FUNCTION = "choose_move"
"""The student's entry point."""

_Coordinate = Optional[Annotated[int, msgspec.Meta(ge=-(2 ** 31), le=2 ** 31)]]
WIRE_TYPE = tuple[_Coordinate, _Coordinate]
"""A reply's exact type on the wire: two ints (or two Nones), bounded so that a huge number is
rejected before anything prints or compares it."""


def encode_request(state: IsolationState, time_left: float, size: int) -> list[Any]:
    """The student's arguments: ``[board, player, time_left]`` as fresh plain data."""
    return [format_board(state, size), state.to_move, float(time_left)]


def read_reply(value: Any, size: int = 8) -> Optional[Move]:
    """A converted reply as a destination, or None for ``(None, None)``; ValueError otherwise."""
    return parse_move(value, size)


def student_contestant(server: CallServerLike, size: int = 8) -> Seat[IsolationState, Move]:
    """A sandboxed student module (a harness ``CallServer``) as a seat."""
    return Served(server, FUNCTION, lambda state, left: encode_request(state, left, size),
                  WIRE_TYPE, lambda value: read_reply(value, size),
                  "(row, col) or (None, None)")


def referee_game(x: Seat[IsolationState, Move], o: Seat[IsolationState, Move],
                 seconds: float, game: Optional[Isolation] = None,
                 clock: Callable[[], float] = time.perf_counter) -> GameRecord[Move]:
    """One refereed game from the opening position, ``x`` moving first, ``seconds`` per clock."""
    game = game or Isolation()
    return play_game(game, game.initial_state(), {X: x, O: o}, Clock(game_seconds=seconds),
                     timer=clock)


def game_result(record: GameRecord[Move], task: GameTask, size: int = 8,
                seconds: Optional[float] = None) -> GameResult:
    """``record`` as the tournament's plain result; the task's first entrant played x."""
    return result_of(record, task, (X, O), {"name": "isolation", "size": size,
                                            "clock": seconds})


def replay_result(result: GameResult, game: Optional[Isolation] = None) -> list[IsolationState]:
    """Checked replay of a saved game's moves from the opening position.

    Raises:
        ValueError: at the first illegal move, or when a game recorded as ending with no moves
            left does not end there with the recorded winner.
    """
    game = game or Isolation()
    states = replay(game, game.initial_state(), [tuple(m) for m in result.moves])  # type: ignore[misc]
    if result.reason is Reason.NO_MOVES:
        final = states[-1]
        expected_winner = 1 if final.to_move == X else 0
        if not game.is_terminal(final) or result.winner != expected_winner:
            raise ValueError(f"the recorded result ({result.reason.value}, winner "
                             f"{result.winner}) does not match the replayed final position")
    return states


__all__ = ["FUNCTION", "encode_request", "game_result", "read_reply", "referee_game",
           "replay_result", "student_contestant", "WIRE_TYPE"]
