"""Generated ``choose_move`` cases: legal moves from many positions, stuck and forced positions.

Run through ``gamegrader generate isolation``; seeds are recorded in the spec. Each case is a
transcript ``choose_move(board, player, time_left)`` judged by
``assignments.isolation.checkers:legal_move``, which reads the legal moves from the case's
``options`` (any legal move passes). The transcript's expected output is the reference answer:
the first legal move, ``(None, None)`` when stuck, the only move when forced. Stuck positions
come after a position of the same player with moves, in the same case (see ``stuck_cases``).

Two kinds check more than "some legal move": forced positions whose one move goes in each of
the eight directions (a player missing a direction, or reading a ray past its end, shows
there), and positions the mover wins at once (``winning_move_cases``), where every
other move lets the opponent win at once: any alpha-beta that looks two plies ahead and knows
a player without a move has lost takes the win, so the accepted answers are the winning moves.
The deep positions (``deep_win_cases``) ask what only a deeper search sees: a win by force in
five to nine plies where every other move loses by force, proved by
``assignments.isolation.solver``.
"""
from __future__ import annotations

import random
from typing import Any, Callable, Iterator, Sequence

from assignments.isolation.positions import draw_position, region_of, walled_apart
from assignments.isolation.rules import (
    Isolation,
    IsolationState,
    Move,
    Player,
    format_board,
    opponent,
    parse_board,
)
from assignments.isolation.solver import Solver
from harness.spec import render_doctest
from reference.core.symmetry import SYMMETRIES, first_image

TIME_LEFT = 2.0
"""Clock passed to the student in these cases; only legality is judged here, not time."""


def _board_statement(state: IsolationState) -> str:
    rows = ",\n ".join(repr(row) for row in format_board(state))
    return f"board = [{rows}]"


def _case(game: Isolation, state: IsolationState, number: int, what: str,
          time_left: float, right: Sequence[Move] = ()) -> dict[str, Any]:
    """The case asking ``state``; its transcript shows the first of the ``right`` moves (the
    only ones that pass, when given) or else of the legal moves, ``(None, None)`` when stuck."""
    legal = game.actions(state)
    expected: tuple[Any, Any] = (right or legal)[0] if legal else (None, None)
    ply = bin(state.filled).count("1")
    return {
        "name": f"#{number:02d} {what}: ply {ply}, {state.to_move} to move, "
                f"{len(legal)} legal move{'' if len(legal) == 1 else 's'}",
        "doctest": render_doctest([_board_statement(state)],
                                  f"choose_move(board, {state.to_move!r}, {time_left!r})",
                                  expected),
        "options": {"legal": [list(m) for m in legal]},
    }


SYMMETRY_NAMES = tuple(SYMMETRIES)
"""Isolation keeps every symmetry of its square board: a queen moves along rows, columns and
both diagonals, which reflections and rotations only swap among themselves (the players' start
squares matter only to the opening, never to a position's moves)."""

Build = Callable[[Callable[[IsolationState], IsolationState]], dict[str, Any]]
"""Makes one case from the drawn positions, each first passed through the given view (the
identity, or a symmetry of the board)."""


def image_of(state: IsolationState, symmetry: str) -> IsolationState:
    """``state`` under the board symmetry ``symmetry`` (a name of
    :data:`reference.core.symmetry.SYMMETRIES`), the same player to move."""
    board = SYMMETRIES[symmetry](format_board(state))
    return parse_board([list(row) for row in board], state.to_move)


def _shown_or_image(build: Build, drawn: IsolationState, images: Sequence[str]
                    ) -> dict[str, Any]:
    """The case ``build`` makes of the drawn positions; with ``images`` (symmetry names), the
    same case asked on their first image that changes ``drawn``, answered on the image itself
    and ``mirror_of`` the shown case (the generator then runs with the shown block's seed and
    settings, so it draws exactly the shown positions)."""
    shown = build(lambda state: state)
    if not images:
        return shown
    found = first_image(format_board(drawn), images)
    if found is None:
        raise RuntimeError(f"{shown['name']} is symmetric under every one of {list(images)}")
    name = found[0]
    image = build(lambda state: image_of(state, name))
    return {**image, "name": f"{shown['name']} ({name} image)", "mirror_of": shown["name"]}


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
           time_left: float, images: Sequence[str] = ()) -> Iterator[dict[str, Any]]:
    game = Isolation()
    for number, state in enumerate(_states(rng, count, accept), start=1):

        def build(view: Callable[[IsolationState], IsolationState],
                  state: IsolationState = state, number: int = number) -> dict[str, Any]:
            return _case(game, view(state), number, what, time_left)

        yield _shown_or_image(build, state, images)


