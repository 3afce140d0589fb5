"""Fair clocks: an entrant that ponders during its opponent's turn is frozen, so it takes no CPU
from the opponent's clock.

The attacker burns CPU in threads and in a forked helper that leaves its process group. The
opponent is a trusted observer in this process: on each of its turns it checks, through /proc,
that every process of the attacker is stopped and that their CPU time does not move while it
thinks. CPU time of a stopped process cannot grow, so nothing here depends on machine load.

Two escapes are tried as well: helpers that trace each other (a traced process reports SIGSTOP
to its tracer, which lets it run on), and, without a pid namespace, an orphan that re-executes
itself with an empty environment, shedding the sandbox's tag.
"""
from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

import pytest

from assignments.isolation.referee import referee_game, student_contestant
from assignments.isolation.rules import Isolation
from assignments.othello.referee import Settings, program_seat
from assignments.othello.referee import referee_game as othello_game
from assignments.othello.rules import Othello
from harness import Sandbox
from harness.games import Clock, InProcess, Program, Served
from harness.sandbox.forkserver import ForkedProgram
from harness.sandbox.levels import FORCE_ENV, detect

pytestmark = pytest.mark.slow
TEMPLATE_DIR = Path(__file__).resolve().parents[3] / "assignments" / "othello" / "template"

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


# Two helpers, each tracing the other: SIGSTOP to either is reported to its tracer, which lets
# it run on. Each takes its stops in its main thread, asleep in the kernel, so the tracing thread
# of the other (which needs the GIL) is never held up by a stopped GIL holder.
TRACERS = '''
import ctypes, os, threading, time

_libc = ctypes.CDLL(None, use_errno=True)
_libc.ptrace.restype = ctypes.c_long
_libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]

def _burn():
    while True:
        pass

def _guard(other):
    while _libc.ptrace(0x4206, other, None, None) != 0:  # PTRACE_SEIZE
        time.sleep(0.01)
    while True:
        pid, status = os.waitpid(other, 0x40000000)  # __WALL
        if not os.WIFSTOPPED(status):
            return
        sig = os.WSTOPSIG(status)
        sig = 0 if sig in (19, 20, 21, 22) else sig  # swallow every stop
        _libc.ptrace(7, other, None, ctypes.c_void_p(sig))  # PTRACE_CONT

def _helper(other):
    threading.Thread(target=_guard, args=(other,), daemon=True).start()
    threading.Thread(target=_burn, daemon=True).start()
    while True:
        time.sleep(1000)

try:
    if os.fork() == 0:
        first = os.getpid()
        second = os.fork()
        _helper(first if second == 0 else second)
except OSError:
    pass
'''

# At import, a double-forked orphan re-executes Python with an empty environment and computes.
SHEDDER = '''
import os, sys
try:
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execve(sys.executable, [sys.executable, "-I", "-S", "-c", "while True: pass"], {})
        os._exit(0)
except OSError:
    pass
'''


def cpu_ticks(pid: int) -> Optional[tuple[str, int]]:
    """(state, user + system clock ticks) of a process, None when it is gone. The state is the
    leader's, except "X" for a zombie none of whose threads is left: a leader that has exited
    shows Z while its other threads may still run (or be stopped)."""
    def fields_of(path: str) -> list[str]:
        with open(path, encoding="ascii", errors="replace") as handle:
            return handle.read().rsplit(")", 1)[1].split()

    try:
        fields = fields_of(f"/proc/{pid}/stat")
        states = set()
        for task in os.listdir(f"/proc/{pid}/task"):
            try:
                states.add(fields_of(f"/proc/{pid}/task/{task}/stat")[0])
            except OSError:
                continue
    except OSError:
        return None
    state = "X" if fields[0] == "Z" and states <= {"Z", "X"} else fields[0]
    return state, int(fields[11]) + int(fields[12])


@dataclass
class Observer:
    """Plays random legal moves; on each turn records the attacker's processes and CPU."""

    game: Any
    attacker: Any
    turns: list[dict[str, Any]] = field(default_factory=list)
    uid: Optional[int] = None  # watch every process of this user, not only the freezer's

    def choose_move(self, state: Any, time_left: float) -> Optional[Any]:
        pids = self.attacker.freezer.members() if self.uid is None else processes_of(self.uid)
        before = {pid: cpu_ticks(pid) for pid in pids}
        time.sleep(0.2)  # "thinking": a running ponderer would take CPU now
        after = {pid: cpu_ticks(pid) for pid in pids}
        self.turns.append({"pids": pids, "before": before, "after": after})
        moves = self.game.actions(state)
        return random.Random(len(self.turns)).choice(moves) if moves else None


