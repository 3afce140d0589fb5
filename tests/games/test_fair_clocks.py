"""Fair clocks: an entrant that ponders during its opponent's turn is frozen, so it takes no CPU
from the opponent's clock.

The attacker burns CPU in threads and in a forked helper that leaves its process group. The
opponent is a trusted observer in this process: on each of its turns it checks, through /proc,
that every process of the attacker is stopped and that their CPU time does not move while it
thinks. CPU time of a stopped process cannot grow, so nothing here depends on machine load.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from harness import Sandbox
from harness.games import Clock, InProcess, Program, Served
from reference.games.isolation import Isolation
from reference.games.othello import Othello
from reference.isolation.referee import referee_game, student_contestant
from reference.othello.arena import TEMPLATE_DIR
from reference.othello.referee import Settings, program_seat
from reference.othello.referee import referee_game as othello_game

BURNERS = '''
import os, threading

def _burn():
    while True:
        pass

for _ in range(2):
    threading.Thread(target=_burn, daemon=True).start()
try:
    if os.fork() == 0:
        os.setsid()  # leaves the process group, as a real attacker would
        if os.fork() == 0:
            _burn()
        os._exit(0)
except OSError:
    pass
'''

PONDERER = BURNERS + '''
STEPS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]

def choose_move(board, player, time_left):
    size = len(board)
    for r in range(size):
        for c in range(size):
            if board[r][c] == player:
                for dr, dc in STEPS:
                    rr, cc = r + dr, c + dc
                    if 0 <= rr < size and 0 <= cc < size and board[rr][cc] == '-':
                        return (rr + 1, cc + 1)
    return (None, None)
'''

OTHELLO_PONDERER = BURNERS + '''
import ast, sys
from othello_shared import get_possible_moves

print("ponderer", flush=True)
color = int(sys.stdin.readline().split(",")[0])
for line in sys.stdin:
    if line.startswith("("):
        board = ast.literal_eval(line)
        col, row = get_possible_moves(board, color)[0]
        print(col, row, flush=True)
    elif line.startswith("FINAL"):
        break
'''


def cpu_ticks(pid: int) -> Optional[tuple[str, int]]:
    """(state, user + system clock ticks) of a process, None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return fields[0], int(fields[11]) + int(fields[12])


@dataclass
class Observer:
    """Plays random legal moves; on each turn records the attacker's processes and CPU."""

    game: Any
    attacker: Any
    turns: list[dict[str, Any]] = field(default_factory=list)

    def choose_move(self, state: Any, time_left: float) -> Optional[Any]:
        pids = self.attacker.freezer.members()
        before = {pid: cpu_ticks(pid) for pid in pids}
        time.sleep(0.2)  # "thinking": a running ponderer would take CPU now
        after = {pid: cpu_ticks(pid) for pid in pids}
        self.turns.append({"pids": pids, "before": before, "after": after})
        moves = self.game.actions(state)
        return random.Random(len(self.turns)).choice(moves) if moves else None


def check_frozen_then_running(observer: Observer) -> None:
    """Every observed turn saw all the attacker's processes stopped, their CPU time unchanged."""
    assert observer.turns
    for turn in observer.turns:
        assert len(turn["pids"]) >= 2  # the entrant and its forked ponderer
        for pid in turn["pids"]:
            state_before, ticks_before = turn["before"][pid] or ("X", 0)
            state_after, ticks_after = turn["after"][pid] or ("X", 0)
            assert state_before in "TtZX" and state_after in "TtZX", (pid, turn)
            if turn["after"][pid] is not None:
                assert ticks_after == ticks_before, (pid, turn)


def test_a_pondering_othello_program_is_frozen_during_its_opponents_turns(tmp_path: Path) -> None:
    agent = tmp_path / "agent.py"
    agent.write_text(OTHELLO_PONDERER)
    settings = Settings(size=6)
    with Sandbox("agent", {"agent.py": agent,
                           "othello_shared.py": TEMPLATE_DIR / "othello_shared.py"}) as sandbox:
        with sandbox.start_program() as program:
            attacker = program_seat(program, settings)
            assert isinstance(attacker, Program) and attacker.freezer is not None
            observer = Observer(Othello(6), attacker)
            record = othello_game(attacker, InProcess(observer), settings,
                                  Clock(move_seconds=30))
            assert not record.outcome.reason.is_forfeit, record.outcome
            check_frozen_then_running(observer)


def test_a_pondering_entrant_is_frozen_during_its_opponents_turns(tmp_path: Path) -> None:
    player = tmp_path / "player.py"
    player.write_text(PONDERER)
    game = Isolation()
    with Sandbox("player", {"player.py": player}) as sandbox:
        server = sandbox.start_server()
        try:
            assert server.import_error == ""
            attacker = student_contestant(server)
            assert isinstance(attacker, Served) and attacker.freezer is not None
            observer = Observer(game, attacker)
            record = referee_game(attacker, InProcess(observer), 60.0, game)
            assert observer.turns, record.outcome
            check_frozen_then_running(observer)
            # After the game the attacker runs again: it really does ponder.
            pids = attacker.freezer.members()
            start = sum((cpu_ticks(p) or ("", 0))[1] for p in pids)
            deadline = time.monotonic() + 60
            while sum((cpu_ticks(p) or ("", 0))[1] for p in pids) == start:
                assert time.monotonic() < deadline, "the ponderer never ran"
                time.sleep(0.05)
        finally:
            server.close()
