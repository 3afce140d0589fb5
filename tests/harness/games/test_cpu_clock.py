"""Game clocks charge CPU time (``harness.games.cpu_clock``), read on the trusted side: unit
tests with a fake process-time reader and fake processes, so that nothing here depends on the
machine's load. The wall clock is a ticking fake that says every reply took far too long: only
where the CPU time cannot be read may it decide."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, Callable, Optional

import pytest

from harness.games.cpu_clock import CpuMeter, CpuSample, process_times, wall_backstop
from harness.games.match import Clock, GameRecord, play_game
from harness.games.seats import InProcess, Served
from harness.games.versus import HouseGame, counted_time
from harness.records.games import GameEnd, Reason
from reference.games.isolation import Isolation, parse_board
from reference.isolation.house_players import RandomPlayer
from reference.isolation.referee import WIRE_TYPE, encode_request, read_reply

GAME = Isolation()
ROOT, HELPER = 100, 101


class WallClock:
    """A wall clock that advances ``step`` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@dataclass
class Kernel:
    """Fake per-process CPU counts: pid -> [own, reaped]; ``None`` for no /proc at all; and
    run-queue waits, pid -> seconds (none: unreadable, as without schedstats)."""

    times: Optional[dict[int, list[float]]] = field(
        default_factory=lambda: {ROOT: [0.5, 0.0], HELPER: [0.1, 0.0]})
    queued: dict[int, float] = field(default_factory=dict)

    def queue(self, pid: int) -> Optional[float]:
        return self.queued.get(pid)

    def read(self, pid: int) -> Optional[tuple[float, float]]:
        if self.times is None or pid not in self.times:
            return None
        own, reaped = self.times[pid]
        return own, reaped

    def pids(self) -> list[int]:
        return sorted(self.times or ())


@dataclass
class FakeFreezer:
    kernel: Kernel
    pauses: int = 0

    def pause(self) -> None:
        self.pauses += 1

    def resume(self) -> None:
        pass

    def members(self) -> list[int]:
        return self.kernel.pids()

    def frozen_members(self) -> list[int]:
        return self.kernel.pids()

    def running_members(self, known: list[int]) -> list[int]:
        return self.kernel.pids()


@dataclass
class ComputingServer:
    """A call server double whose process uses ``cpu`` seconds of CPU time per call (in the
    fake kernel) and answers its first legal move; it records the ``expired`` checks."""

    kernel: Kernel
    cpu: Callable[[int], float]
    calls: list[tuple[list[Any], float]] = field(default_factory=list)
    held: Callable[[int], float] = lambda call: 0.0
    """Run-queue seconds the process is held back from a CPU per call."""

    def call(self, function: str, args: list[Any], timeout: float, *,
             expired: Optional[Callable[[], bool]] = None) -> Any:
        self.calls.append((args, timeout))
        if self.kernel.times is not None:
            self.kernel.times[ROOT][0] += self.cpu(len(self.calls))
        if ROOT in self.kernel.queued:
            self.kernel.queued[ROOT] += self.held(len(self.calls))
        if expired is not None and expired():
            return SimpleNamespace(ok=False, timed_out=True, value=None, error="")
        board, player, _ = args
        return SimpleNamespace(ok=True, timed_out=False, value=_first_move(board, player),
                               error="")


def _first_move(board: list[list[str]], player: str) -> tuple[Any, Any]:
    moves = GAME.actions(parse_board(board, player))
    return moves[0] if moves else (None, None)


def student(kernel: Kernel, cpu: Callable[[int], float],
            held: Callable[[int], float] = lambda call: 0.0
            ) -> tuple[Served[Any, Any], ComputingServer]:
    server = ComputingServer(kernel, cpu, held=held)
    seat: Served[Any, Any] = Served(server, "choose_move",
                                    lambda state, left: encode_request(state, left, 8),
                                    WIRE_TYPE, read_reply, freezer=FakeFreezer(kernel),  # type: ignore[arg-type]
                                    meter=CpuMeter(kernel.pids, kernel.read, kernel.queue))
    return seat, server


def play(seat: Served[Any, Any], clock: Clock, wall_step: float) -> GameRecord[Any]:
    return play_game(GAME, GAME.initial_state(),
                     {"x": seat, "o": InProcess(RandomPlayer(GAME, 1))}, clock,
                     timer=WallClock(wall_step))


