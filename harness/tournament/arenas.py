"""Find a game's tournament arena: the ``arena:`` factory its assignment.yaml names, so the
tournament engine (and replays) know no game."""
from __future__ import annotations

import importlib
from typing import Any, Optional

from harness.tournament.records import Arena


def load_arena(game: str, clock: Optional[float], factory: Optional[str] = None,
               options: Optional[dict[str, Any]] = None) -> Arena:
    """The arena factory called with ``clock=clock, **options``.

    Args:
        game: the assignment name; its factory is ``reference.<game>.arena:make_arena``.
        clock: seconds per player per game, or None for the game's default.
        factory: ``package.module:function`` to use instead of the convention.
        options: further settings of the arena (its dataclass fields).

    Raises:
        ValueError: when the factory cannot be found.
    """
    if not game.isidentifier():
        raise ValueError(f"game name must be a Python identifier, got {game!r}")
    module_name, _, function = (factory or registered_arena(game)).partition(":")
    try:
        module = importlib.import_module(module_name)
        make = getattr(module, function or "make_arena")
    except (ModuleNotFoundError, AttributeError) as error:
        raise ValueError(f"game {game!r} has no tournament arena: {error} (expected "
                         f"{module_name}:{function or 'make_arena'})") from error
    try:
        return make(clock=clock, **(options or {}))  # type: ignore[no-any-return]
    except TypeError as error:
        raise ValueError(f"bad arena option: {error}") from error


def registered_arena(game: str) -> str:
    """The ``arena`` factory named by the assignment ``game``.

    Raises:
        ValueError: for an unknown assignment (with the close names) or one that is no game.
    """
    import difflib

    from harness.spec import SpecError, find_assignment, list_assignments

    known = list_assignments()
    if game not in known:
        close = difflib.get_close_matches(game, known, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise ValueError(f"no assignment named {game!r}{hint}")
    try:
        arena = find_assignment(game).arena
    except SpecError as error:
        raise ValueError(str(error)) from error
    if not arena:
        games = [name for name in known if _arena_or_empty(name)]
        raise ValueError(f"{game!r} has no tournament (games: {', '.join(games)})")
    return arena


def _arena_or_empty(name: str) -> str:
    from harness.spec import SpecError, find_assignment

    try:
        return find_assignment(name).arena
    except SpecError:
        return ""
