"""The game manager library: protocol, every forfeit reason, FINAL, reproducibility, saving."""
from __future__ import annotations

import json
import time

import pytest
from othello_support import TEMPLATE_DIR, write_player, write_replier

from assignments.othello import rules

START4 = rules.Othello(4).initial_state().board
FAST = {"size": 4, "move_timeout": 1.0, "handshake_timeout": 1.0}
SHARED_ENV = {"PYTHONPATH": str(TEMPLATE_DIR)}


def play(manager, dark, light, **settings):
    config = manager.GameConfig(**{**FAST, **settings})
    return manager.play_game(dark, light, config, rules=rules)


def fake(manager, tmp_path, reply_code, name="fake"):
    return manager.ProcessPlayer(str(write_replier(tmp_path, name, reply_code)), env=SHARED_ENV)


@pytest.mark.parametrize("reply, reason, move", [
    ("-1 2", "out-of-range", (-1, 2)),
    ("2 -1", "out-of-range", (2, -1)),
    ("0 4", "out-of-range", (0, 4)),
    ("1 1", "occupied", (1, 1)),
    ("0 0", "no-capture", (0, 0)),
    ("0, 1", "malformed", None),
    ("0 1 2", "malformed", None),
    ("zero one", "malformed", None),
    ("", "malformed", None),
    ("\uff10 1", "malformed", None),
    ("1" * 200 + " 1", "malformed", None),
])
@pytest.mark.slow  # starts processes
def test_a_bad_first_reply_forfeits_the_game_for_dark(manager, tmp_path, reply, reason, move):
    dark = fake(manager, tmp_path, f"say({reply!r})")
    outcome = play(manager, dark, manager.random_player(1, rules))
    assert outcome.reason.value == reason
    assert (outcome.forfeiter, outcome.winner) == (1, 2)
    assert (outcome.score, outcome.board, outcome.moves) == ((2, 2), START4, ())
    assert outcome.move == move
    assert outcome.reply is not None
    if reply.isascii():
        assert outcome.reply.startswith(repr(reply)[:20])
    else:  # undecodable bytes are shown as U+FFFD
        assert "\ufffd" in outcome.reply
    assert outcome.names == ("Fake", "Randy")


@pytest.mark.slow  # starts processes
def test_a_forfeit_later_in_the_game_keeps_the_position_and_the_moves(manager, tmp_path):
    light = fake(manager, tmp_path, """\
        if turn == 1:
            import ast, othello_shared
            i, j = othello_shared.get_possible_moves(ast.literal_eval(board), 2)[0]
            say(f"{i} {j}")
        else:
            say("-1 2")
    """)
    outcome = play(manager, manager.random_player(3, rules), light)
    assert (outcome.reason.value, outcome.forfeiter, outcome.winner) == ("out-of-range", 2, 1)
    assert len(outcome.moves) == 3
    board, player = START4, 1
    for col, row in outcome.moves:
        board, player = rules.play_move(board, player, col, row), 3 - player
    assert outcome.board == board and outcome.score == rules.get_score(board)
    assert "light (Fake) forfeits after 3 moves" in outcome.detail


@pytest.mark.slow  # starts processes
def test_stray_stdout_is_read_as_the_move(manager, tmp_path):
    dark = fake(manager, tmp_path, 'say("thinking..."); say("0 1")')
    outcome = play(manager, dark, manager.random_player(1, rules))
    assert outcome.reason.value == "malformed" and outcome.reply == "'thinking...'"
    assert "not two integers" in outcome.detail


@pytest.mark.slow  # starts processes
def test_a_player_that_sleeps_past_the_limit_times_out_and_is_stopped(manager, tmp_path):
    dark = fake(manager, tmp_path, "time.sleep(30)")
    outcome = play(manager, dark, manager.random_player(1, rules))
    assert (outcome.reason.value, outcome.forfeiter, outcome.winner) == ("timeout", 1, 2)
    assert "no move within 1 s" in outcome.detail and outcome.board == START4
    assert dark._process.poll() is not None


@pytest.mark.parametrize("code, stderr", [
    ('raise RuntimeError("boom")', "RuntimeError: boom"),
    ("sys.exit(3)", ""),
    ("os.close(1); time.sleep(30)", ""),
    # stderr written after stdout has ended: the tail must wait for it (a traceback is)
    ("os.close(1); time.sleep(0.2); sys.stderr.write('late words'); sys.exit(1)", "late words"),
])
@pytest.mark.slow  # starts processes
def test_a_player_that_crashes_or_stops_forfeits_with_eof(manager, tmp_path, code, stderr):
    dark = fake(manager, tmp_path, code)
    outcome = play(manager, dark, manager.random_player(1, rules))
    assert (outcome.reason.value, outcome.forfeiter, outcome.winner) == ("eof", 1, 2)
    assert stderr in outcome.stderr
    assert dark._process.poll() is not None


@pytest.mark.slow  # starts processes
def test_what_a_player_wrote_to_stderr_before_a_bad_reply_is_in_the_tail(
        manager, tmp_path, monkeypatch):
    """stderr and stdout are separate pipes: a bad reply can be read before what the player
    wrote to stderr just before it (a loaded machine; simulated by a stderr reader that starts
    late). The tail is read once the forfeiter has been closed, so it is all there."""
    pump = manager.ProcessPlayer._pump_stderr

    def late_pump(self):
        time.sleep(0.2)
        pump(self)

    monkeypatch.setattr(manager.ProcessPlayer, "_pump_stderr", late_pump)
    dark = fake(manager, tmp_path, "sys.stderr.write('thinking hard'); say('0 0')")
    outcome = play(manager, dark, manager.random_player(1, rules))
    assert (outcome.reason.value, outcome.forfeiter) == ("no-capture", 1)
    assert "thinking hard" in outcome.stderr