def test_the_charge_is_the_growth_of_own_and_reaped_time() -> None:
    before = CpuSample({ROOT: 1.0, HELPER: 0.5}, {ROOT: 0.0, HELPER: 0.0})
    # the helper ended during the move, reaped by the root: its 0.5 + 0.25 s are in the root's
    # reaped time, of which the 0.5 s before the move were charged already
    after = CpuSample({ROOT: 1.25}, {ROOT: 0.75})
    assert after.since(before) == pytest.approx(0.25 + 0.25)
    assert CpuSample({ROOT: 1.0}).since(CpuSample({ROOT: 1.0})) == 0.0


def test_a_helper_that_vanishes_hands_back_no_time() -> None:
    before = CpuSample({ROOT: 1.0, HELPER: 5.0})
    after = CpuSample({ROOT: 2.0, 102: 0.5})  # the helper was reaped by no process of it
    assert after.since(before) == pytest.approx(1.0 + 0.5)  # not 1.5 - 5.0


def test_the_meter_reads_the_pids_it_can_and_none_without_any() -> None:
    kernel = Kernel()
    meter = CpuMeter(lambda: [ROOT, HELPER, 999], kernel.read)
    sample = meter.sample()
    assert sample is not None and set(sample.own) == {ROOT, HELPER}
    assert sample.total == pytest.approx(0.6)
    assert meter.sample([HELPER]) == CpuSample({HELPER: 0.1}, {HELPER: 0.0})
    assert CpuMeter(lambda: [ROOT], Kernel(None).read).sample() is None


def test_the_kernel_reader_counts_this_process() -> None:
    import os

    before = process_times(os.getpid())
    started = time.process_time()
    while time.process_time() - started < 0.05:
        pass
    after = process_times(os.getpid())
    assert before is not None and after is not None
    assert after[0] - before[0] >= 0.04  # own CPU time moved with the process's own clock
    assert process_times(2 ** 30) is None  # no such process


def test_a_student_is_charged_its_cpu_time_not_the_wall_time() -> None:
    kernel = Kernel()
    seat, server = student(kernel, lambda call: 0.02)
    # every reply takes 0.12 s of wall time (five times its CPU time and 0.02 s: a slow
    # host), the game's replies far more than the 1 s clock
    record = play(seat, Clock(game_seconds=1.0), wall_step=0.12)
    assert record.outcome.reason is Reason.NO_MOVES, record.outcome
    mine = [ply for ply in record.plies if ply.player == "x"]
    assert len(mine) >= 6 and all(ply.seconds == pytest.approx(0.02) for ply in mine)
    assert record.waiting_of("x").wall > 1.0
    setup = 0.6 - 0.5  # the fake processes' 0.6 s before the game, 0.5 s of it free
    assert mine[-1].time_left == pytest.approx(1.0 - setup - 0.02 * len(mine))
    assert record.wall_clocked == ()
    # told the CPU time left, and given the wall backstop to answer in
    assert [args[2] for args, _ in server.calls[:2]] == pytest.approx([0.9, 0.88])
    assert server.calls[0][1] == wall_backstop(0.9)


def test_waiting_its_cpu_time_does_not_explain_loses_however_it_is_spread() -> None:
    seat, _ = student(Kernel({ROOT: [0.01, 0.0]}), lambda call: 0.001)
    # each reply 0.5 s of wall time for 1 ms of CPU time: far within its 7 s backstop per
    # move, but over the game it is the program's own waiting (a sleeper)
    record = play(seat, Clock(game_seconds=1.0), wall_step=0.5)
    assert (record.outcome.reason, record.outcome.forfeiter) == (Reason.TIMEOUT, "x")
    assert "kept the game waiting" in record.outcome.detail
    waited = record.waiting_of("x")
    assert waited.unexplained > 2.0 and waited.replies < 8
    assert record.waiting_of("o").replies > 0  # the house bot's waiting is never its fault


@pytest.mark.parametrize("cpu, held, loses", [
    (0.05, 0.45, False),  # computes all its wall time, held back from a CPU nine tenths of it
    (0.001, 0.0, True),  # a sleeper: not runnable, so never held back
    # many threads' waits summed pass the first reply's wall time: the excess explains no later
    # reply's sleep
    (0.001, 5.0, True),
])
def test_waiting_on_a_cpu_other_programs_held_is_the_hosts_however_loaded(
        cpu: float, held: float, loses: bool) -> None:
    seat, _ = student(Kernel({ROOT: [0.01, 0.0]}, {ROOT: 0.0}), lambda call: cpu,
                      lambda call: held if call == 1 or not loses else 0.0)
    # each reply 0.5 s of wall time: ten times the honest player's CPU time, a host loaded
    # beyond the five times that CPU time alone explains
    record = play(seat, Clock(game_seconds=5.0), wall_step=0.5)
    waited = record.waiting_of("x")
    lost = (record.outcome.reason, record.outcome.forfeiter) == (Reason.TIMEOUT, "x")
    assert lost == loses, record.outcome
    if loses:
        assert "held back" in record.outcome.detail and waited.replies < 8
    else:  # every reply held back but the greeting
        assert waited.replies > 8
        assert waited.queued == pytest.approx(0.45 * (waited.replies - 1))
        assert waited.unexplained < 0


