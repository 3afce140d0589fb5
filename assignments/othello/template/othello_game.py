"""
Othello game manager: plays two players over the line protocol and reports how the game ended.

Use it from the command line (python3 othello_game.py --help), for example

    python3 othello_game.py -d 6 -a agent.py -b randy_ai.py -l 4 -c -o --seed 7

-a plays dark (moves first) and -b light; a side left out is played by you at the terminal.

It is also the library the autograder uses (the very same file), so it never crashes on a
misbehaving player: a timeout, a crash, a malformed or out-of-range reply, an occupied square
or a move that captures nothing loses the game for that player, and the reason is recorded.

Protocol (one line per message): the player sends its name; the manager sends
"color,limit,minimax,caching,ordering" (or just "color" in compatibility mode); before each of
the player's moves the manager sends "SCORE dark light" and the board as the repr of a tuple of
tuples; the player answers "column row". At the end both players get "FINAL dark light".
"""
from __future__ import annotations

import argparse
import ast
import collections
import json
import os
import queue
import random
import shlex
import subprocess
import sys
import threading
from dataclasses import dataclass, replace
from enum import Enum

DEFAULT_MOVE_TIMEOUT = 10.0
DEFAULT_HANDSHAKE_TIMEOUT = 10.0
CLOSE_GRACE = 0.5
MAX_REPLY_CHARS = 80  # a reply is two small integers; anything longer is malformed
MAX_READ_BYTES = 64 * 1024  # longest stdout line kept from a player process
STDERR_TAIL_CHARS = 2000
NAME_CHARS = 40
MARKS = {0: ".", 1: "X", 2: "O"}
COLOR_NAMES = {1: "dark", 2: "light"}


class Reason(Enum):
    """How a game ended. Every reason but NO_MOVES is a forfeit by the player to move."""

    NO_MOVES = "no-moves"  # normal end: the player to move has no legal move
    TIMEOUT = "timeout"  # no reply line within the time limit
    EOF = "eof"  # the player closed its output, exited or crashed before replying
    MALFORMED = "malformed"  # not two decimal integers, non-ASCII, or too long
    OUT_OF_RANGE = "out-of-range"  # a column or row outside 0..n-1 (negative included)
    OCCUPIED = "occupied"  # the square already holds a disk
    NO_CAPTURE = "no-capture"  # the square captures no disk


@dataclass(frozen=True)
class GameConfig:
    """Settings of one game.

    size: board side (even, 4 or more). limit, minimax, caching, ordering: sent to both
    players in the config line (limit -1 means no depth limit). move_timeout and
    handshake_timeout: seconds allowed per reply line and for the name line. color_only:
    send only the color as the config line (compatibility with older players).
    """

    size: int = 8
    limit: int = -1
    minimax: bool = False
    caching: bool = False
    ordering: bool = False
    move_timeout: float = DEFAULT_MOVE_TIMEOUT
    handshake_timeout: float = DEFAULT_HANDSHAKE_TIMEOUT
    color_only: bool = False

    def config_line(self, color):
        """The line telling a player its color and the search settings."""
        if self.color_only:
            return str(color)
        flags = (self.limit, int(self.minimax), int(self.caching), int(self.ordering))
        return ",".join(str(value) for value in (color,) + flags)


@dataclass(frozen=True)
class Outcome:
    """The result of one game.

    winner: 1 (dark), 2 (light) or None for a tie. reason: how the game ended. forfeiter:
    the player who lost by forfeit, or None. detail: a one-line explanation (quotes what the
    player sent). score: (dark, light) disks when the game ended, forfeits included. board:
    the position when the game ended (before the offending move). moves: every move played,
    as (column, row). names: the two players' name lines. move: the (column, row) of an
    illegal reply, when it parsed. reply: the offending reply line, abbreviated. stderr: the
    tail of the forfeiting player's stderr.
    """

    winner: int | None
    reason: Reason
    forfeiter: int | None
    detail: str
    score: tuple
    board: tuple
    moves: tuple
    names: tuple
    move: tuple | None = None
    reply: str | None = None
    stderr: str = ""

    def summary(self):
        """One line: who won, the score and why the game ended."""
        dark, light = self.score
        if self.winner is None:
            head = f"tie {dark}-{light}"
        else:
            head = (f"{COLOR_NAMES[self.winner]} ({self.names[self.winner - 1]}) wins, "
                    f"dark {dark} - light {light}")
        return f"{head}: {self.detail}"

    def to_record(self):
        """The outcome as plain JSON-ready data (what save_game writes)."""
        return {
            "winner": self.winner, "reason": self.reason.value, "forfeiter": self.forfeiter,
            "detail": self.detail, "score": list(self.score),
            "moves": [list(move) for move in self.moves], "names": list(self.names),
            "move": list(self.move) if self.move is not None else None, "reply": self.reply,
        }


