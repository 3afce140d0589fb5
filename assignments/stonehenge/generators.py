"""Generated stonehenge cases: random games on the reference, expected outputs from it.

Run through ``gamegrader generate stonehenge``; seeds and parameters are recorded in the case
files. Each generator takes one side length (the case block feeds it through ``stdin``, which is
the same for every case of a block) except :func:`strategy_cases`, whose games are explicit
trees needing no input.
"""
from __future__ import annotations

import random
from typing import Iterator

from assignments.stonehenge import transcripts as t
from assignments.stonehenge.game_tree import TreeGame, TreeTooLargeError, build_tree, encode
from assignments.stonehenge.rough import rough_outcome
from assignments.stonehenge.rules import Stonehenge, StonehengePosition
from assignments.stonehenge.symmetry import first_image
from reference.search.minimax import bounded_value, optimal_moves

_NAMES = {1: "p1", 2: "p2"}
_PROOF_BUDGET = 30_000
"""Expansions allowed to prove a position's true value for a rough_outcome check (the early
positions of side 4 need more and are left open)."""
Case = dict[str, object]


def random_game(rng: random.Random, game: Stonehenge, first: int,
                length: int | None = None) -> tuple[str, list[StonehengePosition]]:
    """Random legal moves from the empty board: ``length`` of them, or until the game ends.

    Returns:
        The moves as one string of labels, and the positions before and after each move.
    """
    positions = [game.initial_state(first)]
    moves = ""
    while not game.is_terminal(positions[-1]) and (length is None or len(moves) < length):
        move = rng.choice(game.actions(positions[-1]))
        moves += move
        positions.append(game.result(positions[-1], move))
    return moves, positions


def _first(rng: random.Random) -> int:
    return rng.choice((1, 2))


Script = dict[str, str]
"""A scripted game: ``{"first": "p1" | "p2", "moves": "ABC"}``."""


def _games(rng: random.Random, game: Stonehenge, count: int, scripts: list[Script] | None,
           whole: bool) -> Iterator[tuple[int, str, list[StonehengePosition]]]:
    """``(first player, moves, positions)`` for ``count`` distinct games: the scripts if given
    (checked with the reference's ``play``), else random games, whole or cut at a random length.

    Raises:
        ValueError: if ``scripts`` does not hold exactly ``count`` legal games.
    """
    if scripts is not None:
        if len(scripts) != count:
            raise ValueError(f"count is {count} but {len(scripts)} scripts are given")
        for script in scripts:
            first = {"p1": 1, "p2": 2}[script["first"]]
            positions = [game.initial_state(first)]
            for move in script["moves"]:
                positions.append(game.play(positions[-1], move))
            yield first, script["moves"], positions
        return
    seen: set[tuple[int, str]] = set()
    while len(seen) < count:
        first = _first(rng)
        length = None if whole else rng.randint(1, len(game.labels))
        moves, positions = random_game(rng, game, first, length)
        if (first, moves) not in seen:
            seen.add((first, moves))
            yield first, moves, positions


def board_cases(rng: random.Random, count: int, *, side: int,
                scripts: list[Script] | None = None) -> Iterator[Case]:
    """The board printed once, after a random (or scripted) sequence of moves."""
    game = Stonehenge(side)
    for first, moves, positions in _games(rng, game, count, scripts, whole=False):
        steps = t.open_game(first == 1) + [t.play(moves),
                                           t.show_board(game.format_board(positions[-1]))]
        yield {"name": f"side {side}, {_NAMES[first]} first, moves {' '.join(moves)}",
               "doctest": t.render(steps)}


def game_cases(rng: random.Random, count: int, *, side: int,
               scripts: list[Script] | None = None) -> Iterator[Case]:
    """Games checked after every move: the board (by content) and ``is_over``; at the end
    ``is_winner`` for both players. Random games are played to the end. The possible moves are
    left to the moves cases, so that a bug there is charged once."""
    game = Stonehenge(side)
    for first, moves, positions in _games(rng, game, count, scripts, whole=True):
        steps = t.open_game(first == 1)
        for move, position in zip(moves, positions[1:]):
            steps += [(f"s = s.make_move({move!r})", ""),
                      t.show_board(game.format_board(position)),
                      t.value("g.is_over(s)", game.is_terminal(position))]
        winner = game.winner(positions[-1])
        steps += [("g.current_state = s", ""),
                  t.value("g.is_winner('p1'), g.is_winner('p2')", (winner == 1, winner == 2))]
        yield {"name": f"side {side}, {_NAMES[first]} first, moves {' '.join(moves)}",
               "doctest": t.render(steps)}


def game_images(rng: random.Random, count: int, *, side: int, script: Script,
                mirror_of: str) -> Iterator[Case]:
    """The visible scripted game ``mirror_of`` (``script``) asked again as :func:`game_cases`
    asks it, its cells relabelled by the first symmetry of the board's rules that changes the
    moves (:mod:`assignments.stonehenge.symmetry`), answered by the reference on the image.
    ``count`` must be 1."""
    found = first_image(side, script["moves"])
    if count != 1 or found is None:
        raise ValueError(f"game_images asks one visible game again that a symmetry changes "
                         f"(count 1): {mirror_of!r}")
    image = {"first": script["first"], "moves": found[1]}
    for case in game_cases(rng, 1, side=side, scripts=[image]):
        yield {**case, "name": f"{case['name']} (image of {mirror_of})", "mirror_of": mirror_of}