@pytest.mark.parametrize("setup, forfeits", [(0.4, False), (1.2, False), (2.5, True)])
def test_work_before_the_first_move_is_charged_to_the_game_clock_beyond_half_a_second(
        setup: float, forfeits: bool) -> None:
    kernel = Kernel({ROOT: [setup, 0.0]})  # what the process used importing the submission
    seat, server = student(kernel, lambda call: 0.01)
    record = play(seat, Clock(game_seconds=1.0), wall_step=0.0)
    assert record.waiting_of("x").setup == pytest.approx(setup)
    if forfeits:  # 2.5 s at import time under a 1 s clock: lost before its first move
        assert (record.outcome.reason, record.outcome.forfeiter) == (Reason.TIMEOUT, "x")
        assert record.outcome.detail.startswith(
            "handshake: its work before its first move (starting, importing, greeting) used "
            "2.500 s of CPU time")
        assert server.calls == []
    else:
        assert server.calls[0][0][2] == pytest.approx(1.0 - max(0.0, setup - 0.5))


def test_a_student_that_uses_more_cpu_time_than_its_clock_loses_on_time() -> None:
    seat, _ = student(Kernel(), lambda call: 0.6)
    record = play(seat, Clock(game_seconds=1.0), wall_step=0.0)  # no wall time passes at all
    assert (record.outcome.reason, record.outcome.forfeiter) == (Reason.TIMEOUT, "x")
    assert "of CPU time over" in record.outcome.detail
    assert len([ply for ply in record.plies if ply.player == "x"]) == 1


def test_cpu_time_beyond_a_move_limit_loses_even_with_a_reply() -> None:
    seat, _ = student(Kernel(), lambda call: 0.2 if call < 3 else 1.5)
    record = play(seat, Clock(move_seconds=1.0), wall_step=0.0)
    assert (record.outcome.reason, record.outcome.forfeiter) == (Reason.TIMEOUT, "x")
    assert record.outcome.detail.startswith("its clock ran out (0.500 s of CPU time over")
    assert len([ply for ply in record.plies if ply.player == "x"]) == 2


def test_the_wait_stops_once_the_cpu_time_is_used_up() -> None:
    kernel = Kernel()
    seat, server = student(kernel, lambda call: 2.0)
    record = play(seat, Clock(move_seconds=1.0), wall_step=0.0)
    assert record.outcome.reason is Reason.TIMEOUT
    assert len(server.calls) == 1  # the double's expired() said so at once


def test_without_readable_cpu_time_the_wall_clock_charges_and_the_record_says_so() -> None:
    seat, _ = student(Kernel(None), lambda call: 0.0)
    record = play(seat, Clock(game_seconds=5.0), wall_step=3.0)
    assert (record.outcome.reason, record.outcome.forfeiter) == (Reason.TIMEOUT, "x")
    assert "CPU" not in record.outcome.detail
    assert record.wall_clocked == ("x",)
    game = HouseGame(0, "x", 1, record)
    assert counted_time([game]).startswith("wall time (this machine cannot read")
    charged = HouseGame(0, "o", 1, record)  # the house bot's side: CPU time
    assert counted_time([charged]) == "CPU time"


def test_a_house_bot_is_charged_its_threads_cpu_time() -> None:
    class Sleeper:
        def choose_move(self, state: Any, time_left: float) -> Any:
            time.sleep(0.01)  # wall time (and the fake wall clock's 1 s), not CPU time
            moves = GAME.actions(state)
            return moves[0] if moves else None

    record = play_game(GAME, GAME.initial_state(),
                       {"x": InProcess(Sleeper()), "o": InProcess(RandomPlayer(GAME, 2))},
                       Clock(game_seconds=0.25), timer=WallClock(1.0))
    assert record.outcome.forfeiter != "x", record.outcome
    assert record.wall_clocked == ()
    ticks = iter(range(1000))
    fake = InProcess(RandomPlayer(GAME, 3), clock=lambda: float(next(ticks)))
    seat_record = play_game(GAME, GAME.initial_state(),
                            {"x": fake, "o": InProcess(RandomPlayer(GAME, 4))},
                            Clock(game_seconds=0.5), timer=WallClock(0.0))
    assert seat_record.outcome == GameEnd("o", Reason.TIMEOUT, seat_record.outcome.detail, "x")


