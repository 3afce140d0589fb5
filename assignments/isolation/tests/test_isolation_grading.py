"""Grading the isolation assignment: wrong players through the real sandbox, and whole runs.

The wrong players are mutants of the reference solution. Each plays one game in a real
sandboxed process through the generic runner's ``play_one``, and the test asserts the exact
outcome the referee recorded. The last test grades the template black-box through
``gamegrader grade``. The solution's whole grading (every case passed, its 44 games filling
their clocks: about 35 s) is the release check's (``gamegrader validate``, run by ``.ci/run``);
here the solution beats the random player on both sides, and tests/fairness grades it on
every choose_move case (test_accepted_forms: all 20 points).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest
from gg_testing import scores_by_group

from assignments.isolation.house_players import house_player
from assignments.isolation.kit import make_kit
from assignments.isolation.referee import referee_game, student_contestant
from assignments.isolation.rules import Isolation
from harness import Sandbox
from harness.games.seats import InProcess
from harness.games.versus import play_one
from harness.grading.feedback import output_text
from harness.records.games import Reason

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[3]
SOLUTION = ROOT / "assignments" / "isolation" / "solution" / "player.py"
TEMPLATE = ROOT / "assignments" / "isolation" / "template" / "player_account.py"
ANSWER = "    return (best // SIZE + 1, best % SIZE + 1)"
START = "    started = time.process_time()\n"


def play(path: Path, side: str = "x", clock: float = 2.0, opponent: str = "random") -> Any:
    with Sandbox("player", {"player.py": path}) as sandbox:
        return play_one(make_kit(clock), sandbox, opponent, side, seed=5)


def test_the_solution_beats_random_on_both_sides() -> None:
    for side in ("x", "o"):
        record = play(SOLUTION, side)
        assert record.outcome.reason is Reason.NO_MOVES, record.outcome
        assert record.outcome.winner == side, [p.move for p in record.plies]
        assert dict(record.clocks)[side] > 0


@pytest.mark.parametrize("edits, reason, detail", [
    ([(ANSWER, "    return (1, 1)")], Reason.ILLEGAL, "(1, 1) is not a legal move"),
    ([(ANSWER, "    return (None, None)")], Reason.ILLEGAL, "no move while"),
    ([(ANSWER, "    return '%d %d' % (best // SIZE + 1, best % SIZE + 1)")],
     Reason.MALFORMED, "expected (row, col)"),
    ([(ANSWER, "    return [best // SIZE + 1, best % SIZE + 1, 0]")],
     Reason.MALFORMED, "expected (row, col)"),
    ([(START, START + "    raise RuntimeError('boom')\n")], Reason.CRASH,
     "RuntimeError: boom"),
    ([(START, START + "    import os; os._exit(0)\n")], Reason.CRASH, ""),
    ([(START, START + "    while True: pass\n")], Reason.TIMEOUT, ""),
    # a sleep uses no CPU time: it loses once it outlasts the wall backstop of its clock
    ([(START, START + "    time.sleep(6 * time_left + 3)\n")], Reason.TIMEOUT, "wall time"),
])
def test_a_wrong_player_loses_with_the_exact_reason(
        mutate: Callable[..., Path], edits: list[tuple[str, str]], reason: Reason,
        detail: str) -> None:
    record = play(mutate(SOLUTION, edits), "x", clock=0.6)
    assert record.outcome.winner == "o"
    assert record.outcome.reason is reason
    assert detail in record.outcome.detail


def test_the_server_ends_with_its_game(mutate: Callable[..., Path]) -> None:
    """After a forfeit by a well-formed but illegal answer the referee reads the server's stderr,
    waiting for the process to end: told that no more calls come, the server ends by itself
    (rather than idling until it is closed, the referee waiting out its stderr settle time)."""
    player = mutate(SOLUTION, [(ANSWER, "    return (1, 1)")])
    with Sandbox("player", {"player.py": player}) as sandbox:
        server = sandbox.start_server()
        try:
            game = Isolation()
            record = referee_game(student_contestant(server),
                                  InProcess(house_player("random", game, 5)), 2.0, game)
            assert record.outcome.reason is Reason.ILLEGAL
            assert server.process.wait(timeout=60) == 0
        finally:
            server.close()


def test_grading_the_template_earns_nothing(grade: Callable[..., dict[str, Any]]) -> None:
    """Its constant (None, None) is right on stuck positions, but each is asked after a position
    with moves, in the same case (all or nothing)."""
    document = grade("isolation", TEMPLATE)
    groups = scores_by_group(document)
    assert groups["games"] == 0
    stuck = [t for t in document["tests"] if "stuck" in t["name"]]
    assert len(stuck) == 11 and all(t["score"] == 0 for t in stuck)
    assert "call 1 of 2 (all must be right)" in stuck[0]["output"]
    assert document["score"] == 0
    illegal = [t for t in document["tests"] if t["name"].startswith("games: beats the random")]
    assert illegal[0]["output_format"] == "md"  # the lost games drawn
    worth = illegal[0]["max_score"]
    assert output_text(illegal[0]).startswith(f"Illegal move (0/{worth:g} points)")
    assert "forfeit (illegal) at ply 1" in illegal[0]["output"]
