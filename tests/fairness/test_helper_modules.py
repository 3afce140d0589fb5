"""Honest submissions split over several files score exactly what the reference scores.

The handouts say "submit all your code": real students put helpers in modules of their own
(``helpers.py``, a package, a separate state module). Each variant below is the reference solution
reorganised that way, graded through the real command line next to the reference itself (every
case but Othello's staff ladder, which is worth no points); the two scores must be equal (the
reference's score is computed here, never hard-coded).
"""
from __future__ import annotations

import json
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable

import pytest
from gg_testing import ROOT, run_gamegrader, without_ladder

# One worker runs this module: its module fixture grades every submission the tests read, and
# on a second worker the same fixture would only wait for the first's kept gradings.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("helper_modules")]

SOLUTIONS = ROOT / "assignments"
DOMINOES = (SOLUTIONS / "adversarial_search" / "solution" / "adversarial_search.py").read_text(
    encoding="utf-8")

SEARCH_MODULE = '''"""My alpha-beta search, kept apart from the game class."""


def alpha_beta_search(game, vertical, limit):
    """Return (best move, its value, leaves visited) for the player ``vertical``."""
    leaves = 0

    def value_of(node, player, alpha, beta, depth, maximising):
        nonlocal leaves
        if depth == 0 or node.game_over(player):
            leaves += 1
            return node.evaluate(vertical), None
        best_value = float("-inf") if maximising else float("inf")
        best_move = None
        for move, child in node.successors(player):
            value, _ = value_of(child, not player, alpha, beta, depth - 1, not maximising)
            if maximising and value > best_value:
                best_value, best_move = value, move
                alpha = max(alpha, best_value)
            elif not maximising and value < best_value:
                best_value, best_move = value, move
                beta = min(beta, best_value)
            if (maximising and best_value >= beta) or (not maximising and best_value <= alpha):
                break
        return best_value, best_move

    value, move = value_of(game, vertical, float("-inf"), float("inf"), limit, True)
    return move, value, leaves
'''


def dominoes_calling(import_line: str) -> str:
    """The reference Dominoes file with get_best_move delegating to a helper module."""
    start = DOMINOES.index("    # Required\n    def get_best_move")
    end = DOMINOES.index("\n\ndef create_dominoes_game")
    body = ("    def get_best_move(self, vertical, limit):\n"
            "        return alpha_beta_search(self, vertical, limit)\n")
    text = DOMINOES[:start] + body + DOMINOES[end:]
    return text.replace("import random\n", f"import random\n\n{import_line}\n", 1)


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def dominoes_with_helpers_module(folder: Path) -> None:
    """Zipped as a folder: hw4/adversarial_search.py importing hw4/helpers.py."""
    write(folder / "hw4" / "adversarial_search.py",
          dominoes_calling("from helpers import alpha_beta_search"))
    write(folder / "hw4" / "helpers.py", SEARCH_MODULE)


def dominoes_with_a_package(folder: Path) -> None:
    """A renamed download of the main file, with the search in a package of its own."""
    write(folder / "adversarial_search (1).py",
          dominoes_calling("from dominoes_ai.search import alpha_beta_search"))
    write(folder / "dominoes_ai" / "__init__.py", '"""My Dominoes AI."""\n')
    write(folder / "dominoes_ai" / "search.py", SEARCH_MODULE)


def stonehenge_split_in_two(folder: Path) -> None:
    """stonehenge.py keeps the game; Board and StonehengeState live in stonehenge_state.py."""
    text = (SOLUTIONS / "stonehenge" / "solution" / "stonehenge.py").read_text(encoding="utf-8")
    header_end = text.index("\nclass StonehengeGame")
    board_start = text.index("\nclass Board")
    main_start = text.index('\nif __name__ == "__main__"')
    header = text[:header_end]
    write(folder / "stonehenge_state.py",
          header + "\n" + text[board_start:main_start].rstrip() + "\n")
    write(folder / "stonehenge.py",
          header + "\nfrom stonehenge_state import Board, StonehengeState\n\n"
          + text[header_end:board_start].rstrip() + "\n")
    shutil.copyfile(SOLUTIONS / "stonehenge" / "solution" / "strategy.py", folder / "strategy.py")


def othello_with_heuristics_module(folder: Path) -> None:
    """agent.py imports its utility function from my_heuristics.py."""
    text = (SOLUTIONS / "othello" / "solution" / "agent.py").read_text(encoding="utf-8")
    start = text.index("def compute_utility(board, color):")
    end = text.index("def compute_heuristic")
    utility = text[start:end].rstrip() + "\n"
    write(folder / "my_heuristics.py",
          '"""Scoring boards."""\nfrom othello_shared import get_score\n\n\n' + utility)
    write(folder / "agent.py", text[:start] + "from my_heuristics import compute_utility\n\n\n"
          + text[end:])


VARIANTS: dict[str, tuple[str, Callable[[Path], None]]] = {
    "dominoes_helpers_py": ("adversarial_search", dominoes_with_helpers_module),
    "dominoes_package": ("adversarial_search", dominoes_with_a_package),
    "stonehenge_state_module": ("stonehenge", stonehenge_split_in_two),
    "othello_heuristics_module": ("othello", othello_with_heuristics_module),
}


def graded(assignment: str, submission: Path, output: Path) -> dict[str, Any]:
    """Every case but a staff ladder and hidden twins of seeded games
    (``gg_testing.without_ladder``)."""
    done = run_gamegrader("grade", "--assignment", assignment, "--submission", str(submission),
                          "--output", str(output), "--quiet", timeout=900,
                          env=without_ladder(output.parent / f"root-{assignment}", assignment))
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(output.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def documents(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """Every variant and every reference it is compared with, graded two at a time."""
    base = tmp_path_factory.mktemp("helper-modules")
    jobs = {f"reference:{a}": (a, SOLUTIONS / a / "solution")
            for a in {a for a, _ in VARIANTS.values()}}
    for name, (assignment, build) in VARIANTS.items():
        build(base / name)
        jobs[name] = (assignment, base / name)
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {key: pool.submit(graded, assignment, path, base / f"{key}.json")
                   for key, (assignment, path) in jobs.items()}
        return {key: future.result() for key, future in futures.items()}


def per_test(document: dict[str, Any]) -> dict[str, float]:
    return {test["name"]: test["score"] for test in document["tests"]}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_submission_split_into_modules_scores_like_the_reference(variant, documents):
    assignment = VARIANTS[variant][0]
    reference, document = documents[f"reference:{assignment}"], documents[variant]
    assert document["score"] == reference["score"], [
        (name, score) for name, score in per_test(document).items()
        if score != per_test(reference).get(name)][:5]
    assert per_test(document) == per_test(reference)


@pytest.mark.parametrize("variant, included", [
    ("dominoes_helpers_py", "Also included (your other Python files): helpers.py."),
    ("dominoes_package", "Also included (your other Python files): dominoes_ai/__init__.py, "
                         "dominoes_ai/search.py."),
    ("stonehenge_state_module", "Also included (your other Python files): stonehenge_state.py."),
    ("othello_heuristics_module", "Also included (your other Python files): my_heuristics.py."),
])
def test_the_feedback_lists_the_extra_files_included(variant, included, documents):
    assert included in documents[variant]["output"]


def test_a_student_s_local_check_of_a_file_brings_its_helper_modules(tmp_path):
    dominoes_with_helpers_module(tmp_path)
    done = run_gamegrader("check", str(tmp_path / "hw4" / "adversarial_search.py"))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Also included (your other Python files): helpers.py." in done.stdout
    assert "Total on the cases run here: 8/8 points" in done.stdout
