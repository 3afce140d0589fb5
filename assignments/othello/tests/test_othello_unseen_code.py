"""Issue 50's Othello classes, as students wrote them: each agent is ``unseen/agent.py`` (a
student's full-marks file, board-keyed cache and all) with the one change its class makes,
graded black-box on the groups the class touches, at the score its code earns."""
from __future__ import annotations

from pathlib import Path

import pytest
from othello_support import grade_cases, group_scores

pytestmark = pytest.mark.slow

STUDENT = Path(__file__).resolve().parent / "unseen" / "agent.py"

MINIMAX_LOOKUP = ("    if caching and board in cached_states:\n"
                  "        return cached_states[board]\n    moves = get_possible_moves(board, ")
STORE = "cached_states[board] = (best_move, best_value)"
ALPHABETA_STORE = "    if caching and {} < best_value < {}:\n        " + STORE
EXACT_STORE = "    if {} < best_value < {}:\n        " + STORE
MINIMAX_STORE = "    if caching:\n        " + STORE
ROOT = "float(\"-inf\"), float(\"inf\"), limit, caching,\n"


def messages(document: dict) -> str:
    return "\n".join(test.get("output", "") for test in document["tests"])


def test_the_student_file_earns_every_caching_point(tmp_path: Path) -> None:
    document = grade_cases(STUDENT, tmp_path / "r.json", "05_caching.yaml")
    assert group_scores(document) == {"caching": 12.0}, messages(document)


def test_a_cache_that_raises_on_every_miss_fails_every_caching_case(mutate, tmp_path: Path
                                                                    ) -> None:
    # the lookup forgets the membership test, and states are stored whatever the switch: the
    # set-up's KeyError was swallowed and the searches found the root stored (12/12 before);
    # its games with caching forfeit on move 1
    lookup = "    if caching:\n        hit = cached_states[board]\n        if hit is not None:\n" \
             "            return hit\n    moves = get_possible_moves(board, "
    agent = mutate(STUDENT, [
        (MINIMAX_LOOKUP, lookup), (MINIMAX_STORE, "    " + STORE),
        *((ALPHABETA_STORE.format(*window), EXACT_STORE.format(*window))
          for window in (("alpha", "low"), ("high", "beta")))], name="agent.py")
    document = grade_cases(agent, tmp_path / "r.json", "05_caching.yaml")
    assert group_scores(document) == {"caching": 0.0}
    text = messages(document)
    assert "(the set-up: a game's first turn, caching on) raised KeyError" in text
    assert ">>> select_move_alphabeta(((0, 0, 0, 0, 0, 0), " in text


def test_an_exact_alpha_beta_cache_keyed_by_the_window_is_a_cache(mutate, tmp_path: Path
                                                                  ) -> None:
    # every value stored for the window it was searched with is exact for that window; where
    # no window repeats within one search it saves nothing there, and finds the root when the
    # position is searched again (it lost 2 of the 12 points before)
    agent = mutate(STUDENT, [
        ("def alphabeta_min_node(board, color, alpha, beta, limit, caching=0, ordering=0):\n"
         "    if caching and board in cached_states:\n        return cached_states[board]\n",
         "def alphabeta_min_node(board, color, alpha, beta, limit, caching=0, ordering=0):\n"
         "    key = (board, alpha, beta)\n"
         "    if caching and key in cached_states:\n        return cached_states[key]\n"),
        ("def alphabeta_max_node(board, color, alpha, beta, limit, caching=0, ordering=0):\n"
         "    if caching and board in cached_states:\n        return cached_states[board]\n",
         "def alphabeta_max_node(board, color, alpha, beta, limit, caching=0, ordering=0):\n"
         "    key = (board, alpha, beta)\n"
         "    if caching and key in cached_states:\n        return cached_states[key]\n"),
        ("    low = beta\n", "    low, window = beta, (alpha, beta)\n"),
        ("    high = alpha\n", "    high, window = alpha, (alpha, beta)\n"),
        (ALPHABETA_STORE.format("alpha", "low"),
         "    if caching:\n        cached_states[(board, *window)] = (best_move, best_value)"),
        (ALPHABETA_STORE.format("high", "beta"),
         "    if caching:\n        cached_states[(board, *window)] = (best_move, best_value)")],
        name="agent.py")
    document = grade_cases(agent, tmp_path / "r.json", "05_caching.yaml")
    assert group_scores(document) == {"caching": 12.0}, messages(document)
    assert "tested: the alpha-beta search's cache" in messages(document)


