"""The game protocol (two-player games) and the search-problem protocol (one-player puzzles).

Vocabulary follows AIMA: ``to_move``, ``actions``, ``result``, ``is_terminal``, ``utility``.
Positions are immutable and hashable; ``result`` returns a new position. ``actions`` returns
moves in the order the game documents: that order is part of the contract because leaf counts and
tie-breaks depend on it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Hashable, Iterable, Protocol, Sequence, TypeVar

State = TypeVar("State", bound=Hashable)
Move = TypeVar("Move", bound=Hashable)
Player = Hashable


@dataclass(frozen=True)
class GameFacts:
    """Facts a game declares about itself, checked by algorithms that rely on them."""

    players: int = 2
    deterministic: bool = True
    zero_sum: bool = True
    perfect_information: bool = True


class Game(Protocol[State, Move]):
    """A deterministic game: positions are immutable and hashable."""

    facts: GameFacts

    def initial_state(self, *args: Any, **kwargs: Any) -> State:
        """The start position; its parameters are the game's own (a board's size, who moves
        first), so each game says which it takes."""

    def to_move(self, state: State) -> Any:
        """The player whose turn it is in ``state``."""

    def actions(self, state: State) -> Sequence[Move]:
        """Legal moves of the player to move, in the game's documented order."""

    def result(self, state: State, move: Move) -> State:
        """The position after ``move``; ``state`` is not changed. Legality is the caller's job."""

    def is_terminal(self, state: State) -> bool:
        """Whether the game is over in ``state``."""

    def utility(self, state: State, player: Any) -> float:
        """Value of ``state`` to ``player`` (at terminal positions, or as an evaluation)."""


class SearchProblem(Protocol[State, Move]):
    """A one-player search problem (AIMA's Problem): initial state, actions, result, goal test."""

    @property
    def initial(self) -> State:
        """The start state."""

    def actions(self, state: State) -> Iterable[Move]:
        """Moves available in ``state``."""

    def result(self, state: State, move: Move) -> State:
        """The state after ``move``."""

    def is_goal(self, state: State) -> bool:
        """Whether ``state`` is a goal."""

    def action_cost(self, state: State, move: Move, next_state: State) -> float:
        """Cost of one step."""


def require_facts(game: object, **wanted: object) -> None:
    """Raise ValueError naming the first fact of ``game`` that differs from ``wanted``.

    Algorithms call this with the properties they rely on, e.g. ``players=2, zero_sum=True``.
    """
    facts = getattr(game, "facts", None)
    if facts is None:
        raise ValueError(f"{type(game).__name__} declares no GameFacts")
    for name, value in wanted.items():
        if getattr(facts, name, None) != value:
            raise ValueError(
                f"{type(game).__name__} has {name}={getattr(facts, name, None)!r}; "
                f"this algorithm needs {name}={value!r}")


__all__ = ["Game", "GameFacts", "Move", "Player", "SearchProblem", "State", "require_facts"]