def legal_move_cases(rng: random.Random, count: int, *, time_left: float = TIME_LEFT,
                     first_ply: int = 0, images: Sequence[str] = ()
                     ) -> Iterator[dict[str, Any]]:
    """``count`` distinct positions where the player to move has at least two moves, from ply
    ``first_ply`` on (1 leaves out the opening, which a visible case shows).

    ``images`` (here and in the other generators of shown positions): symmetry names; each
    case then asks the image of the position drawn (``_shown_or_image``)."""
    return _cases(rng, count, "position",
                  lambda game, s: game.mobility(s, s.to_move) >= 2
                  and bin(s.filled).count("1") >= first_ply, time_left, images)


def stuck_cases(rng: random.Random, count: int, *, time_left: float = TIME_LEFT,
                images: Sequence[str] = ()) -> Iterator[dict[str, Any]]:
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

        def build(view: Callable[[IsolationState], IsolationState],
                  movable: IsolationState = movable, state: IsolationState = state,
                  number: int = number) -> dict[str, Any]:
            first = _case(game, view(movable), number, "", time_left)
            stuck = _case(game, view(state), number, "stuck", time_left)
            return {
                "name": f"{stuck['name']}, asked after a position with "
                        f"{len(first['options']['legal'])} moves",
                "doctest": first["doctest"] + stuck["doctest"],
                "options": {"calls": [first["options"]["legal"], stuck["options"]["legal"]]},
            }

        yield _shown_or_image(build, state, images)


def forced_move_cases(rng: random.Random, count: int, *, time_left: float = TIME_LEFT,
                      images: Sequence[str] = ()) -> Iterator[dict[str, Any]]:
    """``count`` distinct positions where the player to move has exactly one move."""
    return _cases(rng, count, "forced",
                  lambda game, s: game.mobility(s, s.to_move) == 1, time_left, images)


DIRECTION_NAMES = {(-1, -1): "up-left", (-1, 0): "up", (-1, 1): "up-right", (0, -1): "left",
                   (0, 1): "right", (1, -1): "down-left", (1, 0): "down", (1, 1): "down-right"}
"""The eight queen directions as (row step, column step), named as seen on the board."""


def _step(start: Move, end: Move) -> tuple[tuple[int, int], int]:
    """The direction and the distance of the queen move from ``start`` to ``end``."""
    rows, cols = end[0] - start[0], end[1] - start[1]
    distance = max(abs(rows), abs(cols))
    return ((rows > 0) - (rows < 0), (cols > 0) - (cols < 0)), distance


def _stopper(game: Isolation, state: IsolationState, move: Move, step: tuple[int, int]) -> str:
    """What ends the ray past ``move``: the board's edge, a filled square or the opponent."""
    beyond = (move[0] + step[0], move[1] + step[1])
    if not (1 <= beyond[0] <= game.size and 1 <= beyond[1] <= game.size):
        return "the edge"
    if beyond == state.square_of(opponent(state.to_move)):
        return "the opponent"
    return "a filled square"


def _adjacent(state: IsolationState) -> bool:
    """Whether the two players stand side by side (the opponent closes one of the mover's rays)."""
    mine, theirs = state.square_of(state.to_move), state.square_of(opponent(state.to_move))
    return max(abs(mine[0] - theirs[0]), abs(mine[1] - theirs[1])) == 1


def forced_direction_cases(rng: random.Random, count: int, *, time_left: float = TIME_LEFT
                           ) -> Iterator[dict[str, Any]]:
    """``count`` forced positions, the one move (always to a neighbour: a longer one would pass
    another legal square) going in each direction in turn (up-left, up, ... down-right); from
    the ninth on, with the opponent standing next to the mover."""
    game = Isolation()
    steps = list(DIRECTION_NAMES)
    seen: set[IsolationState] = set()
    for number in range(1, count + 1):
        step, beside = steps[(number - 1) % len(steps)], number > len(steps)

        def accept(state: IsolationState, step: tuple[int, int] = step,
                   beside: bool = beside) -> bool:
            moves = game.actions(state)
            return (len(moves) == 1 and state not in seen and (not beside or _adjacent(state))
                    and _step(state.square_of(state.to_move), moves[0])[0] == step)

        state = draw_position(game, rng, accept, tries=20000)
        seen.add(state)
        stopper = _stopper(game, state, game.actions(state)[0], step)
        what = (f"forced {DIRECTION_NAMES[step]}{', next to the opponent' if beside else ''}, "
                f"the ray then stopped by {stopper}")
        yield _case(game, state, number, what, time_left)


