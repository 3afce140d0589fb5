"""Othello as a tournament arena, over the assignment's own game manager.

Staged here because ``reference/othello/`` belongs to the Othello assignment: its natural home
is ``reference/othello/arena.py`` (then ``gamegrader tournament othello ...`` finds it by
convention); until it moves, select it with
``--arena reference.tournament.othello_arena:make_arena``.

Games are played by the manager that grades Othello (``reference.othello.manager``, the
template's ``othello_game.play_game``) on the reference rules, over the real line protocol:
a submission's ``agent.py`` runs as a program in the harness sandbox with the template's
``othello_shared.py`` beside it; house bots (``house:random``, ``house:reference``) are the
manager's in-process players. Othello has a per-move limit (``--clock``, default 10 s) rather
than a chess clock, so a result's ``clocks`` stay 0.
"""
from __future__ import annotations

from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from reference.tournament.match import Termination
from reference.tournament.records import Entrant, GameResult, GameTask

HOUSE_PREFIX = "house:"
DEFAULT_MOVE_SECONDS = 10.0
_TERMINATIONS = {
    "no-moves": Termination.NO_MOVES, "timeout": Termination.TIMEOUT,
    "eof": Termination.CRASH, "malformed": Termination.MALFORMED,
    "out-of-range": Termination.ILLEGAL, "occupied": Termination.ILLEGAL,
    "no-capture": Termination.ILLEGAL,
}
"""The manager's end reasons as the tournament's terminations (the detail keeps the original)."""


@dataclass(frozen=True)
class OthelloArena:
    """Plays one Othello game per task; the task's first entrant plays dark (moves first).

    Attributes:
        size: board side (even, 4 or more).
        move_seconds: the manager's limit per reply line.
        limit, caching, ordering: the search settings sent to both players in the config line
            (``limit`` -1: no depth limit).
        reference_budget: seconds per move aimed at by ``house:reference``.
        slack: seconds added to the per-game deadline.
    """

    size: int = 8
    move_seconds: float = DEFAULT_MOVE_SECONDS
    limit: int = -1
    caching: bool = False
    ordering: bool = False
    reference_budget: float = 1.0
    slack: float = 60.0

    @property
    def game_timeout(self) -> float:
        """Every move at its limit, two handshakes, plus ``slack``."""
        return (self.size * self.size - 2) * self.move_seconds + self.slack

    def play(self, task: GameTask) -> GameResult:
        """Play ``task`` through the manager; entrants' faults are results.

        Raises:
            ValueError: for an unknown house bot.
        """
        from reference.othello.manager import load_manager, reference_rules

        manager, rules = load_manager(), reference_rules()
        config = manager.GameConfig(size=self.size, limit=self.limit, caching=self.caching,
                                    ordering=self.ordering, move_timeout=self.move_seconds)
        with ExitStack() as stack:
            dark, light = (self._connect(manager, rules, entrant,
                                         manager.player_seed(task.seed, color), stack)
                           for color, entrant in ((1, task.first), (2, task.second)))
            outcome = manager.play_game(dark, light, config, rules)
        termination = _TERMINATIONS[outcome.reason.value]
        detail = "" if termination is Termination.NO_MOVES else \
            f"{outcome.reason.value}: {outcome.detail}"
        return GameResult(task.first.name, task.second.name, task.seed,
                          None if outcome.winner is None else outcome.winner - 1,
                          termination.value, detail,
                          tuple(tuple(move) for move in outcome.moves))

    def _connect(self, manager: Any, rules: Any, entrant: Entrant, seed: int,
                 stack: ExitStack) -> Any:
        """A player connection for the manager: an in-process house bot or a sandboxed agent."""
        if entrant.source.startswith(HOUSE_PREFIX):
            bot = entrant.source[len(HOUSE_PREFIX):]
            if bot == "random":
                return manager.random_player(seed, rules, name=entrant.name)
            if bot == "reference":
                from reference.othello.heuristic import HeuristicAgent

                agent = HeuristicAgent(budget=self.reference_budget)
                return manager.InProcessPlayer(entrant.name, agent.choose)
            raise ValueError(f"unknown house bot {bot!r}; known: random, reference")
        from harness import Sandbox
        from harness.spec import find_assignment
        from reference.othello.manager import TEMPLATE_DIR

        sandbox = stack.enter_context(Sandbox("agent", {
            "agent.py": Path(entrant.source),
            "othello_shared.py": TEMPLATE_DIR / "othello_shared.py"},
            packages=find_assignment("othello").allowed_packages))
        return sandbox.start_program()  # the manager closes it at the end of the game


def make_arena(clock: Optional[float] = None, **options: Any) -> OthelloArena:
    """The tournament command's factory: ``clock`` is the limit per move (default 10 s)."""
    return OthelloArena(move_seconds=DEFAULT_MOVE_SECONDS if clock is None else clock,
                        **options)


__all__ = ["OthelloArena", "make_arena"]
