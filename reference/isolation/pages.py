"""Replay pages of Isolation games: the positions of a recorded game, drawn as the handout's board.

The tournament arena and the graded games' runner both draw their games with
:class:`IsolationPages`; it needs the rules alone (to replay the recorded moves), so the student
package holds it and keeps the games ``check --games DIR`` plays.
"""
from __future__ import annotations

from dataclasses import dataclass

from harness.games.pages import Paint, ReplayView
from harness.records.games import GameResult
from reference.games.isolation import EMPTY, FILLED, SIZE, Isolation, O, X, format_board
from reference.isolation.referee import replay_result


@dataclass(frozen=True)
class IsolationPages:
    """Draws recorded games on a ``size`` board; ``seconds`` is the clock of a record that does
    not say its own."""

    seconds: float
    size: int = SIZE

    def replay_view(self, result: GameResult, outcome: str) -> ReplayView:
        """The positions of a recorded game for its replay page (x red, o blue, holes dark).

        Raises:
            ValueError: when the recorded moves are not legal.
        """
        game = Isolation(self.size)
        states = replay_result(result, game)
        clock = dict(result.game).get("clock") or self.seconds
        used = {X: 0.0, O: 0.0}
        labels, clocks = [], []
        for state, move, seconds in zip(states, result.moves, result.seconds):
            used[state.to_move] += seconds
            labels.append(f"{state.to_move} to {tuple(move)}")
            clocks.append(f"{clock - used[state.to_move]:.2f} s")
        frames = [["".join(row) for row in format_board(state, self.size)] for state in states]
        notes = [f"moves open: {X} {game.mobility(after, X)}, {O} {game.mobility(after, O)}"
                 for after in states[1:]]
        return ReplayView(
            f"isolation {self.size}x{self.size}: {result.first} (x) v {result.second} (o)",
            frames, {EMPTY: Paint("#e8e8e8"), FILLED: Paint("#4a4a4a"),
                     X: Paint("#e8e8e8", "#d62728"), O: Paint("#e8e8e8", "#1f77b4")},
            labels, result.seconds, clocks, outcome,
            {X: f"{result.first} (red)", O: f"{result.second} (blue)", FILLED: "visited"},
            origin=1, coordinates="(row, column)", notes=notes)


__all__ = ["IsolationPages"]
