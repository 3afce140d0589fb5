"""Game runner for the othello spec: the student's agent plays Randy through the real protocol.

The student's ``agent.py`` runs as a program in the sandbox (``sandbox.start_program``) and the
one game manager (``student_template/othello/othello_game.py``, via
:mod:`reference.othello.manager`) referees with the reference rules. Randy plays in this process,
seeded per game, so a case is reproducible up to the student's own choices.
"""
from __future__ import annotations

import time
from typing import Any, Mapping

from harness import Case, Judgement, Sandbox

from reference.othello.manager import load_manager, reference_rules

_COLORS = {1: "dark", 2: "light"}
_STDERR_LINES = 6


def _config(manager: Any, options: Mapping[str, Any], case_timeout: float) -> Any:
    return manager.GameConfig(
        size=int(options["size"]), limit=int(options.get("limit", -1)),
        minimax=bool(options.get("minimax", False)), caching=bool(options.get("caching", False)),
        ordering=bool(options.get("ordering", False)),
        move_timeout=min(float(options.get("move_timeout", 10.0)), case_timeout),
        handshake_timeout=min(float(options.get("handshake_timeout", 10.0)), case_timeout),
        color_only=bool(options.get("color_only", False)))


def describe_game(number: int, color: int, seed: int, outcome: Any) -> str:
    """One game's feedback: who played what, the result, and for a forfeit by the agent the
    reason, the move, the board and the tail of its stderr."""
    head = f"game {number}: you played {_COLORS[color]} (Randy's seed {seed}): "
    dark, light = outcome.score
    score = f"dark {dark} - light {light}"
    if outcome.forfeiter == color:
        lines = [head + f"lost by forfeit ({outcome.reason.value}), {score}",
                 f"  {outcome.detail}"]
        if outcome.move is not None:
            lines.append(f"  your move (column, row): {outcome.move}")
        lines.append(f"  board (board[row][col]): {outcome.board!r}")
        tail = outcome.stderr.strip().splitlines()[-_STDERR_LINES:]
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


def play_randy(case: Case, sandbox: Sandbox) -> Judgement:
    """Play the games of ``case.options`` and earn ``min(1, wins / min_wins)``.

    Options: ``size``; ``games``, a list of ``{"color": 1 | 2, "seed": int}``; ``min_wins``;
    the config line's ``limit``, ``minimax``, ``caching``, ``ordering``, or ``color_only`` to send
    the old one-field config line; ``move_timeout`` and ``handshake_timeout`` in seconds (10 by
    default, never more than the case's timeout).
    Games stop after a timeout forfeit and once the case's timeout has passed; games not
    played count as not won.
    """
    manager = load_manager()
    rules = reference_rules()
    options = case.options
    config = _config(manager, options, case.timeout)
    games = options["games"]
    min_wins = int(options.get("min_wins", len(games)))
    deadline = time.monotonic() + case.timeout
    wins, lines, skip_reason = 0, [], ""
    for number, game in enumerate(games, start=1):
        color, seed = int(game["color"]), int(game["seed"])
        if not skip_reason and time.monotonic() >= deadline:
            skip_reason = f"the case's {case.timeout:g} s were used up"
        if skip_reason:
            lines.append(f"game {number}: not played ({skip_reason})")
            continue
        randy = manager.random_player(seed, rules)
        with sandbox.start_program() as program:
            dark, light = (program, randy) if color == 1 else (randy, program)
            outcome = manager.play_game(dark, light, config, rules=rules)
        wins += outcome.winner == color
        lines.append(describe_game(number, color, seed, outcome))
        if outcome.forfeiter == color and outcome.reason is manager.Reason.TIMEOUT:
            skip_reason = "skipped after a timeout, to save grading time"
    summary = (f"won {wins} of {len(games)} games against Randy on {config.size}x{config.size} "
               f"(needed {min_wins})")
    return Judgement(min(1.0, wins / min_wins) if min_wins else 1.0,
                     "\n".join([summary] + lines))


__all__ = ["describe_game", "play_randy"]
