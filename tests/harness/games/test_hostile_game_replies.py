"""Hostile game replies: whatever an entrant sends, its game ends with a winner and a reason.

Each attack is played through the one match loop, first against test doubles (the exact reply
reaches the referee), then through a real sandboxed submission where the attack is a student's
``choose_move``. An elimination bracket never sends on an entrant whose games could not finish.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

import pytest

from harness.games import Clock, InProcess, Program, play_game
from harness.games.arenas import HouseArena
from harness.records.games import Entrant, GameResult, GameTask, Reason, aborted
from harness.sandbox.programs import LineTooLong
from harness.tournament.engine import run_elimination
from harness.tournament.executors import LocalExecutor
from reference.games.isolation import Isolation
from reference.games.othello import Othello
from reference.isolation.house_players import RandomPlayer
from reference.isolation.kit import IsolationKit
from reference.isolation.referee import referee_game, student_contestant
from reference.othello.referee import OthelloCodec, Randy, Settings

pytestmark = pytest.mark.slow

GAME = Isolation()


def deep_list(depth: int) -> Any:
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


@dataclass
class Result:
    """What the harness's CallServer returns (the fields a seat reads)."""

    ok: bool
    value: Any = None
    error: str = ""
    timed_out: bool = False


@dataclass
class Server:
    """A CallServer double answering every call with ``value``, or raising ``error``."""

    value: Any = None
    error: Optional[BaseException] = None

    def call(self, function: str, args: list[Any], timeout: float) -> Result:
        if self.error is not None:
            raise self.error
        return Result(True, self.value)


@pytest.mark.parametrize("server, reason, words", [
    (Server(deep_list(20_000)), Reason.MALFORMED, "expected (row, col) or (None, None)"),
    (Server([10 ** 5000, 1]), Reason.MALFORMED, "expected (row, col) or (None, None)"),
    (Server([3] * 1_000_000), Reason.MALFORMED, "length 2"),
    (Server({"row": 1, "col": 2}), Reason.MALFORMED, "got `object`"),
    (Server([1.0, 2.0]), Reason.MALFORMED, "got `float`"),
    (Server(error=RecursionError("maximum recursion depth")), Reason.MALFORMED,
     "could not be read (RecursionError)"),
    (Server(error=MemoryError()), Reason.MALFORMED, "could not be read (MemoryError)"),
])
def test_a_hostile_served_reply_is_a_forfeit_with_its_reason(server: Server, reason: Reason,
                                                             words: str) -> None:
    record = referee_game(student_contestant(server), InProcess(RandomPlayer(GAME)), 5.0)
    assert record.outcome.winner == "o" and record.outcome.forfeiter == "x"
    assert record.outcome.reason is reason
    assert words in record.outcome.detail
    assert len(record.outcome.detail) < 400


@dataclass
class LineProgram:
    """A StudentProgram double: a name line, then ``reply`` (a line, or an exception)."""

    reply: Any
    sent: list[str]

    def send_line(self, text: str) -> bool:
        self.sent.append(text)
        return True

    def read_line(self, timeout: float) -> Optional[str]:
        if not any(line.startswith("SCORE") for line in self.sent):
            return "hostile"
        if isinstance(self.reply, BaseException):
            raise self.reply
        return str(self.reply)

    def stderr_tail(self) -> str:
        return ""


@pytest.mark.parametrize("reply, reason, words", [
    ("\x00\x01\ufffd\ufffd garbage", Reason.MALFORMED, "not two integers"),
    ("9" * 70_000, Reason.MALFORMED, "not two integers"),
    (LineTooLong("a line longer than 65536 bytes arrived"), Reason.MALFORMED,
     "longer than 65536 bytes"),
    ("-1 2", Reason.ILLEGAL, "(-1, 2) is not a legal move"),
    ("2 2", Reason.ILLEGAL, "(2, 2) is not a legal move"),
    (None, Reason.CRASH, "closed its output"),
    (TimeoutError(), Reason.TIMEOUT, "no reply within"),
])
def test_a_hostile_line_reply_is_a_forfeit_with_its_reason(reply: Any, reason: Reason,
                                                          words: str) -> None:
    program = LineProgram(None if reply is None else reply, [])
    if reply is None:
        program.read_line = lambda timeout: (  # type: ignore[method-assign]
            "hostile" if not any(s.startswith("SCORE") for s in program.sent) else None)
    game = Othello(4)
    settings = Settings(size=4)
    record = play_game(game, game.initial_state(), {1: Program(program, OthelloCodec(settings)),
                                            2: InProcess(Randy(1))}, Clock(move_seconds=5))
    assert (record.outcome.winner, record.outcome.forfeiter) == (2, 1)
    assert record.outcome.reason is reason
    assert words in record.outcome.detail
    assert program.sent[-1].startswith("FINAL ")  # both sides are told the end


