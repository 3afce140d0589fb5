"""Wrong agents (mutants of the reference solution) graded black-box: the exact outcome of each."""
from __future__ import annotations

import dataclasses

import pytest
from othello_support import SOLUTION, TEMPLATE_DIR, grade_cases, group_scores

from assignments.othello.runners import play_randy
from harness.sandbox import Sandbox
from harness.spec import find_assignment, load_case_file

pytestmark = pytest.mark.slow

MINIMAX_MIN_MOVES = "moves = get_possible_moves(board, opponent) if limit != 0 else []"
MINIMAX_MAX_MOVES = "moves = get_possible_moves(board, color) if limit != 0 else []"
REPLY = "print(i, j, flush=True)"


def messages(document, group):
    return "\n".join(t.get("output", "") for t in document["tests"]
                     if t["name"].startswith(group + ": "))


def test_min_node_with_the_wrong_colour(mutate, tmp_path):
    # the min node expands color's own moves: values are mirrored, alpha-beta is untouched
    agent = mutate(SOLUTION, [("opponent = 3 - color", "opponent = color")], name="agent.py")
    document = grade_cases(agent, tmp_path / "r.json", "02_minimax.yaml", "03_alphabeta.yaml")
    assert group_scores(document) == {"minimax": 8.021, "alphabeta": 20.0}
    assert ">>> minimax_max_node(board, 1, -1, 0)\n  utility 6 should be -6" in messages(
        document, "minimax")


def test_depth_limit_ignored(mutate, tmp_path):
    # minimax searches to the end whatever the limit: five full 4x4 searches overrun 3 s
    agent = mutate(SOLUTION, [(MINIMAX_MIN_MOVES, MINIMAX_MIN_MOVES.replace(
        " if limit != 0 else []", "")), (MINIMAX_MAX_MOVES, MINIMAX_MAX_MOVES.replace(
            " if limit != 0 else []", ""))], name="agent.py")
    document = grade_cases(agent, tmp_path / "r.json", "04_depth_limit.yaml",
                           keyword="start and minimax", timeout_cap=3)
    # On a loaded machine the full searches overrun the 3 s cap (0 points); on a quiet one they
    # finish and every depth-limited answer is wrong (only the unlimited example earns), in the
    # handout's start and in its mirror image alike.
    most = sum(t["max_score"] for t in document["tests"] if t["name"].startswith("depth_limit:"))
    assert group_scores(document)["depth_limit"] <= 0.5 * most
    text = messages(document, "depth_limit")
    assert "running this case did not finish within 3 s" in text or "should be" in text


def test_a_cache_that_forgets_the_move_breaks_select_move(mutate, tmp_path):
    # the cache maps boards to values only, so a hit at the root has no move to play
    agent = mutate(SOLUTION, [("return cache[key]", "return None, cache[key][1]")],
                   name="agent.py")
    document = grade_cases(agent, tmp_path / "r.json", "05_caching.yaml")
    # the game-turn cases pass: the key holds the limit, which keeps counting down below -1
    # (and at a depth limit is another on a later turn), so no later turn's root is ever found
    # in the cache
    assert group_scores(document) == {"caching": 6.0}
    assert (">>> select_move_minimax(board, 2, 4, 1)\n  caching changed the answer: (0, 1) "
            "without caching, None with caching") in messages(document, "caching")


def test_an_agent_that_only_pretends_to_order_gains_nothing(mutate, tmp_path):
    # ordering off in the nodes; the root's choice gives it away
    agent = mutate(SOLUTION, [("    if ordering:\n", "    if False:\n")], name="agent.py")
    document = grade_cases(agent, tmp_path / "r.json", "06_ordering.yaml")
    assert group_scores(document) == {"ordering": 0.0}
    assert "the first best move in column order" in messages(document, "ordering")
    assert "Likely mistake" not in messages(document, "ordering") or \
        "does not order successors" in messages(document, "ordering")


