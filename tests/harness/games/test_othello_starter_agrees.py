"""The students' starter manager (``othello_game.py``) and the trusted referee agree move for move.

The starter is what students run at home; grading and tournaments use the trusted referee
(``assignments.othello.referee`` on the one match loop). Both are driven here by the same scripted
players over the line protocol - seeded random moves, sometimes a bad reply at a chosen ply -
and must give the same moves, the same winner, the same forfeiter and the same kind of end.
"""
from __future__ import annotations

import ast
import importlib.util
import random
from dataclasses import dataclass, field
from types import ModuleType
from typing import Optional

import pytest

from assignments.othello.manager import TEMPLATE_DIR, load_manager
from assignments.othello.referee import Settings, program_seat, referee_game
from harness.games import Clock

pytestmark = pytest.mark.slow

STARTER_REASONS = {"no-moves": "no_moves", "timeout": "timeout", "eof": "crash",
                   "malformed": "malformed", "out-of-range": "illegal", "occupied": "illegal",
                   "no-capture": "illegal"}
BAD_REPLIES = ("0 0", "9 9", "x y", "1 2 3", None)


def template_rules() -> ModuleType:
    spec = importlib.util.spec_from_file_location("starter_othello_shared",
                                                  TEMPLATE_DIR / "othello_shared.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@dataclass
class Script:
    """A scripted player: seeded random legal moves, and ``bad`` (a line, or None for end of
    output) as its reply number ``bad_at``."""

    seed: int
    bad_at: Optional[int] = None
    bad: Optional[str] = None
    rules: ModuleType = field(default_factory=template_rules)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.replies = 0

    def reply(self, board: tuple[tuple[int, ...], ...], color: int) -> Optional[str]:
        self.replies += 1
        if self.replies == self.bad_at:
            return self.bad
        col, row = self.rng.choice(self.rules.get_possible_moves(board, color))
        return f"{col} {row}"


@dataclass
class ScriptedProgram:
    """The line protocol of an agent program, in process, for the trusted referee."""

    script: Script
    color: int = 0
    board: Optional[tuple[tuple[int, ...], ...]] = None
    named: bool = False

    def send_line(self, text: str) -> bool:
        if not self.color:
            self.color = int(text.split(",")[0])
        elif text.startswith("("):
            self.board = ast.literal_eval(text)
        return True

    def read_line(self, timeout: float) -> Optional[str]:
        if not self.named:
            self.named = True
            return "scripted"
        assert self.board is not None
        return self.script.reply(self.board, self.color)

    def stderr_tail(self) -> str:
        return ""


def starter_player(manager: ModuleType, script: Script) -> object:
    """The same script as the starter's in-process player (it formats our line back)."""
    def choose(board: tuple[tuple[int, ...], ...], color: int) -> Optional[tuple[str, str]]:
        line = script.reply(board, color)
        if line is None:
            return None
        return tuple(line.split(" ", 1)) if " " in line else (line, "")  # type: ignore[return-value]
    return manager.InProcessPlayer("scripted", choose)


def games() -> list[tuple[int, int, Optional[int], int, Optional[str]]]:
    rng = random.Random(2024)
    cases = []
    for index in range(60):
        size = (4, 6, 8)[index % 3]
        bad_color = rng.choice((None, 1, 2)) if index % 2 else None
        cases.append((index, size, bad_color, rng.randint(1, 8), rng.choice(BAD_REPLIES)))
    return cases


@pytest.mark.parametrize("seed, size, bad_color, bad_at, bad", games())
def test_the_starter_and_the_trusted_referee_agree(seed: int, size: int,
                                                   bad_color: Optional[int], bad_at: int,
                                                   bad: Optional[str]) -> None:
    manager = load_manager()

    def scripts() -> dict[int, Script]:
        return {color: Script(seed * 2 + color, bad_at if color == bad_color else None,
                              bad if color == bad_color else None) for color in (1, 2)}

    theirs = scripts()
    starter = manager.play_game(starter_player(manager, theirs[1]),
                                starter_player(manager, theirs[2]),
                                manager.GameConfig(size=size), rules=template_rules())
    ours = scripts()
    settings = Settings(size=size)
    record = referee_game(program_seat(ScriptedProgram(ours[1]), settings),
                          program_seat(ScriptedProgram(ours[2]), settings), settings,
                          Clock(move_seconds=10))
    assert [tuple(m) for m in starter.moves] == [p.move for p in record.plies]
    assert starter.winner == record.outcome.winner
    assert starter.forfeiter == record.outcome.forfeiter
    assert STARTER_REASONS[starter.reason.value] == record.outcome.reason.value