def processes_of(uid: int) -> list[int]:
    """Every live process of ``uid`` (a leased sandbox user runs only this sandbox's)."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            if entry.isdigit() and os.stat(f"/proc/{entry}").st_uid == uid:
                found.append(int(entry))
        except OSError:
            continue
    return found


def check_frozen_then_running(observer: Observer) -> None:
    """Every observed turn saw all the attacker's processes stopped, their CPU time unchanged."""
    assert observer.turns
    for turn in observer.turns:
        assert len(turn["pids"]) >= 2  # the entrant and its forked ponderer
        for pid in turn["pids"]:
            state_before, ticks_before = turn["before"][pid] or ("X", 0)
            state_after, ticks_after = turn["after"][pid] or ("X", 0)
            assert state_before in "TtZX" and state_after in "TtZX", (pid, turn)
            # A process whose every thread has exited runs nothing, though the kernel may still
            # be charging it the last of its exit (a killed helper, one tick under load).
            if turn["after"][pid] is not None and state_after != "X":
                assert ticks_after == ticks_before, (pid, turn)


@pytest.mark.parametrize("after_a_case", [False, True], ids=["fresh", "forked from the zygote"])
def test_a_pondering_othello_program_is_frozen_during_its_opponents_turns(
        tmp_path: Path, after_a_case: bool) -> None:
    agent = tmp_path / "agent.py"
    agent.write_text(OTHELLO_PONDERER)
    settings = Settings(size=6)
    with Sandbox("agent", {"agent.py": agent,
                           "othello_shared.py": TEMPLATE_DIR / "othello_shared.py"}) as sandbox:
        if after_a_case:  # the case's zygote is running: the program is forked from it
            sandbox.run_examples(["1"], timeout=10)
        with sandbox.start_program() as program:
            assert isinstance(program.process, ForkedProgram) == (
                after_a_case and sandbox.isolation.has_pid_namespace)
            attacker = program_seat(program, settings)
            assert isinstance(attacker, Program) and attacker.freezer is not None
            # Every process of the leased user, not only those the freezer knows: the helper's
            # orphan is adopted by the zygote the program was forked from, not by the program.
            observer = Observer(Othello(6), attacker, uid=sandbox.isolation.uid
                                if sandbox.isolation.dedicated_user else None)
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


def play_served(source: str, tmp_path: Path, isolation: Any = None,
                watch_user: bool = False) -> Observer:
    """An Isolation game between the served player ``source`` (plus the ponderer's moves) and
    the observer; returns the observer once the game is over."""
    player = tmp_path / "player.py"
    player.write_text(source + PONDERER[len(BURNERS):])
    game = Isolation()
    with Sandbox("player", {"player.py": player}, isolation=isolation) as sandbox:
        server = sandbox.start_server()
        try:
            assert server.import_error == ""
            attacker = student_contestant(server)
            assert isinstance(attacker, Served) and attacker.freezer is not None
            uid = sandbox.isolation.uid if watch_user else None
            observer = Observer(game, attacker, uid=uid)
            record = referee_game(attacker, InProcess(observer), 60.0, game)
            assert observer.turns, record.outcome
        finally:
            server.close()
    return observer


def test_helpers_that_trace_each_other_do_not_run_through_the_opponents_turns(
        tmp_path: Path) -> None:
    observer = play_served(TRACERS, tmp_path)
    check_frozen_then_running(observer)
    for turn in observer.turns:  # a traced helper is killed, not left stopped by its tracer
        assert all((turn["after"][pid] or ("X", 0))[0] in "TZX" for pid in turn["pids"]), turn


def _user_level() -> Any:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(FORCE_ENV, "USER")
        try:
            found = detect.__wrapped__()
        except RuntimeError:
            return None
    return found if found.kill_by_uid else None


USER_LEVEL = _user_level()


@pytest.mark.skipif(USER_LEVEL is None, reason="needs root and the sandbox users (USER level)")
def test_an_orphan_that_sheds_its_tag_is_frozen_without_a_pid_namespace(tmp_path: Path) -> None:
    observer = play_served(SHEDDER, tmp_path, USER_LEVEL, watch_user=True)
    check_frozen_then_running(observer)


def test_the_untagged_child_of_a_tagged_process_outside_every_tree_is_a_member(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At USER level a tagged process whose parent is exiting is in no tree and not yet an
    orphan; the child it made with an empty environment has no tag. Both are the entrant's
    (seen once under load: that child ran through the opponent's turn)."""
    import harness.games.freeze as freeze

    table = [freeze._Proc(10, 1, "S", 500), freeze._Proc(20, 15, "S", 500),  # 15 is exiting
             freeze._Proc(21, 20, "R", 500), freeze._Proc(30, 1, "S", 501)]
    children = {10: [], 20: [21], 21: [], 30: []}
    monkeypatch.setattr(freeze, "_table", lambda: table)
    monkeypatch.setattr(freeze, "adopted_orphans", lambda uid: [])
    monkeypatch.setattr(freeze, "has_sandbox_tag", lambda pid, tag: pid == "20")
    monkeypatch.setattr(freeze, "_descendants",
                        lambda root: [root] + [c for c in children.get(root, [])])
    members = freeze.Freezer(10, uid=500, tag="t").members()
    assert members == [10, 20, 21]
