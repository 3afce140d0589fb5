"""Game runner for the ``isolation`` spec: the student's player against a house bot, both sides.

``versus_house(case, sandbox)`` is the harness's generic runner (``harness.games.versus``) with
Isolation's kit on the case's ``clock``: ``options.games`` games, the student taking x in even-
numbered games and o in odd ones, each game in a fresh sandboxed process under the referee's
chess clock. Options:

- ``opponent``: a house bot students hold (random or greedy: they need the rules alone, so the
  student package plays these games too), or, in a case shown only after the due date, a
  fixed-depth alpha-beta bot of the staff's (``depth1`` to ``depth3``: a search, so it never
  ships, and the package's check leaves such a case out);
- ``games``: how many games; ``clock``: seconds per player per game (``host_scaled``: divided by
  the host's speed factor); ``seed``: game seeds derive from it (the random bot's moves, the
  greedy and fixed-depth bots' tie-breaks);
- ``score``: ``"wins"`` (default) earns ``min(1, wins / min_wins)``; ``"clean"`` earns the
  share of games in which the student made no fault (no timeout, crash, malformed or illegal
  answer), whoever won.

The feedback gives the result per side, the most clock used and each lost game's reason; in a
visible case it also lists the first lost game's moves and draws the first two lost games.
"""
from __future__ import annotations

from assignments.isolation.house_players import HOUSE_PLAYERS
from assignments.isolation.kit import SEARCHING_BOTS, make_kit
from assignments.isolation.pictures import game_picture
from harness import Sandbox
from harness.games import versus
from harness.records.spec import Case
from harness.records.verdicts import Judgement
from harness.spec.contracts import NUMBER, TEXT, Option, declare_options


def picture(game: versus.HouseGame) -> str:
    """A lost game drawn for the feedback: its last moves and final board."""
    return game_picture(f"game {game.number + 1}", game.record, str(game.side), game.replay)


@declare_options(**{**versus.HOUSE_GAME_OPTIONS,
                    "opponent": Option(TEXT, required=True,
                                       choices=(*HOUSE_PLAYERS, *SEARCHING_BOTS)),
                    "clock": Option(NUMBER, required=True)})
def versus_house(case: Case, sandbox: Sandbox) -> Judgement:
    """The runner named in the spec; see the module docstring for the options."""
    judgement: Judgement = versus.versus_house(case, sandbox,
                                               make_kit(versus.case_clock(case.options)), picture)
    return judgement


__all__ = ["picture", "versus_house"]
