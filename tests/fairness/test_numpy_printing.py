"""A transcript that prints values built from numpy indexes reads as the course's did.

The handouts' transcripts print moves (``print(move, new_p.get_board())``), and the courses ran
them with numpy 1, where ``np.int64(0)`` printed as ``0`` inside a tuple. Under numpy 2 it prints
``np.int64(0)``, so an honest Lights Out ``successors`` that takes its moves from
``np.argwhere`` lost the handout's print example. Each variant here must earn exactly the
reference's score and status in every case of the files graded.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from gradingfair_support import grade_variant, per_case, reference_fixture

pytestmark = pytest.mark.slow

SG_STEMS = ["07_successors"]
DOMINOES_STEMS = ["01_infrastructure"]
NUMPY_LIGHTS_OUT = [
    ("import random\n", "import random\n\nimport numpy as np\n"),
    ("        for row in range(self.rows):\n            for col in range(self.cols):\n"
     "                puzzle = self.copy()\n                puzzle.perform_move(row, col)\n"
     "                yield (row, col), puzzle",
     "        for row, col in np.argwhere(np.ones((self.rows, self.cols), dtype=bool)):\n"
     "            puzzle = self.copy()\n            puzzle.perform_move(row, col)\n"
     "            yield (row, col), puzzle")]
NUMPY_DOMINOES = [
    ("import random\n", "import random\n\nimport numpy as np\n"),
    ("        for row in range(self.rows):\n            for col in range(self.cols):\n"
     "                if self.is_legal_move(row, col, vertical):\n"
     "                    yield (row, col)",
     "        for row, col in np.argwhere(np.ones((self.rows, self.cols), dtype=bool)):\n"
     "            if self.is_legal_move(row, col, vertical):\n"
     "                yield (row, col)")]

sg_reference = reference_fixture("search_and_games", SG_STEMS)
dominoes_reference = reference_fixture("adversarial_search", DOMINOES_STEMS)


def test_lights_out_moves_from_numpy_indexes_print_as_the_handout_shows(
        sg_reference: dict[str, Any], tmp_path: Path) -> None:
    document = grade_variant(tmp_path, "search_and_games", NUMPY_LIGHTS_OUT, stems=SG_STEMS)
    assert sg_reference["score"] == sum(t["max_score"] for t in sg_reference["tests"]) > 0
    assert per_case(document) == per_case(sg_reference)


def test_dominoes_moves_from_numpy_indexes_pass_the_printed_successors_examples(
        dominoes_reference: dict[str, Any], tmp_path: Path) -> None:
    """The infrastructure cases carry no points, so their status is what is compared."""
    document = grade_variant(tmp_path, "adversarial_search", NUMPY_DOMINOES,
                             stems=DOMINOES_STEMS)
    assert all(status == "passed" for _, status in per_case(dominoes_reference).values())
    assert per_case(document) == per_case(dominoes_reference)
