"""Game runner for the ``isolation`` spec: the student's player against a house bot, both sides.

``versus_house(case, sandbox)`` plays ``options.games`` games, the student taking x in even-
numbered games and o in odd ones, each game in a fresh sandboxed process (``sandbox.start_server``)
under the referee's chess clock. Options:

- ``opponent``: a house player of ``reference.isolation.house_players.HOUSE_PLAYERS`` (random
  or greedy: they need the rules alone, so the student package plays these games too);
- ``games``: how many games; ``clock``: seconds per player per game; ``seed``: game seeds derive
  from it (the random bot's moves, the greedy bot's tie-breaks);
- ``score``: ``"wins"`` (default) earns ``min(1, wins / min_wins)``; ``"clean"`` earns the
  share of games in which the student made no fault (no timeout, crash, malformed or illegal
  answer), whoever won.

Games stop when ``case.timeout`` seconds have passed; games not played count as neither wins
nor clean games. The message names every lost game, its side, seed and reason; for a visible
case it also lists the first lost game's moves.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from harness import Case, Judgement, Sandbox
from harness.games.match import GameRecord
from harness.games.outcome import Reason
from harness.games.seats import InProcess
from harness.spec.contracts import INTEGER, NUMBER, TEXT, Option, declare_options
from harness.tournament.records import Entrant, GameTask
from harness.tournament.replays import keep_graded_game
from harness.tournament.schedule import derive_seed
from reference.games.isolation import SIZE, Isolation, O, Player, X
from reference.isolation.house_players import HOUSE_PLAYERS, house_player
from reference.isolation.pages import IsolationPages
from reference.isolation.pictures import game_picture
from reference.isolation.referee import game_result, referee_game, student_contestant

_PICTURED_LOSSES = 2  # lost games drawn in a visible case's feedback (last moves, final board)


@dataclass(frozen=True)
class _Played:
    """One graded game: its number, the student's side, its seed and its record."""

    number: int
    side: Player
    seed: int
    record: GameRecord[Any]
    replay: Any = None  # the replay page kept (``grade --games``), or None

    @property
    def won(self) -> bool:
        return self.record.outcome.winner == self.side

    @property
    def is_clean(self) -> bool:
        """Whether the student made no fault (a fault ends the game on the student's move)."""
        outcome = self.record.outcome
        return outcome.reason is Reason.NO_MOVES or outcome.winner == self.side

    @property
    def clock_used(self) -> float:
        return dict(self.record.clocks)[self.side]

    def describe_loss(self) -> str:
        outcome = self.record.outcome
        ply = len(self.record.plies) + 1
        if outcome.reason is Reason.NO_MOVES:
            reason = f"no legal move left at ply {ply}"
        else:
            reason = f"forfeit ({outcome.reason.value}) at ply {ply}: {outcome.detail}"
            if self.record.bad_move is not None:
                reason += f"; your move: {self.record.bad_move}"
        return f"game {self.number + 1}, you played {self.side} (seed {self.seed}): {reason}"


def play_house_game(sandbox: Sandbox, opponent: str, side: Player, clock: float,
                    seed: int) -> GameRecord[Any]:
    """One game between the student (on ``side``) and house bot ``opponent``, fresh process."""
    game = Isolation()
    house = InProcess(house_player(opponent, game, seed))
    server = sandbox.start_server()
    try:
        student = student_contestant(server)
        if side == X:
            return referee_game(student, house, clock, game)
        return referee_game(house, student, clock, game)
    finally:
        server.close()


def keep(record: GameRecord[Any], side: Player, opponent: str, seed: int, clock: float,
         name: str) -> Any:
    """Keep a graded game as a record and replay page (``gamegrader grade --games DIR``); the
    page's path, or None."""
    you, house = Entrant("you", "submission"), Entrant(opponent, f"house:{opponent}")
    first, second = (you, house) if side == X else (house, you)
    result = game_result(record, GameTask(0, 1, first, second, seed), SIZE, clock)
    return keep_graded_game(IsolationPages(clock), result, name)


@declare_options(
    opponent=Option(TEXT, required=True, choices=HOUSE_PLAYERS),
    games=Option(INTEGER, required=True), clock=Option(NUMBER, required=True),
    seed=Option(INTEGER), score=Option(TEXT, choices=("wins", "clean")),
    min_wins=Option(INTEGER, required=True, unless=("score", "clean")))
def versus_house(case: Case, sandbox: Sandbox) -> Judgement:
    """The runner named in the spec; see the module docstring for the options."""
    options = case.options
    opponent, games = str(options["opponent"]), int(options["games"])
    clock, seed = float(options["clock"]), int(options.get("seed", 0))
    deadline = time.monotonic() + case.timeout
    played: list[_Played] = []
    for number in range(games):
        if time.monotonic() >= deadline:
            break
        side = X if number % 2 == 0 else O
        game_seed = derive_seed(seed, number)
        record = play_house_game(sandbox, opponent, side, clock, game_seed)
        replay = keep(record, side, opponent, game_seed, clock, f"{case.id}-game{number + 1}")
        played.append(_Played(number, side, game_seed, record, replay))
    return _judge(case, opponent, games, clock, played)


def _judge(case: Case, opponent: str, games: int, clock: float, played: list[_Played]
           ) -> Judgement:
    options = case.options
    wins = sum(p.won for p in played)
    by_side = {side: [p for p in played if p.side == side] for side in (X, O)}
    lines = [f"Won {wins} of {games} games against the {opponent} player "
             f"(as x: {sum(p.won for p in by_side[X])} of {len(by_side[X])}, "
             f"as o: {sum(p.won for p in by_side[O])} of {len(by_side[O])}); "
             f"clock {clock:g} s per game."]
    if options.get("score", "wins") == "clean":
        clean = sum(p.is_clean for p in played)
        fraction = clean / games
        lines.append(f"Games without a timeout, crash or illegal answer: {clean} of {games}.")
    else:
        required = int(options["min_wins"])
        fraction = min(1.0, wins / required)
        lines.append(f"Needed {required} wins.")
    if played:
        lines.append(f"Most clock used in one game: {max(clock - p.clock_used for p in played):.2f}"
                     f" s of {clock:g} s.")
    if len(played) < games:
        lines.append(f"{games - len(played)} games were not played: the case's "
                     f"{case.timeout:g} s ran out.")
    lost = [p for p in played if not p.won]
    lines.extend(f"Lost {p.describe_loss()}" for p in lost)
    if lost and case.visibility.reveals_expected:
        moves = " ".join(f"({r},{c})" for r, c in (ply.move for ply in lost[0].record.plies))
        lines.append(f"Moves of game {lost[0].number + 1}, x first: {moves or '(none)'}")
    forfeits = [p.record.outcome.reason for p in lost if p.record.outcome.forfeiter == p.side]
    pictures = [game_picture(f"game {p.number + 1}", p.record, p.side, p.replay)
                for p in lost[:_PICTURED_LOSSES]] if case.visibility.reveals_expected else []
    return Judgement(fraction, "\n".join(lines),
                     failure=forfeits[0].verdict if forfeits else None,
                     picture="\n\n".join(pictures))


__all__ = ["play_house_game", "versus_house"]