def test_printing_to_stdout_breaks_the_protocol_but_not_function_cases(mutate, tmp_path):
    header = "def select_move_alphabeta(board, color, limit=-1, caching=0, ordering=0):\n"
    agent = mutate(SOLUTION, [(header, header + "    print('thinking...')\n")],
                   name="agent.py")
    document = grade_cases(agent, tmp_path / "r.json", "03_alphabeta.yaml", "07_games.yaml")
    # only the minimax game (2 points) survives; captured stdout costs nothing in function cases
    assert group_scores(document) == {"alphabeta": 20.0, "games": 2.0}
    assert "lost by forfeit (malformed) on your move 1" in messages(document, "games")
    assert "reply 'thinking...' is not two integers 'column row'" in messages(document, "games")


def test_answering_minus_one_two_is_out_of_range(mutate, tmp_path):
    agent = mutate(SOLUTION, [(REPLY, "print(-1, 2, flush=True)")], name="agent.py")
    document = grade_cases(agent, tmp_path / "r.json", "07_games.yaml")
    assert group_scores(document) == {"games": 0.0}
    text = messages(document, "games")
    assert text.count("lost by forfeit (illegal) on your move 1") == 64  # every game played
    assert "your move (column, row): (-1, 2)" in text
    assert "(-1, 2) is not a legal move" in text


def test_sleeping_past_the_move_limit_times_out(mutate):
    agent = mutate(SOLUTION, [(REPLY, "import time; time.sleep(30); " + REPLY)],
                   name="agent.py")
    assignment = find_assignment("othello")
    games = [path for path in assignment.case_files if path.name == "07_games.yaml"][0]
    case = load_case_file(games, assignment, 7)[0]
    assert case.options["size"] == 4 and len(case.options["games"]) == 2
    # a 2 s case timeout caps the per-move limit at 2 s (Gradescope uses 10 s)
    short = dataclasses.replace(case, timeout=2.0)
    with Sandbox("agent", {"agent.py": agent,
                           "othello_shared.py": TEMPLATE_DIR / "othello_shared.py"}) as sandbox:
        judgement = play_randy(short, sandbox)
    assert judgement.fraction == 0.0
    lines = judgement.message.splitlines()
    assert lines[0] == ("won 0 of 2 games against Randy (4x4, alpha-beta, no depth limit; "
                        "2 s per move; needed 2)")
    assert lines[1] == "game 1: you played light (Randy's seed 1): lost by forfeit (timeout) " \
                       "on your move 1, dark 4 - light 1"
    # a sleep uses no CPU time: the move ends at the wall backstop of its 2 s of CPU time
    assert ("no reply within 12.000 s of wall time, the backstop for the 2.000 s of CPU time "
            "left (2 s per move)") in lines[2]
    assert lines[-1] == ("game 2: not played (skipped after a timeout, to save grading time)")


def test_a_program_that_never_says_its_name_plays_one_game_of_a_case(mutate):
    # The name line comes before the program learns anything of the game: a program that
    # crashes before it fails the same way in every game, so the case's other games are not
    # played (a case of six games against a hanging program took six times as long).
    agent = mutate(SOLUTION, [("def run_ai():\n", "def run_ai():\n    raise SystemExit(3)\n")],
                   name="agent.py")
    assignment = find_assignment("othello")
    games = [path for path in assignment.case_files if path.name == "07_games.yaml"][0]
    case = next(c for c in load_case_file(games, assignment, 7) if len(c.options["games"]) == 6)
    with Sandbox("agent", {"agent.py": agent,
                           "othello_shared.py": TEMPLATE_DIR / "othello_shared.py"}) as sandbox:
        judgement = play_randy(case, sandbox)
    assert judgement.fraction == 0.0
    lines = judgement.message.splitlines()
    assert "lost by forfeit (crash) on your move 1" in lines[1]
    assert "handshake: it exited or closed its output before its name line" in lines[2]
    skipped = [line for line in lines if line.startswith("game ") and "not played" in line]
    assert skipped == [f"game {n}: not played (skipped: your program did not say its name in "
                       "game 1, and it starts the same way in every game)" for n in range(2, 7)]