def winning_moves(game: Isolation, state: IsolationState) -> list[Move]:
    """The moves after which the opponent has no move (and so has lost)."""
    return [m for m in game.actions(state) if game.is_terminal(game.result(state, m))]


def _must_win_now(game: Isolation, state: IsolationState) -> bool:
    """The mover wins at once with some move but not every one, and every other move lets the
    opponent win at once: only the winning moves are right, whatever else a player knows."""
    moves = game.actions(state)
    wins = winning_moves(game, state)
    if not wins or len(wins) == len(moves):
        return False
    return all(winning_moves(game, game.result(state, m)) for m in moves if m not in wins)


def winning_move_cases(rng: random.Random, count: int, *, time_left: float = TIME_LEFT
                       ) -> Iterator[dict[str, Any]]:
    """``count`` positions where the mover must take an immediate win (see ``_must_win_now``);
    the options list the winning moves as ``wins`` beside the legal moves."""
    game = Isolation()
    for number, state in enumerate(_states(rng, count, _must_win_now), start=1):
        wins = winning_moves(game, state)
        case = _case(game, state, number, "win at once", time_left, wins)
        case["name"] += f", {len(wins)} of them winning"
        case["options"]["wins"] = [list(m) for m in wins]
        yield case


def losing_moves(game: Isolation, state: IsolationState) -> list[Move]:
    """The moves after which the opponent can leave the mover without a move at once."""
    return [m for m in game.actions(state) if winning_moves(game, game.result(state, m))]


def _wins_in_three(game: Isolation, state: IsolationState, move: Move) -> bool:
    """Whether ``move`` wins by force within three plies: whatever the opponent answers, the
    mover then has a move that leaves the opponent stuck."""
    after = game.result(state, move)
    return all(winning_moves(game, game.result(after, reply)) for reply in game.actions(after))


def _must_not_lose_now(game: Isolation, state: IsolationState) -> bool:
    """No move wins at once; at least half the moves let the opponent win at once, and one of
    the others wins by force within three plies: a player must not walk into the loss."""
    if winning_moves(game, state):
        return False
    losing = losing_moves(game, state)
    others = [m for m in game.actions(state) if m not in losing]
    return len(losing) >= len(others) and any(_wins_in_three(game, state, m) for m in others)


def safe_move_cases(rng: random.Random, count: int, *, time_left: float = TIME_LEFT
                    ) -> Iterator[dict[str, Any]]:
    """``count`` positions where most moves lose at once and another wins by force within three
    plies (see ``_must_not_lose_now``), x and o to move in turn; the options list the moves that
    do not lose at once as ``safe`` beside the legal moves."""
    game = Isolation()
    seen: set[IsolationState] = set()
    for number in range(1, count + 1):
        mover = "x" if number % 2 else "o"
        state = draw_position(game, rng, lambda s, p=mover: s.to_move == p  # type: ignore
                              and s not in seen and _must_not_lose_now(game, s))
        seen.add(state)
        losing = losing_moves(game, state)
        safe = [m for m in game.actions(state) if m not in losing]
        case = _case(game, state, number, "do not lose at once", time_left, safe)
        case["name"] += f", {len(losing)} of them losing at once"
        case["options"]["safe"] = [list(m) for m in safe]
        yield case


DEEP_EMPTY = 28
"""Most empty squares in a deep-search position: endgames, where the exact proofs are cheap and
a timed alpha-beta reaches nine plies in a fraction of a second."""


SHALLOW_WEIGHTS = ((1.0, 1.0), (1.0, 0.0), (1.0, 2.0), (2.0, 1.0), (1.0, 1.5))
"""(mine, theirs) weights of the mobility evaluations a shallow player may use: ``mine * a -
theirs * b`` for each ``(a, b)``; the house's greedy player is ``(1, 1)``, the reference's
evaluation ``(1, 1.5)``."""


def _looks(game: Isolation, state: IsolationState, me: Player, weights: tuple[float, float],
           plies: int) -> float:
    """The value for ``me``, who just moved into ``state``, of a look ``plies`` deeper (0 or 1)
    with the mobility evaluation ``weights``; a player left stuck has lost."""
    if game.is_terminal(state):
        return float("inf") if state.to_move != me else -float("inf")
    if plies == 0:
        return (weights[0] * game.mobility(state, me)
                - weights[1] * game.mobility(state, opponent(me)))
    return min(_looks(game, game.result(state, reply), me, weights, plies - 1)
               for reply in game.actions(state))