@pytest.mark.slow  # starts processes
def test_the_handshake_has_a_timeout_too(manager, tmp_path):
    silent = manager.ProcessPlayer(str(write_player(tmp_path, "silent", "time.sleep(30)\n")))
    outcome = play(manager, manager.random_player(1, rules), silent)
    assert (outcome.reason.value, outcome.forfeiter, outcome.winner) == ("timeout", 2, 1)
    assert "handshake: no name line within 1 s" in outcome.detail
    assert outcome.moves == () and outcome.names == ("Randy", "?")


_RECORDER = """\
import ast, os, othello_shared, random
say("Recorder")
log = open(os.environ["LOG"], "w")
config = line()
log.write("config " + config)
color = int(config.split(",")[0])
while True:
    status = line()
    if not status or status.startswith("FINAL"):
        log.write(status)
        break
    board = ast.literal_eval(line())
    if not (type(board) is tuple and all(type(row) is tuple for row in board)):
        log.write("not a tuple board\\n")
    i, j = othello_shared.get_possible_moves(board, color)[0]
    say(f"{i} {j}")
log.close()
"""


@pytest.mark.slow  # starts processes
@pytest.mark.parametrize("color_only, config_line", [(False, "1,3,1,0,1"), (True, "1")])
def test_players_get_config_tuple_boards_and_a_flushed_final(manager, tmp_path, color_only,
                                                             config_line):
    log = tmp_path / "log.txt"
    recorder = manager.ProcessPlayer(str(write_player(tmp_path, "recorder", _RECORDER)),
                                     env={**SHARED_ENV, "LOG": str(log)})
    outcome = play(manager, recorder, manager.random_player(2, rules), limit=3, minimax=True,
                   ordering=True, color_only=color_only)
    assert outcome.reason.value == "no-moves" and len(outcome.moves) > 4
    dark, light = outcome.score
    assert log.read_text().splitlines() == [f"config {config_line}", f"FINAL {dark} {light}"]


def test_a_normal_end_scores_by_disk_count(manager):
    outcome = play(manager, manager.random_player(5, rules), manager.random_player(6, rules))
    assert outcome.reason.value == "no-moves" and outcome.forfeiter is None
    dark, light = outcome.score
    assert outcome.winner == (1 if dark > light else 2 if light > dark else None)
    mover = 1 + len(outcome.moves) % 2
    assert rules.get_possible_moves(outcome.board, mover) == []


class _Broken:
    """A connection whose every operation fails."""

    def send_line(self, text):
        raise BrokenPipeError("gone")

    def read_line(self, timeout):
        raise OSError("gone")

    def close(self, grace=0.5):
        raise OSError("gone")

    def stderr_tail(self):
        raise RuntimeError("gone")


def test_a_broken_connection_is_a_forfeit_not_a_crash(manager):
    outcome = play(manager, _Broken(), manager.random_player(1, rules))
    assert (outcome.reason.value, outcome.forfeiter, outcome.winner) == ("eof", 1, 2)
    assert "handshake: reading its name line failed: gone" in outcome.detail


@pytest.mark.slow  # starts processes
def test_games_are_reproducible_from_a_seed_with_randy_as_a_program(manager):
    randy = str(TEMPLATE_DIR / "randy_ai.py")

    def game(seed, in_process_light):
        dark = manager.ProcessPlayer(
            randy, env={"OTHELLO_SEED": str(manager.player_seed(seed, 1))})
        light = (manager.random_player(manager.player_seed(seed, 2), rules)
                 if in_process_light else manager.ProcessPlayer(
                     randy, env={"OTHELLO_SEED": str(manager.player_seed(seed, 2))}))
        return play(manager, dark, light, size=6).moves

    first = game(7, in_process_light=False)
    assert game(7, in_process_light=True) == first
    assert game(8, in_process_light=True) != first


def test_save_and_replay_round_trip(manager, tmp_path):
    config = manager.GameConfig(size=6)
    outcome = manager.play_game(manager.random_player(1, rules), manager.random_player(2, rules),
                                config, rules=rules)
    path = tmp_path / "game.json"
    manager.save_game(path, outcome, config, seed=1)
    record = json.loads(path.read_text())
    assert record["seed"] == 1 and record["size"] == 6 and record["reason"] == "no-moves"
    boards = manager.replay(6, [tuple(m) for m in record["moves"]], rules)
    assert boards[-1] == outcome.board and len(boards) == len(outcome.moves) + 1
    with pytest.raises(ValueError, match=r"move 1 \(0, 0\) is illegal for dark"):
        manager.replay(6, [(0, 0)], rules)


def test_a_human_is_asked_again_until_the_move_is_legal(manager):
    answers = iter(["1 1", "-1 2", "oops", "0 1"])
    shown = []

    def ask(prompt):
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    human = manager.human_player(rules, ask=ask, show=shown.append)
    outcome = play(manager, human, manager.random_player(1, rules))
    assert outcome.moves[0] == (0, 1) and outcome.names[0] == "Human"
    assert shown.count("Not a legal move, try again.") == 3
    assert "legal moves: 0 1, 1 0, 2 3, 3 2" in shown[1]
    # the answers run out on the human's second turn: end of input is an EOF forfeit
    assert (outcome.reason.value, outcome.forfeiter, len(outcome.moves)) == ("eof", 1, 2)


def test_render_board_marks_the_last_move(manager):
    board = rules.play_move(START4, 1, 0, 1)
    assert manager.render_board(board, (0, 1)) == "\n".join([
        "   0  1  2  3",
        "0  .  .  .  .",
        "1 [X] X  X  .",
        "2  .  X  O  .",
        "3  .  .  .  .",
        "X dark 4   O light 1",
    ])
