"""Reference positions named by plain data, so a case's options can say which game was played.

A strategy case runs the student's strategy on a game of ours (an explicit tree, or the starter's
Subtract Square) and records in its ``options`` which reference position that game stands for.
The checker rebuilds the position here and asks the reference minimax for the optimal moves.

Option shapes (``first`` is ``'p1'`` or ``'p2'``, default ``'p1'``):

- ``{game: stonehenge, side: 2, moves: "AEBC", first: p1}``: the moves are played in turn;
- ``{game: subtract_square, total: 9, first: p1}``;
- ``{game: caterpillar, length: 1201}``: the probe's deep game (``game_tree.caterpillar``).
"""
from __future__ import annotations

from typing import Any, Mapping

from assignments.stonehenge.game_tree import TreeGame, caterpillar
from assignments.stonehenge.rules import Stonehenge
from reference.games.subtract_square import SubtractSquare
from reference.search.minimax import optimal_moves

_PLAYERS = {"p1": 1, "p2": 2}


def _field(options: Mapping[str, Any], name: str, kind: type) -> Any:
    """``options[name]``, checked to be of ``kind`` (ValueError naming the field otherwise)."""
    value = options.get(name)
    if type(value) is not kind:
        raise ValueError(f"options.{name} must be a {kind.__name__}, got {value!r}")
    return value


def accepted_moves(options: Mapping[str, Any]) -> tuple[Any, ...]:
    """The moves that guarantee the best score in the position ``options`` names.

    Raises:
        ValueError: the options do not name a position (an error in the case file), or the
            position has no legal move.
    """
    kind = options.get("game")
    first = _PLAYERS.get(options.get("first", "p1"))
    if first is None:
        raise ValueError(f"options.first must be 'p1' or 'p2', got {options.get('first')!r}")
    if kind == "stonehenge":
        game = Stonehenge(_field(options, "side", int))
        position = game.initial_state(first)
        for move in _field(options, "moves", str):
            position = game.play(position, move)
        return optimal_moves(game, position)
    if kind == "subtract_square":
        square = SubtractSquare()
        return optimal_moves(square, square.initial_state(_field(options, "total", int), first))
    if kind == "caterpillar":
        return optimal_moves(TreeGame(caterpillar(_field(options, "length", int))), 0)
    raise ValueError(f"options.game must be stonehenge, subtract_square or caterpillar, "
                     f"got {kind!r}")


def precomputed(options: Mapping[str, Any]) -> dict[str, Any]:
    """What ``gamegrader generate`` stores for a strategy case (the case's ``precompute``): the
    accepted moves, so the checker (:func:`assignments.stonehenge.checkers.optimal_move`) solves
    nothing and ships in the student package."""
    return {"accepted": list(accepted_moves(options))}


__all__ = ["accepted_moves", "precomputed"]