class _Forfeit(Exception):
    """Raised inside the game loop when the player to move loses by forfeit."""

    def __init__(self, reason, detail, move=None, reply=None):
        super().__init__(detail)
        self.reason = reason
        self.detail = detail
        self.move = move
        self.reply = reply


# ---------------------------------------------------------------- rules and text

def default_rules():
    """The othello_shared module (imported on first use, so the library loads without it)."""
    import othello_shared
    return othello_shared


def initial_board(size):
    """The starting position: light on (h, h) and (h+1, h+1), dark on the other two centre
    squares, h = size // 2 - 1. Raises ValueError for an odd size or one below 4."""
    if type(size) is not int or size < 4 or size % 2:
        raise ValueError(f"board size must be an even integer of 4 or more, got {size!r}")
    h = size // 2 - 1
    rows = [[0] * size for _ in range(size)]
    rows[h][h] = rows[h + 1][h + 1] = 2
    rows[h][h + 1] = rows[h + 1][h] = 1
    return tuple(tuple(row) for row in rows)


def as_tuple_board(board):
    """The board as a tuple of tuples of ints (what goes on the wire)."""
    return tuple(tuple(int(square) for square in row) for row in board)


def abbreviate(text, limit=NAME_CHARS):
    """repr of text, shortened to about limit characters."""
    if len(text) > limit:
        return repr(text[:limit]) + "..."
    return repr(text)


def parse_reply(line, size):
    """
    Read a move reply "column row" strictly.

    Returns the (column, row) pair. Raises _Forfeit(MALFORMED) unless the line is ASCII, at
    most MAX_REPLY_CHARS long and exactly two decimal integers separated by whitespace, and
    _Forfeit(OUT_OF_RANGE) when either integer is outside 0..size-1 (negatives included).
    """
    text = line.rstrip("\r\n")
    shown = abbreviate(text)
    if not text.isascii():
        raise _Forfeit(Reason.MALFORMED, f"reply {shown} contains non-ASCII characters",
                       reply=shown)
    if len(text) > MAX_REPLY_CHARS:
        raise _Forfeit(Reason.MALFORMED, f"reply {shown} is too long for 'column row'",
                       reply=shown)
    tokens = text.split()
    if len(tokens) != 2 or not all(_is_decimal(token) for token in tokens):
        raise _Forfeit(Reason.MALFORMED,
                       f"reply {shown} is not two integers 'column row'", reply=shown)
    move = (int(tokens[0]), int(tokens[1]))
    if not all(0 <= index < size for index in move):
        raise _Forfeit(Reason.OUT_OF_RANGE,
                       f"reply {shown} names square {move}, outside the board "
                       f"(columns and rows 0..{size - 1})", move=move, reply=shown)
    return move


def count_moves(count):
    """'1 move', '3 moves'."""
    return f"{count} move" if count == 1 else f"{count} moves"


def _is_decimal(token):
    digits = token[1:] if token[:1] in ("-", "+") else token
    return digits.isascii() and digits.isdigit()


def check_move(board, player, move, rules, reply=None):
    """Raise _Forfeit(OCCUPIED or NO_CAPTURE) unless move (in range) is legal for player;
    reply is the line the move came from, quoted in the forfeit."""
    col, row = move
    shown = abbreviate(reply) if reply is not None else None
    if board[row][col] != 0:
        raise _Forfeit(Reason.OCCUPIED, f"square {move} is occupied", move=move, reply=shown)
    if not rules.find_lines(board, col, row, player):
        raise _Forfeit(Reason.NO_CAPTURE, f"square {move} captures no disk", move=move,
                       reply=shown)


