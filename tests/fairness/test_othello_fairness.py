"""Honest Othello agents, written the ways real students write them, score what the reference does.

Each variant is the reference solution with one honest change the handout allows: another
cache key (the handout's "dictionary that maps board states to their minimax value"), an
alpha-beta cache that also stores pruned nodes' bounds, node results as lists, moves as lists
inside them, () for "no move" (the handout fixes no form; the course's tests unpack the pair),
other tie-breaking, debug output on stderr, the supplied helpers
called through their module or held in default arguments of helper functions, search functions
without the starter's defaults (the course's tests pass every argument), the moves asked for
before the cache is looked up, (None, inf) returned at a cut-off, select_move searching the
root's moves itself, a cache made on the first select_move (issue 39). Every variant is
graded black-box on every case of the assignment but the staff ladder (worth no points) and the
games' hidden twins, which play the visible games' settings again with other seeds (the
reference's whole grading in the release check, ``gamegrader validate`` in ``.ci/run``, plays
both), and must get exactly the reference's score, case by case. Agents that leave a part out
must still lose exactly that part.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from gg_testing import ROOT, run_gamegrader, scores_by_group, without_ladder

pytestmark = pytest.mark.slow

SOLUTION = ROOT / "assignments" / "othello" / "solution" / "agent.py"
TEMPLATE = ROOT / "assignments" / "othello" / "template" / "agent.py"

MIN_KEY, MAX_KEY = 'key = ("min", board, color, limit)', 'key = ("max", board, color, limit)'


# A cache keyed without the depth must not store depth-limit leaves: with an even limit a later
# turn's root is a leaf of the search two turns before, and a stored leaf's None move would come
# back as that turn's answer (issue 39, item 1; the games at -l 4 -c forfeit). Storing only
# positions searched below is what such students write.
LEAVES_NOT_STORED = [
    ("    if caching:\n        cache[key] = (best_move, best)",
     "    if caching and limit != 0:\n        cache[key] = (best_move, best)"),
    ("        if caching:\n            cache[key] = answer",
     "        if caching and limit != 0:\n            cache[key] = answer")]


def _keys(new: str) -> list[tuple[str, str]]:
    edits = [(MIN_KEY, f"key = {new}"), (MAX_KEY, f"key = {new}")]
    return edits if "limit" in new else edits + LEAVES_NOT_STORED


# The starter's defaults left out (the 2020-2024 starters give select_move_alphabeta's limit
# none either); the course's own tests pass every argument, so such an agent passes them.
NO_DEFAULTS = [("caching=0, ordering=0)", "caching, ordering)"), ("caching=0)", "caching)"),
               ("limit=-1, ", "limit, ")]

SUCCESSORS = '''def _successors(board, player, color, ordering):
    children = [((i, j), play_move(board, player, i, j))
                for i, j in get_possible_moves(board, player)]'''

HONEST: dict[str, list[tuple[str, str]]] = {
    # caching (issue 18, class 3): keys from the board alone to the reference's full key (the
    # board alone as str(board): the same entries hit and miss as with the board's tuple,
    # which is no other class)
    "cache keyed on (board, colour)": _keys("(board, color)"),
    "cache keyed on (board, colour, limit)": _keys("(board, color, limit)"),
    "cache keyed on str(board)": _keys("str(board)"),
    # the handout's literal reading in alpha-beta: every searched node is stored, a pruned
    # node's bound too, and leaves are not; the bounds change later pruning, so on one hidden
    # position the search made 7 more calls with caching (2838 against 2831) while exploring
    # no position twice (18 repeats without caching): the probe's second count shows the cache
    "alpha-beta cache storing pruned nodes' bounds, leaves not cached": [
        ("        if best <= alpha:\n            return best_move, best\n",
         "        if best <= alpha:\n            break\n"),
        ("        if best >= beta:\n            return best_move, best\n",
         "        if best >= beta:\n            break\n"),
        ("    if caching and alpha < best < high:\n", "    if caching:\n"),
        ("    if caching and low < best < beta:\n", "    if caching:\n"),
        ("        answer = (None, compute_utility(board, color))\n        if caching:\n"
         "            cache[key] = answer\n        return answer",
         "        return None, compute_utility(board, color)")],
    # representations (class 2): node functions return [move, value] lists
    "node results as lists": [("return best_move, best", "return [best_move, best]"),
                              ("cache[key] = (best_move, best)", "cache[key] = [best_move, best]"),
                              ("answer = (None, compute_utility(board, color))",
                               "answer = [None, compute_utility(board, color)]")],
    "no move written as () at leaves": [
        ("best_move, best = None, compute_utility(board, color)",
         "best_move, best = (), compute_utility(board, color)"),
        ("answer = (None, compute_utility(board, color))",
         "answer = ((), compute_utility(board, color))")],
    "moves as [column, row] lists inside node results": [
        ("best_move, best = (i, j), value", "best_move, best = [i, j], value"),
        ("children = [((i, j), play_move(", "children = [([i, j], play_move("),
        ("return minimax_max_node(board, color, limit, caching)[0]",
         "return tuple(minimax_max_node(board, color, limit, caching)[0])"),
        ("return alphabeta_max_node(board, color, -math.inf, math.inf, limit, caching, "
         "ordering)[0]",
         "return tuple(alphabeta_max_node(board, color, -math.inf, math.inf, limit, caching, "
         "ordering)[0])")],
    # ties: minimax keeps the last best move; alpha-beta searches the moves in reverse order
    # (">=" in alpha-beta would be a real bug: a pruned child's bound may equal alpha)
    "ties broken another way": [
        ("caching)[1]\n            if value > best:", "caching)[1]\n            if value >= best:"),
        ("caching)[1]\n            if value < best:", "caching)[1]\n            if value <= best:"),
        ("for i, j in get_possible_moves(board, player)]",
         "for i, j in reversed(get_possible_moves(board, player))]")],
    "search functions without the starter's defaults": NO_DEFAULTS,
    # debugging output on stderr, as the handout asks (eprint)
    "eprint debug output": [
        ("def select_move_alphabeta(board, color, limit=-1, caching=0, ordering=0):\n",
         "def select_move_alphabeta(board, color, limit=-1, caching=0, ordering=0):\n"
         "    eprint('alpha-beta', color, limit, caching, ordering, board)\n"),
        ("def select_move_minimax(board, color, limit, caching=0):\n",
         "def select_move_minimax(board, color, limit, caching=0):\n"
         "    eprint('minimax', color, limit, caching)\n")],
    # helper functions that hold the supplied helpers in default arguments (work is still seen)
    "helpers called through the module": [
        ("from othello_shared import get_possible_moves, get_score, play_move",
         "import othello_shared as rules"),
        ("get_possible_moves(board", "rules.get_possible_moves(board"),
        ("play_move(board", "rules.play_move(board"),
        ("get_score(board)", "rules.get_score(board)")],
    "helpers bound as default arguments": [(SUCCESSORS, '''\
def _successors(board, player, color, ordering, moves_of=get_possible_moves, play=play_move):
    children = [((i, j), play(board, player, i, j)) for i, j in moves_of(board, player)]''')],
    # issue 39, item 2: the moves are asked for before the cache is looked up, so a hit saves
    # few calls; it still explores nothing again, which is what the handout's cache is for
    "moves asked for before the cache is looked up": [
        ("""    key = ("max", board, color, limit)
    if caching and key in cache:
        return cache[key]
    moves = get_possible_moves(board, color) if limit != 0 else []
