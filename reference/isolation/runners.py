"""Game runner for the ``isolation`` spec: the student's player against a house bot, both sides.

``versus_house(case, sandbox)`` is the harness's generic runner (``harness.games.versus``) with
Isolation's kit on the case's ``clock``: ``options.games`` games, the student taking x in even-
numbered games and o in odd ones, each game in a fresh sandboxed process under the referee's
chess clock. Options:

- ``opponent``: a house bot students hold (random or greedy: they need the rules alone, so the
  student package plays these games too);
- ``games``: how many games; ``clock``: seconds per player per game; ``seed``: game seeds derive
  from it (the random bot's moves, the greedy bot's tie-breaks);
- ``score``: ``"wins"`` (default) earns ``min(1, wins / required_wins)``; ``"clean"`` earns the
  share of games in which the student made no fault (no timeout, crash, malformed or illegal
  answer), whoever won.

Games stop when ``case.timeout`` seconds have passed; games not played count as neither wins
nor clean games. The message names every lost game, its side, seed and reason; for a visible
case it also lists the first lost game's moves.
"""
from __future__ import annotations

from harness import Case, Judgement, Sandbox
from harness.games import versus
from reference.isolation.kit import make_kit


def versus_house(case: Case, sandbox: Sandbox) -> Judgement:
    """The runner named in the spec; see the module docstring for the options."""
    judgement: Judgement = versus.versus_house(case, sandbox, make_kit(case.options["clock"]))
    return judgement


__all__ = ["versus_house"]
