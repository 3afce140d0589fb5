"""Game runner for the othello spec: the student's agent plays Randy through the real protocol.

The student's ``agent.py`` runs as a program in the sandbox and the trusted referee (Othello's
kit, :mod:`reference.othello.kit`, on the one match loop and the generic house-bot games of
``harness.games.versus``) referees with the reference rules. Randy plays in this process, seeded
per game, so a case is reproducible up to the student's own choices.
"""
from __future__ import annotations

from typing import Any, Mapping, cast

from harness import Sandbox
from harness.games import GameRecord
from harness.games.versus import PICTURED_LOSSES, counted_time, play_versus_house
from harness.records.spec import Case
from harness.records.verdicts import Judgement
from harness.spec.contracts import FLAG, INTEGER, NUMBER, Option, declare_options
from reference.games.othello import get_score
from reference.othello.kit import OthelloKit
from reference.othello.pictures import game_picture
from reference.othello.referee import COLOR_NAMES, final_board


def kit_of(options: Mapping[str, Any], case_timeout: float) -> OthelloKit:
    """The game a case's options name: its settings, and 10 s per move and for the handshake
    by default, never more than the case's timeout."""
    return OthelloKit(size=int(options["size"]), limit=int(options.get("limit", -1)),
                      minimax=bool(options.get("minimax", False)),
                      caching=bool(options.get("caching", False)),
                      ordering=bool(options.get("ordering", False)),
                      color_only=bool(options.get("color_only", False)),
                      move_seconds=min(float(options.get("move_timeout", 10.0)), case_timeout),
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
        tail = record.stderr_lines()
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
    once the case's timeout has passed; games not played count as not won. The first two games
    not won are drawn in the feedback.
    """
    options = case.options
    kit = kit_of(options, case.timeout)
    games = options["games"]
    min_wins = int(options.get("min_wins", len(games)))
    schedule = [(int(game["color"]), int(game["seed"])) for game in games]
    played = play_versus_house(kit, sandbox, "random", schedule, case.timeout, case.id,
                               stop_after_timeout=True)
    lines = [describe_game(game.number + 1, cast(int, game.side), game.seed, game.record,
                           kit.size) for game in played.games]
    lines += [f"game {number}: not played ({played.skipped})"
              for number in range(len(played.games) + 1, len(games) + 1)]
    wins = sum(game.won for game in played.games)
    faults = [game.student_fault for game in played.games if game.student_fault is not None]
    pictures = [game_picture(f"game {game.number + 1} (you played "
                             f"{COLOR_NAMES[cast(int, game.side)]})", game.record,
                             cast(int, game.side), kit.size, game.replay)
                for game in played.games if not game.won][:PICTURED_LOSSES]
    counted = counted_time(played.games)  # said only where it is not the usual CPU time
    clock = kit.clock.describe() + ("" if counted == "CPU time" else f", counted in {counted}")
    summary = (f"won {wins} of {len(games)} games against Randy ({kit.game_settings.describe()}; "
               f"{clock}; needed {min_wins})")
    return Judgement(min(1.0, wins / min_wins) if min_wins else 1.0,
                     "\n".join([summary] + lines),
                     failure=faults[0].verdict if faults else None,
                     picture="\n\n".join(pictures))


__all__ = ["describe_game", "kit_of", "play_randy"]