def shallow_choices(game: Isolation, state: IsolationState) -> set[Move]:
    """Every move a one-ply or a two-ply look rates best (ties included) with any evaluation of
    :data:`SHALLOW_WEIGHTS`: what players without a deeper search take."""
    chosen: set[Move] = set()
    moves = game.actions(state)
    for weights in SHALLOW_WEIGHTS:
        for plies in (1, 2):
            values = [_looks(game, game.result(state, move), state.to_move, weights, plies - 1)
                      for move in moves]
            chosen.update(m for m, value in zip(moves, values) if value == max(values))
    return chosen


def deep_split(game: Isolation, state: IsolationState, shortest: int, longest: int
               ) -> tuple[list[Move], list[Move]] | None:
    """The winning and the losing moves of a position that needs a deep look, or None.

    Such a position has no win within ``shortest - 2`` plies and a forced win within
    ``longest``; of its two or more moves at most half win by force within ``longest`` plies,
    every other move lets the opponent force a win within ``longest + 1`` plies, and every move
    a one-ply or a two-ply look rates best (``shallow_choices``) loses. Every claim is proved
    exactly (``assignments.isolation.solver``).
    """
    moves = game.actions(state)
    if len(moves) < 2 or game.empty_count(state) > DEEP_EMPTY:
        return None
    solver = Solver(game)
    shallow = shallow_choices(game, state)
    if len(shallow) == len(moves) or not all(
            solver.wins_within(game.result(state, move), longest + 1) for move in shallow):
        return None
    if solver.wins_within(state, shortest - 2) or not solver.wins_within(state, longest):
        return None
    winning = solver.winning_moves(state, longest)
    if 2 * len(winning) > len(moves):
        return None
    losing = [move for move in moves if move not in winning
              and solver.wins_within(game.result(state, move), longest + 1)]
    if len(winning) + len(losing) != len(moves):
        return None
    return winning, losing


def deep_win_cases(rng: random.Random, count: int, *, time_left: float = TIME_LEFT,
                   shortest: int = 5, longest: int = 9, apart: bool = False,
                   images: Sequence[str] = ()) -> Iterator[dict[str, Any]]:
    """``count`` endgame positions whose winning moves take ``shortest`` to ``longest`` plies
    to see (``deep_split``), x and o to move in turn; the options list the winning moves as
    ``forcing`` beside the legal moves. With ``apart``, positions where the board has split
    into regions the players can no longer leave (``walled_apart``): the right move is the one
    with the longest path through the mover's own region, which takes counting to the end."""
    game = Isolation()
    seen: set[IsolationState] = set()

    def accept(state: IsolationState, mover: Player) -> bool:
        return (state.to_move == mover and state not in seen
                and (not apart or walled_apart(game, state))
                and deep_split(game, state, shortest, longest) is not None)

    for number in range(1, count + 1):
        mover = "x" if number % 2 else "o"
        state = draw_position(game, rng, lambda s, p=mover: accept(s, p),  # type: ignore
                              tries=20000 if apart else 1000)
        seen.add(state)

        def build(view: Callable[[IsolationState], IsolationState],
                  state: IsolationState = state, number: int = number) -> dict[str, Any]:
            shown = view(state)
            split = deep_split(game, shown, shortest, longest)
            assert split is not None
            winning, losing = split
            length = Solver(game).win_length(shown, longest)
            what = f"win by force in {length} plies"
            if apart:
                what = (f"walled apart ({len(region_of(game, shown, shown.to_move))} and "
                        f"{len(region_of(game, shown, opponent(shown.to_move)))} squares), "
                        f"{what}")
            case = _case(game, shown, number, what, time_left, winning)
            case["name"] += (f", {len(winning)} of them winning; the others lose by force, "
                             "and so do the moves a one- or two-ply look rates best")
            case["options"]["forcing"] = [list(m) for m in winning]
            return case

        yield _shown_or_image(build, state, images)


__all__ = ["DEEP_EMPTY", "DIRECTION_NAMES", "SHALLOW_WEIGHTS", "SYMMETRY_NAMES", "TIME_LEFT",
           "deep_split", "image_of",
           "deep_win_cases", "forced_direction_cases", "forced_move_cases", "legal_move_cases",
           "losing_moves", "safe_move_cases", "shallow_choices", "stuck_cases",
           "winning_move_cases", "winning_moves"]
