"""The handout's ``rough_outcome`` estimate, for any two-player game (one-move lookahead).

Used to check the student's ``StonehengeState.rough_outcome`` and the starter Subtract Square.
"""
from __future__ import annotations

from reference.core.protocols import Game, Move, State

WIN = 1
LOSE = -1
UNKNOWN = 0
"""The customary value when neither a win nor a loss can be seen within two moves."""


def rough_outcome(game: Game[State, Move], state: State) -> int:
    """Estimate ``state`` for its player to move, as the notes (section 3) define it.

    Returns:
        For a terminal ``state``, the utility for the player to move (``LOSE`` in Stonehenge
        and Subtract Square); ``WIN`` if some move wins at once; ``LOSE`` if every move loses
        at once or leaves the opponent a move that wins at once; otherwise ``UNKNOWN`` (the
        student may return any value strictly between ``LOSE`` and ``WIN`` then).
    """
    me = game.to_move(state)
    if game.is_terminal(state):
        return int(game.utility(state, me))

    def lost(position: State) -> bool:
        return game.is_terminal(position) and game.utility(position, me) < 0

    children = [game.result(state, move) for move in game.actions(state)]
    if any(game.is_terminal(child) and game.utility(child, me) > 0 for child in children):
        return WIN
    if all(lost(child) or any(lost(game.result(child, reply)) for reply in game.actions(child))
           for child in children):
        return LOSE
    return UNKNOWN


__all__ = ["LOSE", "UNKNOWN", "WIN", "rough_outcome"]