def render_board(board, last_move=None):
    """
    The board as text: columns numbered across the top, rows down the side, X dark,
    O light, and the last move in brackets.
    """
    size = len(board)
    width = len(str(size - 1))
    lines = [" " * (width + 1) + " ".join(f"{col:>{width + 1}}" for col in range(size))]
    for row in range(size):
        cells = []
        for col in range(size):
            mark = MARKS.get(board[row][col], "?")
            cells.append(f"[{mark}]" if last_move == (col, row) else f" {mark} ")
        lines.append(f"{row:>{width}} " + "".join(cells).rstrip())
    dark = sum(r.count(1) for r in board)
    light = sum(r.count(2) for r in board)
    lines.append(f"X dark {dark}   O light {light}")
    return "\n".join(lines)


# ---------------------------------------------------------------- the game loop

def play_game(dark, light, config, rules=None, watch=None):
    """
    Play one game between two player connections and return its Outcome.

    dark and light are player connections: objects with send_line(text) (may return False or
    raise OSError when the player is gone), read_line(timeout) (returns the line without its
    newline, None at end of output; raises TimeoutError, or ValueError for an unreadable line),
    close(grace) and stderr_tail(). play_game owns them from now on: it sends FINAL to both
    when the game ends and closes them. rules provides find_lines, get_possible_moves,
    play_move and get_score (othello_shared by default). watch, if given, is called as
    watch(board, player, move) with the start position (player and move None) and after
    each move. Nothing a player does makes play_game raise.
    """
    rules = rules if rules is not None else default_rules()
    players = {1: dark, 2: light}
    names = ["?", "?"]
    board = initial_board(config.size)
    outcome = None
    for color in (1, 2):
        try:
            names[color - 1] = _handshake(players[color], color, config)
        except _Forfeit as forfeit:
            forfeit.detail = f"handshake: {forfeit.detail}"
            outcome = _forfeit_outcome(color, forfeit, board, [], names, rules)
            break
    if outcome is None:
        outcome = _play(players, board, names, config, rules, watch)
    _finish(players, outcome.score)
    if outcome.forfeiter is not None:
        # read once the forfeiter is closed (ended, its stderr read to its end): a player that
        # wrote to stderr before its bad reply is still running at the forfeit, and its stderr
        # comes through a pipe of its own, so it may not have been read yet
        outcome = replace(outcome, stderr=_stderr_tail(players[outcome.forfeiter]))
    return outcome


def _play(players, board, names, config, rules, watch):
    """The moves of a game whose handshakes succeeded, until it ends; returns the Outcome."""
    moves = []
    if watch is not None:
        watch(board, None, None)
    player = 1
    while rules.get_possible_moves(board, player):
        try:
            reply = _ask_move(players[player], board, rules, config.move_timeout)
            move = parse_reply(reply, len(board))
            check_move(board, player, move, rules, reply)
        except _Forfeit as forfeit:
            return _forfeit_outcome(player, forfeit, board, moves, names, rules)
        board = as_tuple_board(rules.play_move(board, player, move[0], move[1]))
        moves.append(move)
        if watch is not None:
            watch(board, player, move)
        player = 3 - player
    return _normal_end(board, moves, names, rules)


def _read(connection, timeout, waiting_for):
    """One line from a player; raises _Forfeit for a timeout or end of output."""
    try:
        line = connection.read_line(timeout)
    except TimeoutError:
        raise _Forfeit(Reason.TIMEOUT, f"no {waiting_for} within {timeout:g} s") from None
    except ValueError as error:  # e.g. a line longer than the connection accepts
        raise _Forfeit(Reason.MALFORMED, f"unreadable {waiting_for}: {error}") from None
    except OSError as error:
        raise _Forfeit(Reason.EOF, f"reading its {waiting_for} failed: {error}") from None
    if line is None:
        raise _Forfeit(Reason.EOF, f"it exited or closed its output before its {waiting_for}")
    return line


def _send(connection, text):
    """Send one line; a player that can no longer be written to has stopped: EOF forfeit.
    A connection reports that by raising OSError/ValueError or by returning False."""
    try:
        sent = connection.send_line(text)
    except (OSError, ValueError) as error:
        raise _Forfeit(Reason.EOF, f"it stopped reading its input ({error})") from None
    if sent is False:
        raise _Forfeit(Reason.EOF, "it stopped reading its input")


