"""Stonehenge positions drawn for feedback, in the handout's own board layout.

The handout names cells by letter (a move is the letter of the cell claimed) and prints a board
with ``@`` or an owner's digit on each ley-line marker; :func:`draw_text` prints the position the
same way (``Stonehenge.format_board``), with a marked cell's letter replaced by its mark.
:func:`case_picture` is the ``picture:`` of the strategy cases played on Stonehenge positions.
It needs the reference rules, which never ship in a student package, so it draws on Gradescope
only (``check`` leaves the picture out).
"""
from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

from assignments.stonehenge.rules import Stonehenge, StonehengePosition
from reference.core.pictures import answer_of, first_failed

YOURS, BEST, BOTH = "*", "+", "#"


def draw_text(position: tuple[Stonehenge, StonehengePosition],
              marks: Mapping[str, str] | None = None, legend: Sequence[str] = ()) -> str:
    """The board of ``(game, state)`` as the handout prints it; ``marks`` maps a cell's letter
    to the character drawn instead (an unclaimed cell only: a claimed one shows its owner)."""
    game, state = position
    text = game.format_board(state)
    for letter, mark in (marks or {}).items():
        if len(letter) == 1 and letter.isalpha():
            text = re.sub(rf"(?<![A-Za-z]){re.escape(letter)}(?![A-Za-z])", mark, text)
    return "\n".join([text, "@ an unclaimed ley-line marker, 1 and 2 what a player claimed; a "
                            "move is a cell's letter", *legend])


def _position(options: Mapping[str, Any]) -> tuple[Stonehenge, StonehengePosition] | None:
    if options.get("game") != "stonehenge" or type(options.get("side")) is not int:
        return None
    game = Stonehenge(options["side"])
    state = game.initial_state({"p1": 1, "p2": 2}.get(options.get("first", "p1"), 1))
    for move in str(options.get("moves", "")):
        state = game.play(state, move)
    return game, state


def _move_of(value: Any) -> Any:
    """The move in a strategy's answer (a recursion probe returns (move, names))."""
    return value[0] if type(value) is tuple and len(value) == 2 else value


def case_picture(case: Any, observations: Sequence[Any], reveal: bool) -> str:
    """The position the case's options name, the student's move (``*``) and, when ``reveal``,
    the optimal moves (``+``; ``#`` for your move when it is one)."""
    position = _position(case.options)
    accepted = [m for m in (case.options.get("precomputed") or {}).get("accepted", [])
                if isinstance(m, str)]
    if position is None:
        return ""

    def failed(index: int, observation: Any) -> bool:
        return _move_of(answer_of(observation)) not in accepted

    index = first_failed(case, observations, failed)
    if index is None:
        return ""
    yours = _move_of(answer_of(observations[index]) if index < len(observations) else None)
    best = accepted if reveal else []
    marks = {move: BEST for move in best}
    legend = [f"player {position[0].to_move(position[1])} to move"]
    if isinstance(yours, str) and len(yours) == 1 and yours.isalpha():
        marks[yours] = BOTH if yours in best else YOURS
        legend.append(f"{YOURS} your move {yours}")
    if best:
        legend.append(f"{BEST} an optimal move")
    return "The position\n" + draw_text(position, marks, legend)