def rough_cases(rng: random.Random, count: int, *, side: int,
                scripts: list[Script] | None = None) -> Iterator[Case]:
    """rough_outcome before and after every move of a game, the finished position included.

    The transcript shows the reference's 1, -1 or 0; the checker reads 0 as "strictly between,
    or the true value": ``options.game_values`` holds, per position, its true value for the
    player to move where the reference shows 0 and proves it (see :func:`_game_values`), else
    None.
    """
    game = Stonehenge(side)
    for first, moves, positions in _games(rng, game, count, scripts, whole=True):
        steps = t.open_game(first == 1)
        for index, position in enumerate(positions):
            if index:
                steps.append((f"s = s.make_move({moves[index - 1]!r})", ""))
            steps.append(t.value("s.rough_outcome()", rough_outcome(game, position)))
        yield {"name": f"side {side}, {_NAMES[first]} first, moves {' '.join(moves)}",
               "doctest": t.render(steps),
               "options": {"game_values": _game_values(game, positions)}}


def _game_values(game: Stonehenge, positions: list[StonehengePosition]) -> list[int | None]:
    """Per position, its true value for the player to move where ``rough_outcome`` sees no
    result and the value is proved within ``_PROOF_BUDGET`` expansions; None elsewhere."""
    values: list[int | None] = []
    for position in positions:
        value = None
        if rough_outcome(game, position) == 0:
            value = bounded_value(game, position, game.to_move(position), _PROOF_BUDGET)
        values.append(None if value is None else int(value))
    return values


def make_move_cases(rng: random.Random, count: int, *, side: int) -> Iterator[Case]:
    """make_move must leave its receiver alone: from a random position ``s``, play one move,
    check ``s`` (board by content, player), then play another move from ``s``."""
    game = Stonehenge(side)
    made = 0
    while made < count:
        first = _first(rng)
        moves, positions = random_game(rng, game, first, rng.randint(0, len(game.labels) - 3))
        position = positions[-1]
        if len(game.actions(position)) < 2:
            continue
        made += 1
        one, other = rng.sample(game.actions(position), 2)
        steps = t.open_game(first == 1) + ([t.play(moves)] if moves else []) + [
            (f"t = s.make_move({one!r})", ""),
            t.show_board(game.format_board(position)),
            t.value("s.get_current_player_name()", _NAMES[game.to_move(position)]),
            (f"u = s.make_move({other!r})", ""),
            ("print(u)", game.format_board(game.result(position, other)) + "\n")]
        yield {"name": f"side {side}, after {' '.join(moves) or 'no move'}: {one}, then {other} "
                       "instead",
               "doctest": t.render(steps)}


def strategy_cases(rng: random.Random, count: int, *, strategy: str, sides: list[int],
                   min_nodes: int = 30, max_nodes: int = 800, max_paths: int = 5000,
                   recursion: str | None = None) -> Iterator[Case]:
    """``strategy`` on explicit trees of random Stonehenge positions (no stdin needed).

    A position qualifies when its tree has ``min_nodes`` to ``max_nodes`` positions and at most
    ``max_paths``
    root-to-end paths (so a strategy without memoisation stays fast) and some legal move does
    not guarantee the best score (so a careless choice is caught). ``options`` name the position
    for the checker, which recomputes the optimal moves; with ``recursion`` ("forbidden" or
    "required") the call goes through the call-graph probe.
    """
    made = 0
    while made < count:
        side = rng.choice(sides)
        game = Stonehenge(side)
        first = _first(rng)
        moves, positions = random_game(rng, game, first)
        for cut in range(len(moves)):
            try:
                tree = build_tree(game, positions[cut], _NAMES, max_nodes)
            except TreeTooLargeError:
                continue
            best: tuple[str, ...] = optimal_moves(TreeGame(tree), 0)
            if (len(tree.nodes) >= min_nodes and tree.count_paths() <= max_paths
                    and len(best) < len(tree.nodes[0].moves)):
                break
        else:
            continue
        made += 1
        options: dict[str, object] = {"game": "stonehenge", "side": side,
                                      "moves": moves[:cut], "first": _NAMES[first]}
        if recursion:
            options["recursion"] = recursion
        steps = t.strategy_call(strategy, encode(tree), best[0], recursion is not None)
        yield {"name": f"#{made} side {side}, {_NAMES[first]} first, after "
                       f"{' '.join(moves[:cut]) or 'no move'} ({len(tree.nodes)} positions)",
               "doctest": t.render(steps), "options": options}


__all__ = ["Script", "board_cases", "game_cases", "game_images", "make_move_cases", "random_game",
           "rough_cases", "strategy_cases"]