def test_the_backstop_is_five_times_the_cpu_time_and_two_seconds() -> None:
    assert wall_backstop(2.0) == 12.0
    assert wall_backstop(0.0) == wall_backstop(-1.0) == 2.0


@pytest.mark.parametrize("wall", [False, True], ids=["cpu time", "wall time"])
def test_othellos_clock_line_says_wall_time_only_where_it_was_charged(
        monkeypatch: pytest.MonkeyPatch, wall: bool) -> None:
    import reference.othello.runners as runners
    from harness.games.versus import Played
    from reference.games.othello import DARK, LIGHT

    record: GameRecord[Any] = GameRecord((), ((DARK, 0.0), (LIGHT, 0.0)),
                                         GameEnd(DARK, Reason.NO_MOVES),
                                         wall_clocked=(DARK,) if wall else ())
    monkeypatch.setattr(runners, "play_versus_house",
                        lambda *args, **kwargs: Played((HouseGame(0, DARK, 1, record),)))
    case = SimpleNamespace(options={"size": 4, "games": [{"color": DARK, "seed": 1}]},
                           timeout=60.0, id="c")
    summary = runners.play_randy(case, None).message.splitlines()[0]  # type: ignore[arg-type]
    assert ("10 s per move, counted in wall time (this machine cannot read" in summary) == wall
    assert "10 s per move; needed 1)" in summary or wall


def test_set_up_in_a_process_forked_from_a_zygote_leaves_out_what_the_zygote_had_used() -> None:
    """A grading's games fork each server from a zygote, frozen and read with it: the zygote's
    CPU time, and that of the earlier games' servers it reaped, is not this game's set-up (it
    was counted so once, and an honest player lost its clock by the third game)."""
    zygote, program = 1, 5
    # at the fork the zygote had used 10 s (own and reaped); by the first pause the program
    # used 0.3 s importing, and a helper it forked at import ran 0.5 s, then was orphaned and
    # reaped by the zygote
    kernel = Kernel({zygote: [8.0, 2.5], program: [0.3, 0.0]})
    server = ComputingServer(kernel, lambda call: 0.0)
    server.process = SimpleNamespace(pid=program, namespace_root=zygote,  # type: ignore[attr-defined]
                                     root_cpu=10.0)
    seat: Served[Any, Any] = Served(server, "choose_move",
                                    lambda state, left: encode_request(state, left, 8),
                                    WIRE_TYPE, read_reply, freezer=FakeFreezer(kernel),  # type: ignore[arg-type]
                                    meter=CpuMeter(kernel.pids, kernel.read))
    seat.pause()
    assert seat.setup_spent() == pytest.approx(0.8)


def test_an_import_held_back_from_a_cpu_by_other_programs_is_not_the_players_waiting(
        ) -> None:
    # 5 s of wall time importing, 4.5 s of it runnable while other programs held the CPU
    seat, server = student(Kernel({ROOT: [0.01, 0.0]}, {ROOT: 4.5}), lambda call: 0.01)
    server.import_seconds = 5.0  # type: ignore[attr-defined]
    record = play(seat, Clock(game_seconds=1.0), wall_step=0.0)
    assert record.outcome.forfeiter != "x", record.outcome
    assert record.waiting_of("x").queued == pytest.approx(3.0)  # beyond the 2 s allowance


@pytest.mark.parametrize("imported, forfeits", [(5.0, True), (3.0, False), (0.3, False)])
def test_waiting_for_an_import_is_the_players_waiting_before_its_first_move(
        imported: float, forfeits: bool) -> None:
    seat, server = student(Kernel({ROOT: [0.01, 0.0]}), lambda call: 0.01)
    server.import_seconds = imported  # type: ignore[attr-defined]  # slept at import, or not
    record = play(seat, Clock(game_seconds=1.0), wall_step=0.0)
    # the set-up's first 2 s are its own allowance (a cold start)
    assert record.waiting_of("x").wall == pytest.approx(max(0.0, imported - 2.0))
    assert (record.outcome.forfeiter == "x") == forfeits, record.outcome
    if forfeits:
        assert record.outcome.detail.startswith("handshake: it kept the game waiting 3.0 s")
