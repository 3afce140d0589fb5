"""Generated ``choose_move`` cases: legal moves from many positions, stuck and forced positions.

Run through ``gamegrader generate isolation``; seeds are recorded in the spec. Each case is a
transcript ``choose_move(board, player, time_left)`` judged by
``reference.isolation.checkers:legal_move``, which reads the legal moves from the case's
``options`` (any legal move passes). The transcript's expected output is the reference answer:
the first legal move, ``(None, None)`` when stuck, the only move when forced. Stuck positions
come after a position of the same player with moves, in the same case (see ``stuck_cases``).
"""
from __future__ import annotations

import random
from typing import Any, Callable, Iterator

from harness.spec import render_doctest
from reference.games.isolation import Isolation, IsolationState, format_board
from reference.isolation.positions import draw_position

TIME_LEFT = 2.0
"""Clock passed to the student in these cases; only legality is judged here, not time."""


def _board_statement(state: IsolationState) -> str:
    rows = ",\n ".join(repr(row) for row in format_board(state))
    return f"board = [{rows}]"


def _case(game: Isolation, state: IsolationState, number: int, what: str,
          time_left: float) -> dict[str, Any]:
    legal = game.actions(state)
    expected = legal[0] if legal else (None, None)
    ply = bin(state.filled).count("1")
    return {
        "name": f"#{number:02d} {what}: ply {ply}, {state.to_move} to move, "
                f"{len(legal)} legal move{'' if len(legal) == 1 else 's'}",
        "doctest": render_doctest([_board_statement(state)],
                                  f"choose_move(board, {state.to_move!r}, {time_left!r})",
                                  expected),
        "options": {"legal": [list(m) for m in legal]},
    }


def _states(rng: random.Random, count: int,
            accept: Callable[[Isolation, IsolationState], bool]) -> Iterator[IsolationState]:
    game = Isolation()
    seen: set[IsolationState] = set()
    while len(seen) < count:
        state = draw_position(game, rng, lambda s: accept(game, s))
        if state not in seen:
            seen.add(state)
            yield state


def _cases(rng: random.Random, count: int, what: str,
           accept: Callable[[Isolation, IsolationState], bool],
           time_left: float) -> Iterator[dict[str, Any]]:
    game = Isolation()
    for number, state in enumerate(_states(rng, count, accept), start=1):
        yield _case(game, state, number, what, time_left)


def legal_move_cases(rng: random.Random, count: int, *, time_left: float = TIME_LEFT
                     ) -> Iterator[dict[str, Any]]:
    """``count`` distinct positions where the player to move has at least two moves."""
    return _cases(rng, count, "position",
                  lambda game, s: game.mobility(s, s.to_move) >= 2, time_left)


def stuck_cases(rng: random.Random, count: int, *, time_left: float = TIME_LEFT
                ) -> Iterator[dict[str, Any]]:
    """``count`` distinct final positions: the player to move has no move, so (None, None).

    Each is paired with a position of the same player that has at least two moves, asked first
    in the same case (all or nothing), so that a constant ``(None, None)`` earns nothing.
    """
    game = Isolation()
    stuck_states = _states(rng, count, lambda g, s: g.is_terminal(s))
    for number, state in enumerate(stuck_states, start=1):
        player = state.to_move
        movable = draw_position(game, rng, lambda s, p=player: s.to_move == p  # type: ignore
                                and game.mobility(s, p) >= 2)
        first = _case(game, movable, number, "", time_left)
        stuck = _case(game, state, number, "stuck", time_left)
        yield {
            "name": f"{stuck['name']}, asked after a position with "
                    f"{len(first['options']['legal'])} moves",
            "doctest": first["doctest"] + stuck["doctest"],
            "options": {"calls": [first["options"]["legal"], stuck["options"]["legal"]]},
        }


def forced_move_cases(rng: random.Random, count: int, *, time_left: float = TIME_LEFT
                      ) -> Iterator[dict[str, Any]]:
    """``count`` distinct positions where the player to move has exactly one move."""
    return _cases(rng, count, "forced",
                  lambda game, s: game.mobility(s, s.to_move) == 1, time_left)


__all__ = ["TIME_LEFT", "forced_move_cases", "legal_move_cases", "stuck_cases"]
