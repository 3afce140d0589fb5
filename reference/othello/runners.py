"""Game runner for the othello spec: the student's agent plays Randy through the real protocol.

The student's ``agent.py`` runs as a program in the sandbox (``sandbox.start_program``) and the
trusted referee (:mod:`reference.othello.referee`, on the one match loop of ``harness.games``)
referees with the reference rules. Randy plays in this process, seeded per game, so a case is
reproducible up to the student's own choices.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Mapping

from harness import Case, Judgement, Sandbox
from harness.games import Clock, GameRecord, InProcess
from harness.games.match import HANDSHAKE
from harness.games.outcome import Reason
from harness.spec.contracts import FLAG, INTEGER, NUMBER, Option, declare_options
from harness.tournament.records import Entrant, GameTask, result_of
from harness.tournament.replays import keep_graded_game
from reference.games.othello import DARK, LIGHT, get_score
from reference.othello.pictures import game_picture
from reference.othello.referee import (
    COLOR_NAMES,
    Randy,
    Settings,
    final_board,
    program_seat,
    referee_game,
    replay_view,
)

_STDERR_LINES = 6
_PICTURED_LOSSES = 2  # games not won drawn in the feedback (their last moves and final board)


def settings_of(options: Mapping[str, Any]) -> Settings:
    """The game settings a case's options name."""
    return Settings(size=int(options["size"]), limit=int(options.get("limit", -1)),
                    minimax=bool(options.get("minimax", False)),
                    caching=bool(options.get("caching", False)),
                    ordering=bool(options.get("ordering", False)),
                    color_only=bool(options.get("color_only", False)))


def clock_of(options: Mapping[str, Any], case_timeout: float) -> Clock:
    """10 s per move and for the handshake by default, never more than the case's timeout."""
    return Clock(move_seconds=min(float(options.get("move_timeout", 10.0)), case_timeout),
                 handshake_seconds=min(float(options.get("handshake_timeout", 10.0)),
                                       case_timeout))


def describe_game(number: int, color: int, seed: int, record: GameRecord[Any], size: int) -> str:
    """One game's feedback: who played what, the result, and for a forfeit by the agent what
    happened (timeout with the clock, crash with its last stderr lines, illegal move with the
    move), the board and the tail of its stderr."""
    head = f"game {number}: you played {COLOR_NAMES[color]} (Randy's seed {seed}): "
    outcome = record.outcome
    board = final_board(record, size)
    dark, light = get_score(board)
    score = f"dark {dark} - light {light}"
    if outcome.forfeiter == color:
        yours = sum(ply.player == color for ply in record.plies) + 1
        lines = [head + f"lost by forfeit ({outcome.reason.value}) on your move {yours}, "
                 f"{score}", f"  {outcome.detail}"]
        if record.bad_move is not None:
            lines.append(f"  your move (column, row): {record.bad_move}")
        lines.append(f"  board (board[row][col]): {board!r}")
        tail = record.stderr.strip().splitlines()[-_STDERR_LINES:]
        if tail:
            lines.append("  your stderr ended with:\n" + "\n".join(f"    {t}" for t in tail))
        return "\n".join(lines)
    if outcome.forfeiter is not None:
        return head + f"won: Randy forfeited ({outcome.detail})"
    if outcome.winner == color:
        return head + f"won, {score}"
    if outcome.winner is None:
        return head + f"tie, {score}"
    return head + f"lost, {score}"


@dataclass(frozen=True)
class _Viewer:
    """Draws replays of graded games (the tournament arena is not needed, nor shipped)."""

    size: int

    def replay_view(self, result: Any, outcome: str) -> Any:
        return replay_view(result, outcome, self.size)


def keep(record: GameRecord[Any], color: int, seed: int, settings: Settings, clock: Clock,
         name: str) -> Any:
    """Keep a graded game as a record and replay page (``gamegrader grade --games DIR``); the
    page's path, or None."""
    you, randy = Entrant("you", "submission"), Entrant("Randy", "house:random")
    first, second = (you, randy) if color == DARK else (randy, you)
    result = result_of(record, GameTask(0, 1, first, second, seed), (DARK, LIGHT), {
        "name": "othello", "size": settings.size, "limit": settings.limit,
        "move_seconds": clock.move_seconds})
    return keep_graded_game(_Viewer(settings.size), result, name)


@declare_options(
    size=Option(INTEGER, required=True), games=Option((list,), required=True),
    min_wins=Option(INTEGER), limit=Option(INTEGER), minimax=Option(FLAG),
    caching=Option(FLAG), ordering=Option(FLAG), color_only=Option(FLAG),
    move_timeout=Option(NUMBER), handshake_timeout=Option(NUMBER))
def play_randy(case: Case, sandbox: Sandbox) -> Judgement:
    """Play the games of ``case.options`` and earn ``min(1, wins / min_wins)``.

    Options: ``size``; ``games``, a list of ``{"color": 1 | 2, "seed": int}``; ``min_wins``;
    the config line's ``limit``, ``minimax``, ``caching``, ``ordering``, or ``color_only`` to send
    the old one-field config line; ``move_timeout`` and ``handshake_timeout`` in seconds (10 by
    default, never more than the case's timeout).
    Games stop after a timeout forfeit, after a forfeit in the handshake (the name line comes
    before the program learns anything of the game, so it fails the same way in every game) and
    once the case's timeout has passed; games not played count as not won.
    """
    options = case.options
    settings, clock = settings_of(options), clock_of(options, case.timeout)
    games = options["games"]
    min_wins = int(options.get("min_wins", len(games)))
    deadline = time.monotonic() + case.timeout
    wins, lines, skip_reason = 0, [], ""
    pictures: list[str] = []
    forfeits: list[Reason] = []
    for number, game in enumerate(games, start=1):
        color, seed = int(game["color"]), int(game["seed"])
        if not skip_reason and time.monotonic() >= deadline:
            skip_reason = f"the case's {case.timeout:g} s were used up"
        if skip_reason:
            lines.append(f"game {number}: not played ({skip_reason})")
            continue
        randy = InProcess(Randy(seed))
        with sandbox.start_program() as program:
            agent = program_seat(program, settings)
            dark, light = (agent, randy) if color == 1 else (randy, agent)
            record = referee_game(dark, light, settings, clock)
        replay = keep(record, color, seed, settings, clock, f"{case.id}-game{number}")
        wins += record.outcome.winner == color
        if record.outcome.winner != color and len(pictures) < _PICTURED_LOSSES:
            pictures.append(game_picture(f"game {number} (you played {COLOR_NAMES[color]})",
                                         record, color, settings.size, replay))
        lines.append(describe_game(number, color, seed, record, settings.size))
        if record.outcome.forfeiter == color:
            forfeits.append(record.outcome.reason)
        if record.outcome.forfeiter == color and record.outcome.reason is Reason.TIMEOUT:
            skip_reason = "skipped after a timeout, to save grading time"
        elif record.outcome.forfeiter == color and record.outcome.detail.startswith(HANDSHAKE):
            skip_reason = ("skipped: your program did not say its name in game "
                           f"{number}, and it starts the same way in every game")
    summary = (f"won {wins} of {len(games)} games against Randy ({settings.describe()}; "
               f"{clock.describe()}; needed {min_wins})")
    return Judgement(min(1.0, wins / min_wins) if min_wins else 1.0,
                     "\n".join([summary] + lines),
                     failure=forfeits[0].verdict if forfeits else None,
                     picture="\n\n".join(pictures))


__all__ = ["describe_game", "play_randy"]