@pytest.mark.parametrize("reply, shown", [
    ("thinking about (2, 3)", "'thinking about (2, 3)'"),
    ("caf\xe9\x1b[31m 1", "'caf\\xe9\\x1b[31m 1'"),
    ("x" * 5000, "'" + "x" * 40 + "'..."),
    (LineTooLong("a line longer than 65536 bytes arrived"), "longer than 65536 bytes"),
])
def test_a_reply_that_is_not_a_move_says_stdout_is_the_protocol(reply: Any, shown: str) -> None:
    # a stray debug print is read as the move: the detail quotes it (escaped, bounded) and says
    # where debug output belongs
    program = LineProgram(reply, [])
    game = Othello(4)
    record = play_game(game, game.initial_state(),
                       {1: Program(program, OthelloCodec(Settings(size=4))),
                        2: InProcess(Randy(1))}, Clock(move_seconds=5))
    detail = record.outcome.detail
    assert record.outcome.reason is Reason.MALFORMED
    assert shown in detail
    assert "stdout is the game's protocol" in detail
    assert "print(..., file=sys.stderr)" in detail
    assert len(detail) < 400


ATTACKS = {
    "deep": "    value = []\n    for _ in range(20000):\n        value = [value]\n"
            "    return value\n",
    "huge": "    return (10 ** 4000, 1)\n",
    "long": "    return list(range(200000))\n",
    "garbage": "    import os\n    for fd in range(1, 40):\n        try:\n"
               "            os.write(fd, b'\\xff\\x00{' * 1000 + b'\\n')\n"
               "        except OSError:\n            pass\n    return (1, 2)\n",
}


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_a_sandboxed_hostile_player_forfeits_and_the_bracket_does_not_send_it_on(
        tmp_path: Path, attack: str) -> None:
    hostile = tmp_path / "hostile.py"
    hostile.write_text("def choose_move(board, player, time_left):\n" + ATTACKS[attack])
    entrants = [Entrant("hostile", str(hostile)), Entrant("random", "house:random")]
    result = run_elimination(HouseArena(IsolationKit(5.0)), entrants, 3,
                             LocalExecutor(1), seeding=entrants)
    games = [g for g in result.results if "hostile" in (g.first, g.second)]
    assert games and all(not g.is_aborted for g in games)
    for game in games:
        if game.forfeiter is not None:
            assert game.forfeiter_name == "hostile"
            assert game.reason in (Reason.MALFORMED, Reason.CRASH)
    assert result.standings[0].name == "random"
    assert {s.name: s.round_reached for s in result.standings} == {"random": 2, "hostile": 1}


@dataclass(frozen=True)
class BreakingArena:
    """Every game with ``breaker`` in it aborts (as when it crashes the game's worker)."""

    game_timeout: float = 30.0

    def play(self, task: GameTask) -> GameResult:
        if "breaker" in (task.first.name, task.second.name):
            return aborted(task, "game worker died")
        return HouseArena(IsolationKit(5.0), open_sandbox=None).play(task)


def test_an_entrant_whose_games_always_abort_never_advances() -> None:
    field = [Entrant("breaker", "house:random"), Entrant("a", "house:greedy"),
             Entrant("b", "house:random"), Entrant("c", "house:depth1")]
    result = run_elimination(BreakingArena(), field, 5, LocalExecutor(1), seeding=field)
    reached = {s.name: s.round_reached for s in result.standings}
    # breaker was the top seed: its match with c is void, so b/a's winner gets a bye in the
    # final and nobody who lost nothing but aborted games goes on
    assert reached["breaker"] == 1 and reached["c"] == 1
    champion = [s for s in result.standings if s.round_reached == 3]
    assert len(champion) == 1 and champion[0].name in ("a", "b")
    aborted_games = [g for g in result.results if g.is_aborted]
    assert len(aborted_games) == 6  # two games, each played twice, and the decider twice


def _isolation_case(timeout: float = 60.0) -> Any:
    import dataclasses

    from harness.spec import find_assignment, load_case_file

    assignment = find_assignment("isolation")
    games = [path for path in assignment.case_files if path.name == "02_games.yaml"][0]
    case = load_case_file(games, assignment, 2)[0]
    return dataclasses.replace(case, timeout=timeout,
                               options={**case.options, "games": 2, "clock": 1.0})


@pytest.mark.parametrize("body, verdict, words", [
    ("    while True:\n        pass\n", "timed out", "forfeit (timeout) at ply"),
    ("    return 1 // 0\n", "crashed", "ZeroDivisionError: integer division or modulo by zero "
     "(at player.py, line 2, in choose_move: return 1 // 0)"),
    ("    return [[1, 2]]\n", "protocol violation", "expected (row, col) or (None, None)"),
    ("    return (1, 1)\n", "illegal move", "your move: (1, 1)"),
])
@pytest.mark.parametrize("forked", [False, True], ids=["fresh", "forked from the zygote"])
def test_a_game_lost_by_forfeit_gets_its_own_verdict_not_wrong_answer(
        tmp_path: Path, body: str, verdict: str, words: str, forked: bool) -> None:
    from harness import Sandbox
    from harness.grading.grader import Grader
    from harness.records.verdicts import Verdict
    from reference.isolation.runners import versus_house

    player = tmp_path / "player.py"
    player.write_text("def choose_move(board, player, time_left):\n" + body)
    case = _isolation_case()
    with Sandbox("player", {"player.py": player}) as sandbox:
        if forked:  # as in a grading: a case has started the zygote the servers are forked from
            sandbox.run_examples(["1"], timeout=10)
        judgement = versus_house(case, sandbox)
    assert judgement.fraction == 0.0
    assert judgement.failure is Verdict(verdict)  # the enum itself, not its text
    assert words in judgement.message
    result = Grader._from_judgement(case, judgement, Verdict.WRONG_ANSWER)
    assert result.verdict is Verdict(verdict)
    assert result.feedback().startswith(verdict.capitalize())