def test_a_cache_filled_but_not_read_with_caching_off_is_not_used(mutate, tmp_path: Path
                                                                   ) -> None:
    # every explored state is remembered with its disk count (a helper call made once per
    # state), read only with caching on: the second search without caching made fewer calls
    # and was charged as a cache used with caching=0 (0 of 12 before)
    store = ("    if board not in cached_states:  # remember every state we explored\n"
             "        cached_states[board] = (best_move, best_value, sum(get_score(board)))")
    agent = mutate(STUDENT, [
        ("cached_states[board]\n    moves", "cached_states[board][:2]\n    moves"),
        (MINIMAX_STORE, store)], name="agent.py")
    document = grade_cases(agent, tmp_path / "r.json", "05_caching.yaml")
    assert group_scores(document) == {"caching": 12.0}, messages(document)
    assert "must not be read" not in messages(document)


SHORT_ROOT_KEYED_BY_LIMIT = [
    ("cached_states[board]", "cached_states[(board, limit)]"),
    ("board in cached_states", "(board, limit) in cached_states"),
    ("return minimax_max_node(board, color, limit, caching)[0]",
     "return minimax_max_node(board, color, limit - 1, caching)[0]"),
    (ROOT, ROOT.replace("limit,", "limit - 1,"))]
"""select_move searches from limit - 1 (charged in the depth-limit cases), its cache keyed by
the board and the remaining depth."""


def test_a_root_one_ply_short_is_not_charged_as_caching(mutate, tmp_path: Path) -> None:
    # with a key that holds the limit, its root is not found in the cache, and the answer was
    # blamed on caching ("caching changed the answer") though select_move without caching gives
    # it too; and searched one ply short, a game's turns at a depth limit had no position its
    # cache could find, so 3 of those 4 cases failed it as a search without a cache (9/12
    # before): they now judge its cache one ply deeper, the depth its search reaches
    agent = mutate(STUDENT, SHORT_ROOT_KEYED_BY_LIMIT, name="agent.py")
    document = grade_cases(agent, tmp_path / "r.json", "05_caching.yaml")
    text = messages(document)
    assert group_scores(document) == {"caching": 12.0}, text
    assert "caching changed the answer" not in text
    assert "with and without caching (move" in text
    assert "a mistake of the search itself, charged where that search is graded" in text
    assert ("caching judged at the depth your search reaches; the depth limit is charged in "
            "its own group") in text


def test_a_root_one_ply_short_without_a_cache_still_fails_the_caching_turns(
        mutate, tmp_path: Path) -> None:
    # the same short root with its cache never read: judged one ply deeper, it still saves
    # nothing, so every game-turn case fails it
    agent = mutate(STUDENT, [*SHORT_ROOT_KEYED_BY_LIMIT, (
        "if caching and (board, limit) in cached_states:", "if False:")], name="agent.py")
    document = grade_cases(agent, tmp_path / "r.json", "05_caching.yaml", keyword="game")
    text = messages(document)
    assert group_scores(document) == {"caching": 0.0}, text
    assert "your searches without caching chose moves a root one ply short of the limit " \
        "chooses; one ply deeper: calls into othello_shared" in text


def test_colour_nodes_with_the_starters_level_and_limit_are_graded(grade) -> None:
    # issue 50: alphabeta_min_node(board, color, alpha, beta, level, limit), the signature the
    # colour-only starter's own comment proposes, made the whole alpha-beta group "not run"
    # (30 points), select_move_alphabeta(board, color) lines included
    document = grade("othello_colour", STUDENT.parent / "colour_agent.py")
    assert document["score"] == 100, [
        f"{t['name']}: {t.get('output', '')[:300]}" for t in document["tests"]
        if t["score"] < t["max_score"]]
    assert "alphabeta_min_node has a changed signature" not in document.get("output", "")


def test_a_root_one_ply_short_in_the_handouts_order_earns_every_ordering_point(
        mutate, tmp_path: Path) -> None:
    # the same mistake in select_move_alphabeta: on one 8x8 position the handout's order one
    # ply short chooses the first best move in column order, which a root ignoring ordering
    # chooses too, so it lost that case (11/13) for a mistake the depth-limit cases charge;
    # the select_move one ply deeper there tells the two apart
    agent = mutate(STUDENT, [(ROOT, ROOT.replace("limit,", "limit - 1,"))], name="agent.py")
    document = grade_cases(agent, tmp_path / "r.json", "06_ordering.yaml")
    text = messages(document)
    assert group_scores(document) == {"ordering": 13.0}, text
    assert ("(0, 5) is what a root searching one ply less than the limit chooses in the "
            "handout's order, and with limit 5 your root chose as that order does one ply short "
            "of it, no move a search to that limit chooses: the ordering is right; the depth "
            "limit is charged in the depth_limit cases, not here") in text
    assert "as a root that does not order its successors would" not in text


