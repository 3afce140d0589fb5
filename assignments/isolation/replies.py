"""The reader of an Isolation player's reply, apart from the rules.

A reply is checked the same way in a game (the referee) and in a ``choose_move`` case (the
comparator, :mod:`assignments.isolation.checkers`); it needs no rule of the game, so the student
package holds this module and not :mod:`assignments.isolation.rules`.
"""
from __future__ import annotations

from typing import Any, Sequence, cast

Square = tuple[int, int]
"""A square as 1-indexed ``(row, col)``; (1, 1) is the top-left corner."""

Move = Square
"""A move is the destination square, 1-indexed ``(row, col)``."""

SIZE = 8
"""The handout's board size; the rules also accept other sizes for tests."""


class ReplyError(ValueError):
    """A player's reply that is not a ``(row, col)`` pair of ints or ``(None, None)``."""


def parse_move(value: object, size: int = SIZE) -> Move | None:
    """Checked reader for a player's reply: a destination, or None for ``(None, None)``.

    Args:
        value: plain data from a player. Accepted: a tuple or list of two exact ints from 1 to
            ``size`` (bools are not ints here), or a tuple or list of two ``None``.
        size: the board size.

    Returns:
        ``(row, col)`` as a new tuple, or None when the player says it cannot move.

    Raises:
        ReplyError: quoting an abbreviated copy of ``value``.

    >>> parse_move([3, 4])
    (3, 4)
    >>> parse_move((None, None)) is None
    True
    """
    if type(value) not in (tuple, list) or len(cast(Sequence[Any], value)) != 2:
        raise ReplyError(f"expected (row, col) or (None, None), got {_abbreviate(value)}")
    first, second = cast(Sequence[Any], value)
    if first is None and second is None:
        return None
    if type(first) is not int or type(second) is not int:
        raise ReplyError(f"expected two ints, got {_abbreviate(value)}")
    if not (1 <= first <= size and 1 <= second <= size):
        raise ReplyError(f"square {_abbreviate(value)} is off the {size} x {size} board "
                         f"(rows and columns run from 1 to {size})")
    return (first, second)


def _abbreviate(value: object, limit: int = 80) -> str:
    """``repr(value)`` cut to ``limit`` characters, for error messages about untrusted data."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


__all__ = ["Move", "ReplyError", "SIZE", "Square", "parse_move"]