""", """    key = ("max", board, color, limit)
    moves = get_possible_moves(board, color) if limit != 0 else []
    if caching and key in cache:
        return cache[key]
"""),
        ("""    key = ("min", board, color, limit)
    if caching and key in cache:
        return cache[key]
    opponent = 3 - color
    moves = get_possible_moves(board, opponent) if limit != 0 else []
""", """    key = ("min", board, color, limit)
    opponent = 3 - color
    moves = get_possible_moves(board, opponent) if limit != 0 else []
    if caching and key in cache:
        return cache[key]
""")],
    # issue 39, item 4: what a node returns when it stops early is not fixed by the handout
    "(None, inf) returned at a cut-off": [
        ("        if best >= beta:\n            return best_move, best\n",
         "        if best >= beta:\n            return None, math.inf\n"),
        ("        if best <= alpha:\n            return best_move, best\n",
         "        if best <= alpha:\n            return None, -math.inf\n")],
    # issue 39, item 5: select_move searches the root's moves itself, one ply down each
    "select_move searching the root's moves itself": [
        ("""def select_move_alphabeta(board, color, limit=-1, caching=0, ordering=0):
    return alphabeta_max_node(board, color, -math.inf, math.inf, limit, caching, ordering)[0]
""", """def select_move_alphabeta(board, color, limit=-1, caching=0, ordering=0):
    best_move, best = None, -math.inf
    for move, child in _successors(board, color, color, ordering):
        value = alphabeta_min_node(child, color, best, math.inf, limit - 1, caching, ordering)[1]
        if value > best:
            best_move, best = move, value
    return best_move