def _handshake(connection, color, config):
    """Read the name line and send the config line; returns the printable part of the name."""
    name = _read(connection, config.handshake_timeout, "name line")
    _send(connection, config.config_line(color))
    printable = "".join(ch for ch in name.strip() if ch.isascii() and ch.isprintable())
    return printable[:NAME_CHARS] or "(no name)"


def _ask_move(connection, board, rules, timeout):
    """Send the score and the board; return the reply line (the clock runs from the board)."""
    dark, light = rules.get_score(board)
    _send(connection, f"SCORE {dark} {light}")
    _send(connection, repr(board))
    return _read(connection, timeout, "move")


def _normal_end(board, moves, names, rules):
    dark, light = rules.get_score(board)
    winner = 1 if dark > light else 2 if light > dark else None
    mover = 1 if len(moves) % 2 == 0 else 2
    detail = f"{COLOR_NAMES[mover]} has no legal move"
    return Outcome(winner, Reason.NO_MOVES, None, detail, (dark, light), board, tuple(moves),
                   tuple(names))


def _forfeit_outcome(player, forfeit, board, moves, names, rules):
    """The Outcome of a forfeit; its stderr is filled in by play_game once the game is over."""
    detail = (f"{COLOR_NAMES[player]} ({names[player - 1]}) forfeits after "
              f"{count_moves(len(moves))}: {forfeit.detail}")
    return Outcome(3 - player, forfeit.reason, player, detail, rules.get_score(board), board,
                   tuple(moves), tuple(names), forfeit.move, forfeit.reply, "")


def _stderr_tail(connection):
    try:
        return connection.stderr_tail() or ""
    except Exception:  # a broken connection must not turn a forfeit into a crash
        return ""


def _finish(players, score):
    """Send a flushed FINAL line to both players, then close them (errors ignored)."""
    for connection in players.values():
        try:
            connection.send_line(f"FINAL {score[0]} {score[1]}")
        except (OSError, ValueError):
            pass
    for connection in players.values():
        try:
            connection.close(CLOSE_GRACE)
        except (OSError, ValueError):
            pass


# ---------------------------------------------------------------- player connections

