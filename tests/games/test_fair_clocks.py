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
from harness.games import InProcess, Served
from reference.games.isolation import Isolation, IsolationState, Move
from reference.isolation.referee import referee_game, student_contestant

PONDERER = '''
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

    game: Isolation
    attacker: Any
    turns: list[dict[str, Any]] = field(default_factory=list)

    def choose_move(self, state: IsolationState, time_left: float) -> Optional[Move]:
        pids = self.attacker.freezer.members()
        before = {pid: cpu_ticks(pid) for pid in pids}
        time.sleep(0.2)  # "thinking": a running ponderer would take CPU now
        after = {pid: cpu_ticks(pid) for pid in pids}
        self.turns.append({"pids": pids, "before": before, "after": after})
        moves = self.game.actions(state)
        return random.Random(len(self.turns)).choice(moves) if moves else None


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
            for turn in observer.turns:
                assert len(turn["pids"]) >= 2  # the worker and its forked ponderer
                for pid in turn["pids"]:
                    state_before, ticks_before = turn["before"][pid] or ("X", 0)
                    state_after, ticks_after = turn["after"][pid] or ("X", 0)
                    assert state_before in "TtZX" and state_after in "TtZX", (pid, turn)
                    if turn["after"][pid] is not None:
                        assert ticks_after == ticks_before, (pid, turn)
            # After the game the attacker runs again: it really does ponder.
            pids = attacker.freezer.members()
            start = sum((cpu_ticks(p) or ("", 0))[1] for p in pids)
            deadline = time.monotonic() + 60
            while sum((cpu_ticks(p) or ("", 0))[1] for p in pids) == start:
                assert time.monotonic() < deadline, "the ponderer never ran"
                time.sleep(0.05)
        finally:
            server.close()
