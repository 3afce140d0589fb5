"""CPU-time clocks with real sandboxed entrants: a student that computes within its CPU clock
keeps playing, one that computes past it loses on CPU time, and one that sleeps (no CPU time at
all) loses on time once its wall backstop (``cpu_clock.wall_backstop``) has passed.

Every bound is on CPU time or a lower bound on wall time, so the load beside the test cannot
break it: a loaded host only makes the sleeper's wait and the computers' moves take longer. The
player that computes past its clock has 0.5 s a move, so its CPU time runs out before its
backstop (4.5 s) unless it gets less than a ninth of a CPU.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from harness import Sandbox
from harness.games import Clock, InProcess
from harness.games.cpu_clock import wall_backstop
from harness.games.match import GameRecord, play_game
from harness.records.games import Reason
from reference.games.isolation import Isolation
from reference.isolation.house_players import RandomPlayer
from reference.isolation.referee import student_contestant
from reference.othello.referee import Randy, Settings, program_seat
from reference.othello.referee import referee_game as othello_game

pytestmark = pytest.mark.slow
TEMPLATE_DIR = Path(__file__).resolve().parents[3] / "student_template" / "othello"
MOVE_SECONDS = 2.0
WORK = 0.5
"""CPU seconds the computing player spends on each of its first two moves."""

FIRST_STEP = '''
def first_step(board, player):
    for r, row in enumerate(board):
        for c, square in enumerate(row):
            if square == player:
                for dr in (-1, 0, 1):
                    for dc in (-1, 0, 1):
                        rr, cc = r + dr, c + dc
                        if (dr or dc) and 0 <= rr < 8 and 0 <= cc < 8 and board[rr][cc] == "-":
                            return (rr + 1, cc + 1)
    return (None, None)
'''
COMPUTER = FIRST_STEP + f'''
import time
CALLS = []

def choose_move(board, player, time_left):
    CALLS.append(time_left)
    if len(CALLS) <= 2:
        started = time.process_time()
        while time.process_time() - started < {WORK}:
            pass
    return first_step(board, player)
'''
LOOPER = FIRST_STEP + '''
def choose_move(board, player, time_left):
    while True:
        pass
'''
SLEEPER = FIRST_STEP + '''
import time

def choose_move(board, player, time_left):
    time.sleep(100000)
'''
SLEEPING_AGENT = '''
import sys, time
print("sleeper", flush=True)
sys.stdin.readline()
for line in sys.stdin:
    if line.startswith("("):
        time.sleep(100000)
'''


def isolation_game(tmp_path: Path, source: str, seconds: float = MOVE_SECONDS
                   ) -> tuple[GameRecord[Any], float]:
    """One game of ``source`` (as x) against the random player, ``seconds`` a move; the
    record and the game's wall seconds."""
    player = tmp_path / "player.py"
    player.write_text(source)
    game = Isolation()
    with Sandbox("player", {"player.py": player}) as sandbox:
        server = sandbox.start_server()
        try:
            started = time.monotonic()
            record = play_game(game, game.initial_state(),
                               {"x": student_contestant(server),
                                "o": InProcess(RandomPlayer(game, 1))},
                               Clock(move_seconds=seconds))
            return record, time.monotonic() - started
        finally:
            server.close()


def test_a_player_computing_within_its_cpu_clock_is_charged_that_cpu_time(
        tmp_path: Path) -> None:
    record, _ = isolation_game(tmp_path, COMPUTER)
    assert not record.outcome.reason.is_forfeit, record.outcome
    assert record.wall_clocked == ()
    mine = [ply.seconds for ply in record.plies if ply.player == "x"]
    assert all(WORK <= seconds < WORK + 0.3 for seconds in mine[:2]), mine
    assert all(seconds < 0.3 for seconds in mine[2:]), mine


def test_a_player_computing_past_its_cpu_clock_loses_on_cpu_time(tmp_path: Path) -> None:
    record, _ = isolation_game(tmp_path, LOOPER, 0.5)
    outcome = record.outcome
    assert (outcome.reason, outcome.forfeiter) == (Reason.TIMEOUT, "x")
    assert "of CPU time over its 0.5 s per move" in outcome.detail, outcome.detail
    over = float(outcome.detail.split("(")[1].split(" s ")[0])
    # cut soon after the CPU time was used up, not at the backstop (printed to the ms: a stop
    # under half a millisecond late reads 0.000)
    assert 0 <= over < 0.5


def test_a_sleeping_player_loses_on_time_after_its_wall_backstop(tmp_path: Path) -> None:
    record, seconds = isolation_game(tmp_path, SLEEPER, 1.0)
    outcome = record.outcome
    assert (outcome.reason, outcome.forfeiter) == (Reason.TIMEOUT, "x")
    assert f"no reply within {wall_backstop(1.0):.3f} s of wall time" in outcome.detail
    assert seconds >= wall_backstop(1.0)
    assert record.wall_clocked == ()


def test_a_sleeping_program_loses_on_time_after_its_wall_backstop(tmp_path: Path) -> None:
    agent = tmp_path / "agent.py"
    agent.write_text(SLEEPING_AGENT)
    settings = Settings(size=6)
    with Sandbox("agent", {"agent.py": agent,
                           "othello_shared.py": TEMPLATE_DIR / "othello_shared.py"}) as sandbox:
        with sandbox.start_program() as program:
            started = time.monotonic()
            record = othello_game(program_seat(program, settings), InProcess(Randy(1)),
                                  settings, Clock(move_seconds=1.0))
            seconds = time.monotonic() - started
    outcome = record.outcome
    assert (outcome.reason, outcome.forfeiter) == (Reason.TIMEOUT, 1), outcome
    assert f"within {wall_backstop(1.0):.3f} s of wall time" in outcome.detail
    assert seconds >= wall_backstop(1.0)
