"""The trusted Othello referee: the handout's line protocol as a codec for the one match loop.

Rules come from :mod:`reference.games.othello`; the loop, clocks and outcomes from
``harness.games``. The student's ``agent.py`` runs as a program (``run_ai``) and speaks the
handout's protocol: it sends its name; it gets ``"color,limit,minimax,caching,ordering"`` (or
just the colour for older agents); before each of its moves it gets ``"SCORE dark light"`` and
the board as the repr of a tuple of tuples; it answers ``"column row"``; at the end it gets
``"FINAL dark light"``. The student's starter ``othello_game.py`` speaks the same protocol and is
kept move-for-move equal to this referee by a test, but it is never trusted here.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Optional, Sequence

from harness.games import Clock, GameRecord, Program, Seat, play_game, replay
from harness.games.pages import Paint, ReplayView
from harness.records.games import GameEnd, GameResult
from reference.games.othello import (
    DARK,
    LIGHT,
    Board,
    Move,
    Othello,
    OthelloState,
    get_possible_moves,
    get_score,
)

MAX_REPLY_CHARS = 80
"""A reply is two small integers; anything longer is malformed without being parsed."""
COLOR_NAMES = {DARK: "dark", LIGHT: "light"}


@dataclass(frozen=True)
class Settings:
    """One game's settings, as sent in the config line.

    Attributes:
        size: board side (even, 4 or more).
        limit: depth limit sent to both players (-1: none).
        minimax, caching, ordering: search switches sent to both players.
        color_only: send only the colour as the config line (older agents).
    """

    size: int = 8
    limit: int = -1
    minimax: bool = False
    caching: bool = False
    ordering: bool = False
    color_only: bool = False

    def config_line(self, color: int) -> str:
        """The line telling a player its colour and the search settings."""
        if self.color_only:
            return str(color)
        flags = (self.limit, int(self.minimax), int(self.caching), int(self.ordering))
        return ",".join(str(value) for value in (color,) + flags)

    def describe(self) -> str:
        """E.g. ``"6x6, alpha-beta, depth limit 5, caching, ordering"``."""
        parts = [f"{self.size}x{self.size}", "minimax" if self.minimax else "alpha-beta",
                 "no depth limit" if self.limit < 0 else f"depth limit {self.limit}"]
        parts += [name for name, on in (("caching", self.caching), ("ordering", self.ordering))
                  if on]
        return ", ".join(parts)


REPLY_SHOWN = 40
"""How many characters of a reply that is not a move are quoted back (escaped, so a control
character or a stray byte shows as what it is)."""


def parse_reply(line: str) -> Move:
    """A reply line ``"column row"`` read strictly: ASCII, bounded, two decimal integers.

    Raises:
        ValueError: quoting the start of the line, escaped.

    >>> parse_reply("3 2")
    (3, 2)
    """
    shown = ascii(line[:REPLY_SHOWN]) + ("..." if len(line) > REPLY_SHOWN else "")
    if len(line) > MAX_REPLY_CHARS or not line.isascii():
        raise ValueError(f"reply {shown} is not two integers 'column row'")
    tokens = line.split()
    if len(tokens) != 2 or not all(_is_decimal(token) for token in tokens):
        raise ValueError(f"reply {shown} is not two integers 'column row'")
    return int(tokens[0]), int(tokens[1])


def _is_decimal(token: str) -> bool:
    digits = token[1:] if token[:1] in ("-", "+") else token
    return digits.isascii() and digits.isdigit()


@dataclass(frozen=True)
class OthelloCodec:
    """The handout's protocol (see the module docstring) for :class:`harness.games.Program`."""

    settings: Settings

    def greeting(self, player: Any, name: str) -> Sequence[str]:
        return [self.settings.config_line(int(player))]

    def request(self, state: OthelloState) -> Sequence[str]:
        dark, light = get_score(state.board)
        return [f"SCORE {dark} {light}", repr(state.board)]

    def decode(self, line: str, state: OthelloState) -> Optional[Move]:
        return parse_reply(line)

    def farewell(self, state: OthelloState, outcome: GameEnd) -> Sequence[str]:
        dark, light = get_score(state.board)
        return [f"FINAL {dark} {light}"]


