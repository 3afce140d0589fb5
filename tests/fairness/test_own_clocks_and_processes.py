"""Honest code may keep its own time with signals and start its own processes, as real students
do: an Isolation player that stops its iterative deepening with ``signal.setitimer`` and a
SIGALRM handler that raises (instead of reading the clock at each node), and a Dominoes search
that hands work to a ``multiprocessing`` pool. The sandbox must leave both working: each variant
earns exactly the reference's score, case by case.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from gradingfair_support import (
    GENERATED,
    grade_reference,
    grade_variant,
    per_case,
    reference_fixture,
)

pytestmark = pytest.mark.slow

ISOLATION_STEMS = ["01_choose_move"]
SIGNAL_TIMED_PLAYER = [
    ("import time\n", "import signal\nimport time\n"),
    ("    if time.process_time() >= deadline:\n        raise OutOfTime\n    other", "    other"),
    ("    deadline = started + budget\n    depth = 1",
     "    deadline = started + budget\n\n"
     "    def ring(signum, frame):\n"
     "        raise OutOfTime\n\n"
     "    previous = signal.signal(signal.SIGALRM, ring)\n"
     "    signal.setitimer(signal.ITIMER_REAL, max(budget, 0.001))\n"
     "    try:\n"
     "        try:\n"
     "            return deepen(position, moves, best, budget, started, deadline)\n"
     "        finally:\n"
     "            signal.setitimer(signal.ITIMER_REAL, 0)\n"
     "            signal.signal(signal.SIGALRM, previous)\n"
     # the alarm can ring after the search returned and before it is cancelled (a busy host
     # widens that window): a careful student keeps the move found so far then too
     "    except OutOfTime:\n"
     "        return best\n\n\n"
     "def deepen(position, moves, best, budget, started, deadline):\n"
     "    depth = 1"),
]
DOMINOES_STEMS = ["02_get_best_move"]
POOL_IN_SEARCH = [
    ("def create_dominoes_game(rows, cols):",
     "import multiprocessing\n\n\n"
     "def count_moves(args):\n"
     "    board, vertical = args\n"
     "    return sum(1 for _ in DominoesGame(board).legal_moves(vertical))\n\n\n"
     "def create_dominoes_game(rows, cols):"),
    ("    def get_best_move(self, vertical, limit):\n",
     "    def get_best_move(self, vertical, limit):\n"
     "        with multiprocessing.Pool(2) as pool:  # a warm-up the student left in\n"
     "            mine, theirs = pool.map(count_moves, [(self.get_board(), vertical),\n"
     "                                                  (self.get_board(), not vertical)])\n"
     "        assert mine == sum(1 for _ in self.legal_moves(vertical))\n"),
]

isolation_reference = reference_fixture("isolation", ISOLATION_STEMS, GENERATED["isolation"])


def test_a_player_timed_by_its_own_alarm_signal_scores_as_the_reference(
        isolation_reference: dict[str, Any], tmp_path: Path) -> None:
    document = grade_variant(tmp_path, "isolation", SIGNAL_TIMED_PLAYER, stems=ISOLATION_STEMS,
                             generated=GENERATED["isolation"])
    assert isolation_reference["score"] == sum(t["max_score"]
                                               for t in isolation_reference["tests"])
    assert per_case(document) == per_case(isolation_reference)


def test_a_search_using_a_process_pool_scores_as_the_reference(tmp_path: Path) -> None:
    reference = grade_reference(tmp_path / "reference", "adversarial_search",
                                stems=DOMINOES_STEMS, generated=4)
    document = grade_variant(tmp_path, "adversarial_search", POOL_IN_SEARCH,
                             stems=DOMINOES_STEMS, generated=4)
    assert reference["score"] == sum(t["max_score"] for t in reference["tests"])
    assert per_case(document) == per_case(reference)