class ProcessPlayer:
    """
    A player program run as a child process: python3 -u SCRIPT, or any command line.

    stdout is read line by line by a background thread, so read_line can time out; stderr
    is kept as a bounded tail. Lines are decoded as ASCII; other bytes become U+FFFD (and so
    make a reply malformed).
    """

    def __init__(self, command, env=None, cwd=None):
        if isinstance(command, str):
            command = command_for(command)
        full_env = dict(os.environ)
        full_env["PYTHONUNBUFFERED"] = "1"
        full_env.update(env or {})
        self.command = list(command)
        self._process = subprocess.Popen(
            self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, env=full_env, cwd=cwd)
        self._lines = queue.Queue()
        self._stderr = collections.deque()
        self._stderr_size = 0
        self._lock = threading.Lock()
        self._stdout_ended = threading.Event()
        self._threads = [
            threading.Thread(target=self._pump_stdout, daemon=True),
            threading.Thread(target=self._pump_stderr, daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def _pump_stdout(self):
        stream = self._process.stdout
        try:
            while True:
                chunk = stream.readline(MAX_READ_BYTES)
                if not chunk:
                    break
                if not chunk.endswith(b"\n"):
                    if len(chunk) < MAX_READ_BYTES:
                        break  # a partial line at end of output is not a reply
                    while True:  # drop the rest of an overlong line
                        rest = stream.readline(MAX_READ_BYTES)
                        if not rest or rest.endswith(b"\n"):
                            break
                self._lines.put(chunk.decode("ascii", errors="replace").rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        self._stdout_ended.set()
        self._lines.put(None)

    def _pump_stderr(self):
        stream = self._process.stderr
        try:
            for chunk in iter(lambda: stream.read1(4096), b""):
                text = chunk.decode("utf-8", errors="replace")
                with self._lock:
                    self._stderr.append(text)
                    self._stderr_size += len(text)
                    while self._stderr_size > STDERR_TAIL_CHARS and len(self._stderr) > 1:
                        self._stderr_size -= len(self._stderr.popleft())
        except (OSError, ValueError):
            pass

    def send_line(self, text):
        """Write one line and flush it. Raises OSError/ValueError when the player is gone."""
        self._process.stdin.write((text + "\n").encode("ascii"))
        self._process.stdin.flush()

    def read_line(self, timeout):
        """The next stdout line without its newline, None at end of output; waits at most
        timeout seconds (None: forever), then raises TimeoutError."""
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"no line within {timeout} s") from None
        if line is None:
            self._lines.put(None)  # later reads see the end of output too
        return line

    def close(self, grace=CLOSE_GRACE):
        """Close stdin, wait up to grace seconds, then terminate, then kill."""
        try:
            self._process.stdin.close()
        except (OSError, ValueError):
            pass
        for stop in (None, self._process.terminate, self._process.kill):
            if stop is not None:
                stop()
            try:
                self._process.wait(timeout=grace)
                break
            except subprocess.TimeoutExpired:
                continue
        self._process.wait()
        for thread in self._threads:
            thread.join(timeout=grace)

    def stderr_tail(self):
        """The last STDERR_TAIL_CHARS characters the player wrote to stderr. Once its stdout has
        ended (it exited or closed it), first waits up to CLOSE_GRACE seconds for its stderr to
        end too: a crashing player's traceback is still on its way when the end of its stdout
        is seen."""
        if self._stdout_ended.is_set():
            self._threads[1].join(timeout=CLOSE_GRACE)
        with self._lock:
            return "".join(self._stderr)[-STDERR_TAIL_CHARS:]


def command_for(player):
    """The command line for a player argument: a .py file runs as python3 -u FILE, anything
    else is split like a shell command line."""
    if player.endswith(".py"):
        return [sys.executable, "-u", player]
    return shlex.split(player)


class InProcessPlayer:
    """
    A player living in this process: choose(board, color) returns its (column, row) move, or
    None to stop playing (seen by the manager as end of output). It speaks the same line
    protocol as a program, so the game loop cannot tell them apart. on_final, if given, is
    called with the FINAL line.
    """

    def __init__(self, name, choose, on_final=None):
        self.name = name
        self.choose = choose
        self.on_final = on_final
        self.color = None
        self.board = None
        self.final = None
        self._named = False

    def send_line(self, text):
        if self.color is None:
            self.color = int(text.split(",")[0])
        elif text.startswith("FINAL"):
            self.final = text
            if self.on_final is not None:
                self.on_final(text)
        elif not text.startswith("SCORE"):
            self.board = ast.literal_eval(text)
        return True

    def read_line(self, timeout):
        if not self._named:
            self._named = True
            return self.name
        board, self.board = self.board, None
        move = self.choose(board, self.color)
        return None if move is None else f"{move[0]} {move[1]}"

    def close(self, grace=CLOSE_GRACE):
        pass

    def stderr_tail(self):
        return ""


def random_player(seed=None, rules=None, name="Randy"):
    """An in-process Randy: a uniformly random legal move, reproducible from seed. With the
    same seed it plays exactly as randy_ai.py run with OTHELLO_SEED=seed."""
    rules = rules if rules is not None else default_rules()
    rng = random.Random(seed)

    def choose(board, color):
        return rng.choice(rules.get_possible_moves(board, color))

    return InProcessPlayer(name, choose)


def human_player(rules=None, ask=input, show=print):
    """You, at the terminal: shows the board and asks until you type a legal move "column
    row" (no time limit). End of input (Ctrl-D) gives up the game."""
    rules = rules if rules is not None else default_rules()

    def choose(board, color):
        legal = rules.get_possible_moves(board, color)
        show(render_board(board))
        show(f"You play {COLOR_NAMES[color]}; legal moves: "
             + ", ".join(f"{col} {row}" for col, row in legal))
        while True:
            try:
                tokens = ask("your move (column row): ").split()
            except EOFError:
                return None
            if len(tokens) == 2 and all(_is_decimal(token) for token in tokens):
                move = (int(tokens[0]), int(tokens[1]))
                if move in legal:
                    return move
            show("Not a legal move, try again.")

    return InProcessPlayer("Human", choose, on_final=lambda text: show(f"Game over: {text}"))


# ---------------------------------------------------------------- saving and replaying

def player_seed(game_seed, color):
    """The seed given to the player of color in a game played with game_seed."""
    return game_seed * 2 + color


def save_game(path, outcome, config, seed=None):
    """Write the game as JSON: settings, seed, names, the move list and the result."""
    record = {"size": config.size, "limit": config.limit, "minimax": config.minimax,
              "caching": config.caching, "ordering": config.ordering, "seed": seed}
    record.update(outcome.to_record())
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(record, handle, indent=1)
        handle.write("\n")


def replay(size, moves, rules=None):
    """The boards of a game, start position first, after playing moves in order. Raises
    ValueError on the first illegal move."""
    rules = rules if rules is not None else default_rules()
    board = initial_board(size)
    boards = [board]
    player = 1
    for col, row in moves:
        if (col, row) not in rules.get_possible_moves(board, player):
            raise ValueError(f"move {len(boards)} ({col}, {row}) is illegal for "
                             f"{COLOR_NAMES[player]}")
        board = as_tuple_board(rules.play_move(board, player, col, row))
        boards.append(board)
        player = 3 - player
    return boards


# ---------------------------------------------------------------- command line

def build_parser():
    parser = argparse.ArgumentParser(
        description="Play Othello between two players (a program file, a command line, or "
                    "you at the terminal when a side is left out).")
    parser.add_argument("-d", "--dimension", type=int, default=8, help="board size (even)")
    parser.add_argument("-a", "--dark", help="dark player (moves first): FILE.py or command")
    parser.add_argument("-b", "--light", help="light player: FILE.py or command")
    parser.add_argument("-l", "--limit", type=int, default=-1, help="depth limit (-1: none)")
    parser.add_argument("-m", "--minimax", action="store_true", help="minimax, not alpha-beta")
    parser.add_argument("-c", "--caching", action="store_true", help="turn caching on")
    parser.add_argument("-o", "--ordering", action="store_true", help="turn ordering on")
    parser.add_argument("-t", "--timeout", type=float, default=DEFAULT_MOVE_TIMEOUT,
                        help="seconds per move (default 10)")
    parser.add_argument("--handshake-timeout", type=float, default=DEFAULT_HANDSHAKE_TIMEOUT,
                        help="seconds for a player's name line (default 10)")
    parser.add_argument("--color-only", action="store_true",
                        help="send only the color as the config line (older players)")
    parser.add_argument("--seed", type=int, help="seed for the players (OTHELLO_SEED)")
    parser.add_argument("--save", help="write the game (moves and result) to this JSON file")
    parser.add_argument("-q", "--quiet", action="store_true", help="print only the result")
    parser.add_argument("--replay", help="show a game saved with --save, move by move")
    return parser


def _connect(player, color, seed):
    if player is None:
        return human_player()
    env = {}
    if seed is not None:
        env["OTHELLO_SEED"] = str(player_seed(seed, color))
    return ProcessPlayer(player, env=env)


def _show_replay(path):
    with open(path, encoding="utf-8") as handle:
        record = json.load(handle)
    moves = [tuple(move) for move in record["moves"]]
    boards = replay(record["size"], moves)
    print(render_board(boards[0]))
    for number, (move, board) in enumerate(zip(moves, boards[1:]), start=1):
        mover = "dark" if number % 2 else "light"
        print(f"\nmove {number}: {mover} plays {move[0]} {move[1]}")
        print(render_board(board, move))
    print(f"\n{record['detail']} (score {record['score'][0]}-{record['score'][1]})")


def main(argv=None):
    args = build_parser().parse_args(argv)
    if args.replay:
        _show_replay(args.replay)
        return 0
    config = GameConfig(size=args.dimension, limit=args.limit, minimax=args.minimax,
                        caching=args.caching, ordering=args.ordering,
                        move_timeout=args.timeout, handshake_timeout=args.handshake_timeout,
                        color_only=args.color_only)
    initial_board(config.size)  # reject a bad size before starting any player
    players = []
    for color, player in ((1, args.dark), (2, args.light)):
        try:
            players.append(_connect(player, color, args.seed))
        except OSError as error:
            for started in players:
                started.close()
            print(f"cannot start the {COLOR_NAMES[color]} player {player!r}: {error}",
                  file=sys.stderr)
            return 2
    dark, light = players

    def watch(board, player, move):
        if not args.quiet:
            if move is not None:
                print(f"{COLOR_NAMES[player]} plays {move[0]} {move[1]}")
            print(render_board(board, move), flush=True)

    outcome = play_game(dark, light, config, watch=watch)
    print(outcome.summary())
    if outcome.stderr:
        print(f"stderr of the forfeiting player (last lines):\n{outcome.stderr}")
    if args.save:
        save_game(args.save, outcome, config, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