def test_pruning_ordered_by_a_heuristic_of_ones_own_is_not_called_no_pruning(
        mutate, tmp_path: Path) -> None:
    # corners first, then compute_utility: it prunes, and reaches a best move before the stop
    # as a search without pruning does; "alpha-beta without any pruning" was named as the cause
    corners = ("        corners = ((0, 0), (0, len(board) - 1), (len(board) - 1, 0),\n"
               "                   (len(board) - 1, len(board) - 1))\n"
               "        result.sort(key=lambda pair: (pair[0] in corners,\n"
               "                                      compute_utility(pair[1], color)),\n"
               "                    reverse=True)")
    agent = mutate(STUDENT, [
        ("        result.sort(key=lambda pair: compute_utility(pair[1], color), reverse=True)",
         corners)], name="agent.py")
    document = grade_cases(agent, tmp_path / "r.json", "06_ordering.yaml")
    text = messages(document)
    assert group_scores(document) == {"ordering": 6.0}, text
    # Named at all only where the group's wrong answers single it out (diagnosis_groups), and
    # then never as the one cause: the other key is as likely.
    if "without any pruning" in text:
        assert ("Likely mistake: your answers are exactly what alpha-beta without any pruning "
                "(or, as likely, alpha-beta that prunes but orders successors by another key"
                ) in text
    assert "alpha-beta without any pruning gives" not in text


# The colour agent with the other reading of a min node's colour: there ``color`` is the player
# to move (the opponent), and the value is the AI's.
MOVER_READING = [
    ("def minimax_min_node(board, color):\n    opponent = 2 if color == 1 else 1\n"
     "    moves = get_possible_moves(board, opponent)\n    if len(moves) == 0:\n"
     "        return compute_utility(board, color)\n"
     "    values = [minimax_max_node(play_move(board, opponent, m[0], m[1]), color) "
     "for m in moves]",
     "def minimax_min_node(board, color):  # color is the player to move: the opponent\n"
     "    ai = 2 if color == 1 else 1\n    moves = get_possible_moves(board, color)\n"
     "    if len(moves) == 0:\n        return compute_utility(board, ai)\n"
     "    values = [minimax_max_node(play_move(board, color, m[0], m[1]), ai) for m in moves]"),
    ("    values = [minimax_min_node(play_move(board, color, m[0], m[1]), color) for m in moves]",
     "    values = [minimax_min_node(play_move(board, color, m[0], m[1]), 3 - color)\n"
     "              for m in moves]"),
    ("minimax_min_node(play_move(board, color, move[0], move[1]), color)",
     "minimax_min_node(play_move(board, color, move[0], move[1]), 3 - color)"),
    ("def alphabeta_min_node(board, color, alpha, beta, level, limit):\n"
     "    opponent = 2 if color == 1 else 1\n    moves = get_possible_moves(board, opponent)\n"
     "    if len(moves) == 0 or level == limit:\n        return compute_utility(board, color)",
     "def alphabeta_min_node(board, color, alpha, beta, level, limit):  # color moves here\n"
     "    opponent, color = color, 3 - color\n    moves = get_possible_moves(board, opponent)\n"
     "    if len(moves) == 0 or level == limit:\n        return compute_utility(board, color)"),
    ("alphabeta_min_node(child, color, alpha, beta, level + 1, limit)",
     "alphabeta_min_node(child, 3 - color, alpha, beta, level + 1, limit)"),
    ("alphabeta_min_node(child, color, alpha, float(\"inf\"), 1, DEPTH)",
     "alphabeta_min_node(child, 3 - color, alpha, float(\"inf\"), 1, DEPTH)")]


def test_colour_min_nodes_taking_color_for_the_player_to_move_are_graded(grade, mutate) -> None:
    # issue 50: the colour-only starter does not say whose colour a min node gets; this one
    # gets the player to move there and values the position for the AI (82.75 before)
    agent = mutate(STUDENT.parent / "colour_agent.py", MOVER_READING, name="agent.py")
    document = grade("othello_colour", agent)
    assert document["score"] == 100, [
        f"{t['name']}: {t.get('output', '')[:300]}" for t in document["tests"]
        if t["score"] < t["max_score"]]