@dataclass
class Randy:
    """Uniformly random legal moves, reproducible from ``seed``: the same moves as the
    template's ``randy_ai.py`` run with ``OTHELLO_SEED=seed``."""

    seed: int

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def choose_move(self, state: OthelloState, time_left: float) -> Optional[Move]:
        moves = get_possible_moves(state.board, state.to_move)
        return self._rng.choice(moves) if moves else None


def house_bot(kit: Any, name: str, seed: int) -> Randy:
    """The game kit's factory of Randy (``reference.othello.kit``), seeded by ``seed``."""
    return Randy(seed)


def program_seat(program: Any, settings: Settings) -> Program[OthelloState, Move]:
    """A running ``agent.py`` (a harness ``StudentProgram``) as a seat."""
    return Program(program, OthelloCodec(settings))


def player_seed(game_seed: int, color: int) -> int:
    """The seed given to the player of ``color`` in a game played with ``game_seed``."""
    return game_seed * 2 + color


def referee_game(dark: Seat[OthelloState, Move], light: Seat[OthelloState, Move],
                 settings: Settings, clock: Clock) -> GameRecord[Move]:
    """One refereed game from the opening position; dark moves first."""
    game = Othello(settings.size)
    return play_game(game, game.initial_state(), {DARK: dark, LIGHT: light}, clock)


def replay_view(result: GameResult, outcome: str, size: int) -> ReplayView:
    """The positions of a recorded game for its replay page (dark and light discs on green).

    Raises:
        ValueError: when the recorded moves are not legal.
    """
    game = Othello(size)
    states = replay(game, game.initial_state(), [(m[0], m[1]) for m in result.moves])
    marks = {0: ".", DARK: "X", LIGHT: "O"}
    frames = [["".join(marks[square] for square in row) for row in state.board]
              for state in states]
    labels = [f"{COLOR_NAMES[state.to_move]} plays {tuple(move)}"
              for state, move in zip(states, result.moves)]
    notes = [_move_note(before, after) for before, after in zip(states, states[1:])]
    green = "#2e7d32"
    return ReplayView(
        f"othello {size}x{size}: {result.first} (dark) v {result.second} (light)",
        frames, {".": Paint(green), "X": Paint(green, "#111111"), "O": Paint(green, "#f5f5f5")},
        labels, result.seconds, (), outcome,
        {"X": f"{result.first} (dark)", "O": f"{result.second} (light)"},
        coordinates="(column, row)", score=disc_count(states[-1].board), notes=notes)


def _discs(board: Board, color: int) -> int:
    return sum(row.count(color) for row in board)


def _move_note(before: OthelloState, after: OthelloState) -> str:
    """What a move did, as its replay announces it, e.g. ``"flips 2; dark 9, light 5"``."""
    flipped = _discs(after.board, before.to_move) - _discs(before.board, before.to_move) - 1
    return f"flips {flipped}; {disc_count(after.board)}"


def disc_count(board: Board) -> str:
    """The discs of each colour on ``board`` in words, e.g. ``"dark 20, light 16"``."""
    return f"dark {_discs(board, DARK)}, light {_discs(board, LIGHT)}"


def final_board(record: GameRecord[Move], size: int) -> Board:
    """The board when the game ended (before a forfeited move), from the record's moves."""
    game = Othello(size)
    state = game.initial_state()
    for ply in record.plies:
        state = game.result(state, ply.move)
    return state.board


__all__ = ["COLOR_NAMES", "OthelloCodec", "Randy", "Settings", "final_board", "house_bot",
           "parse_reply",
           "player_seed", "program_seat", "referee_game", "replay_view"]