""")],
    # issue 39, item 6: the cache is made on the first select_move, as a game's first turn does
    "cache created on the first select_move": [
        ("cache = {}\n", "cache = None\n\n\ndef _ensure_cache():\n    global cache\n"
                         "    if cache is None:\n        cache = {}\n"),
        ("def select_move_minimax(board, color, limit, caching=0):\n",
         "def select_move_minimax(board, color, limit, caching=0):\n    _ensure_cache()\n"),
        ("def select_move_alphabeta(board, color, limit=-1, caching=0, ordering=0):\n",
         "def select_move_alphabeta(board, color, limit=-1, caching=0, ordering=0):\n"
         "    _ensure_cache()\n")],
}


def _write(tmp_path: Path, name: str, replacements: list[tuple[str, str]],
           base: Path = SOLUTION) -> Path:
    text = base.read_text(encoding="utf-8")
    for old, new in replacements:
        assert old in text, f"{old!r} is not in the solution"
        text = text.replace(old, new)
    folder = tmp_path / name.replace(" ", "_").replace(",", "")
    folder.mkdir()
    (folder / "agent.py").write_text(text, encoding="utf-8")
    return folder / "agent.py"


def _grade(submission: Path, output: Path, assignment: str = "othello") -> dict[str, Any]:
    """Every case but the staff ladder and the games' hidden twins with other seeds
    (``gg_testing.without_ladder``)."""
    done = run_gamegrader("grade", "--assignment", assignment, "--submission", str(submission),
                          "--output", str(output), "--quiet",
                          env=without_ladder(output.parent / "root", assignment))
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(output.read_text(encoding="utf-8"))


def _case_scores(document: dict[str, Any]) -> dict[str, float]:
    return {test["name"]: test["score"] for test in document["tests"]}


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return _grade(SOLUTION, tmp_path_factory.mktemp("reference") / "results.json")


def _not_full(document: dict[str, Any]) -> list[str]:
    return [t["name"] for t in document["tests"] if t["score"] < t["max_score"]]


def test_the_reference_earns_every_point(reference: dict[str, Any]) -> None:
    assert reference["score"] > 0 and _not_full(reference) == []


@pytest.mark.parametrize("name", sorted(HONEST))
def test_honest_variant_scores_like_the_reference(name: str, tmp_path: Path,
                                                  reference: dict[str, Any]) -> None:
    document = _grade(_write(tmp_path, name, HONEST[name]), tmp_path / "results.json")
    lost = {case: score for case, score in _case_scores(document).items()
            if score != _case_scores(reference)[case]}
    assert lost == {}, "\n".join(t.get("output", "") for t in document["tests"]
                                 if t["name"] in lost)
    assert document["score"] == reference["score"]
    assert not any("Likely mistake" in t.get("output", "") for t in document["tests"])


@pytest.mark.parametrize("assignment", ["othello_2025", "othello_valuefn"])
def test_variant_agents_without_the_starters_defaults_get_full_marks(assignment: str,
                                                                      tmp_path: Path) -> None:
    # their cases are othello's, in their call forms: every argument is passed there too
    base = ROOT / "assignments" / assignment / "solution" / "agent.py"
    document = _grade(_write(tmp_path, assignment, NO_DEFAULTS, base), tmp_path / "results.json",
                      assignment)
    assert "caching has no default in yours" in document["output"]
    assert document["score"] > 0 and _not_full(document) == []


STUBS = {
    "the untouched template": [],
    # the 2020-2024 starter's stubs: node functions return ((0, 0), 0)
    "the 2020-2024 stubs": [("return None, 0", "return (0, 0), 0")],
}


@pytest.mark.parametrize("name", sorted(STUBS))
def test_a_stub_earns_at_most_two_percent(name: str, tmp_path: Path) -> None:
    text = TEMPLATE.read_text(encoding="utf-8")
    for old, new in STUBS[name]:
        assert old in text
        text = text.replace(old, new)
    (tmp_path / "agent.py").write_text(text, encoding="utf-8")
    document = _grade(tmp_path / "agent.py", tmp_path / "results.json")
    assert document["score"] <= 2
    assert document["score"] == 0  # every constant answer is paired with one it misses


LEFT_OUT = {
    # the flags are read but nothing is cached / ordered: exactly that part is lost
    "caching ignored": ([("if caching and key in cache:", "if False:"),
                         ("if caching:\n", "if False:\n"),
                         ("if caching and alpha < best < high:", "if False:"),
                         ("if caching and low < best < beta:", "if False:")], "caching"),
    "ordering ignored": ([("    if ordering:\n", "    if False:\n")], "ordering"),
}


@pytest.mark.parametrize("name", sorted(LEFT_OUT))
def test_an_agent_without_a_part_loses_exactly_that_part(name: str, tmp_path: Path,
                                                          reference: dict[str, Any]) -> None:
    replacements, group = LEFT_OUT[name]
    document = _grade(_write(tmp_path, name, replacements), tmp_path / "results.json")
    expected = dict(scores_by_group(reference), **{group: 0.0})
    assert scores_by_group(document) == expected
